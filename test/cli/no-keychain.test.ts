// On a host without a usable keychain, a profile with nothing secret is saved, shown, exported and
// deleted without ever needing it.
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../support/cli.js';

describe('a profile with no secrets on a host without a keychain', () => {
  it('is saved, shown, exported and deleted', () => {
    const env = { FLOE_CONFIG_DIR: tempConfigDir(), DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
    const saved = runCli(
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
      { env },
    );
    expect(saved.status).toBe(0);
    expect(saved.stderr).toContain('Saved profile "plain" (authentication: None; no secrets to store)');
    for (const args of [
      ['profiles', 'show', 'plain'],
      ['export', '--profile', 'plain'],
      ['profiles', 'delete', 'plain'],
    ]) {
      const r = runCli(args, { env });
      expect(r.stderr).not.toContain('keychain');
      expect(r.status).toBe(0);
    }
    expect(runCli(['profiles', 'list'], { env }).stdout).toContain('No profiles yet');
  });
});
