// Usage mistakes as a newcomer makes them: a mistyped command, -h after a command, a zero timeout.
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';

const env = () => ({ FLOE_CONFIG_DIR: tempConfigDir() });

describe('usage', () => {
  it('suggests the command a typo was meant to be, and nothing for a word far from all of them', async () => {
    for (const [typed, meant] of [
      ['tset', 'test'],
      ['jbos', 'jobs'],
      ['exprot', 'export'],
      ['Setup', 'setup'],
    ] as const) {
      const r = await floeRun([typed], { env: env() });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`unknown command "${typed}": did you mean "${meant}"?`);
    }
    const far = await floeRun(['xyzzy'], { env: env() });
    expect(far.status).toBe(2);
    expect(far.stderr).toContain('unknown command "xyzzy"\n');
  });

  it('takes -p as --profile in every command that has --profile', async () => {
    for (const command of ['test', 'export', 'push', 'pull', 'stack', 'jobs', 'setup']) {
      const r = await floeRun([command, '-p', 'nosuch', '--help'], { env: env() });
      expect(r.status, `${command}: ${r.stderr}`).toBe(0);
    }
    const r = await floeRun(['export', '-p', 'nosuch'], { env: env() });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('nosuch');
  });

  it('takes -h as --help after every command', async () => {
    for (const command of ['profiles', 'setup', 'export', 'jobs', 'sandbox', 'import']) {
      const r = await floeRun([command, '-h'], { env: env() });
      expect(r.status, `${command}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: floe ${command}`));
    }
  });

  it('names the value a bad --timeout had and the range it must be in', async () => {
    const r = await floeRun(['test', '--timeout', '0'], { env: env() });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      '--timeout: "0" is not a number of seconds above 0 and at most 300, e.g. --timeout 15',
    );
  });
});
