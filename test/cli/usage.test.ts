// Usage mistakes as a newcomer makes them: a mistyped command, -h after a command, a zero timeout.
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../support/cli.js';

const env = () => ({ FLOE_CONFIG_DIR: tempConfigDir() });

describe('usage', () => {
  it('suggests the command a typo was meant to be, and nothing for a word far from all of them', () => {
    for (const [typed, meant] of [
      ['tset', 'test'],
      ['jbos', 'jobs'],
      ['exprot', 'export'],
      ['Setup', 'setup'],
    ] as const) {
      const r = runCli([typed], { env: env() });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`unknown command "${typed}": did you mean "${meant}"?`);
    }
    const far = runCli(['xyzzy'], { env: env() });
    expect(far.status).toBe(2);
    expect(far.stderr).toContain('unknown command "xyzzy"\n');
  });

  it('takes -p as --profile in every command that has --profile', () => {
    for (const command of ['test', 'export', 'push', 'pull', 'stack', 'jobs', 'setup']) {
      const r = runCli([command, '-p', 'nosuch', '--help'], { env: env() });
      expect(r.status, `${command}: ${r.stderr}`).toBe(0);
    }
    const r = runCli(['export', '-p', 'nosuch'], { env: env() });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('nosuch');
  });

  it('takes -h as --help after every command', () => {
    for (const command of ['profiles', 'setup', 'export', 'jobs', 'sandbox', 'import']) {
      const r = runCli([command, '-h'], { env: env() });
      expect(r.status, `${command}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: floe ${command}`));
    }
  });

  it('names the value a bad --timeout had and the range it must be in', () => {
    const r = runCli(['test', '--timeout', '0'], { env: env() });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      '--timeout: "0" is not a number of seconds above 0 and at most 300, e.g. --timeout 15',
    );
  });
});
