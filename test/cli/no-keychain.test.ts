// On a host without a usable keychain, a profile with nothing secret is saved, shown, exported and
// deleted without ever needing it.
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';

describe('a profile with no secrets on a host without a keychain', () => {
  it('is saved, shown, exported and deleted', async () => {
    const env = { FLOE_CONFIG_DIR: tempConfigDir() };
    // Every keychain call fails, as with no Secret Service on the session bus.
    const keychain = 'unavailable';
    const saved = await floeRun(
      [
        'setup',
        '--yes',
        '--profile',
        'plain',
        '--auth-type',
        'none',
        '--storage',
        'aws',
        '--catalog-url',
        'https://lake.example.com/catalog',
        '--s3-path',
        's3://warehouse',
        '--region',
        'us-east-1',
      ],
      { env, keychain },
    );
    expect(saved.status).toBe(0);
    expect(saved.stderr).toContain('Saved profile "plain" (authentication: None; no secrets to store)');
    for (const args of [
      ['profiles', 'show', 'plain'],
      ['export', '--profile', 'plain'],
      ['profiles', 'delete', 'plain'],
    ]) {
      const r = await floeRun(args, { env, keychain });
      expect(r.stderr).not.toContain('keychain');
      expect(r.status).toBe(0);
    }
    expect((await floeRun(['profiles', 'list'], { env, keychain })).stdout).toContain('No profiles yet');
  });
});
