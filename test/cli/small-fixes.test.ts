// Issue 19, item 13 (the small ones): an unknown flag close to a known one is named, the profile list
// says "none" for a profile with nothing secret, and the catalog time-out remedy names --timeout.
import { describe, expect, it } from 'vitest';
import { diagnosis } from '../../src/catalog/diagnoses.js';
import { tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';

describe('small fixes of issue 19', { timeout: 60_000 }, () => {
  it('--profil: did you mean --profile?', async () => {
    const run = await floeRun(['test', '--profil', 'x']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("Unknown option '--profil': did you mean --profile?");
    expect((await floeRun(['export', '--outptu', 'x'])).stderr).toContain('did you mean --output?');
    expect((await floeRun(['test', '--zzzzzzzz'])).stderr).not.toContain('did you mean');
  });

  it('profiles list: a profile with nothing secret says "secrets: none"', async () => {
    const dir = tempConfigDir();
    const env = { FLOE_CONFIG_DIR: dir };
    const setup = await floeRun(
      [
        'setup',
        '--yes',
        '--profile',
        'open',
        '--auth-type',
        'none',
        '--catalog-url',
        'http://127.0.0.1:1/c',
        '--warehouse',
        'w',
        '--region',
        'us-east-1',
      ],
      { env },
    );
    expect(setup.status, setup.stderr).toBe(0);
    expect((await floeRun(['profiles', 'list'], { env })).stdout).toContain('secrets: none');
    expect(JSON.parse((await floeRun(['profiles', 'list', '--json'], { env })).stdout)[0].secrets).toBe(
      'keychain',
    );
  });

  it('the catalog time-out remedy names --timeout', async () => {
    expect(diagnosis('CATALOG_TIMEOUT', 'catalog.config', { what: 'timed out' }).remedy).toContain(
      'floe test --timeout 30',
    );
  });
});

describe('floe jobs test --timeout', () => {
  it('takes --timeout as floe test does, and only with test', async () => {
    const bad = await floeRun(['jobs', 'test', '3', '--timeout', '0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--timeout: "0" is not a number of seconds above 0 and at most 300');
    const misplaced = await floeRun(['jobs', 'list', '--timeout', '5']);
    expect(misplaced.status).toBe(2);
    expect(misplaced.stderr).toContain('--timeout goes with "test"');
    expect((await floeRun(['jobs', '--help'])).stdout).toContain('--timeout SECONDS');
  });
});
