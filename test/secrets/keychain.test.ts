import { spawnSync } from 'node:child_process';
import { describe, expect } from 'vitest';
import { keychainBackend } from '../../src/secrets/keychain.js';
import { itWithService } from '../support/services.js';

const it = itWithService(process.env.FLOE_TEST_KEYRING, 'the Secret Service (gnome-keyring)');

describe('keychain backend (real Secret Service)', () => {
  it('stores, finds (via secret-tool) and deletes a secret', async () => {
    const kc = keychainBackend('floe-test');
    await kc.set('profile/p/token', 'sentinel-abc');
    expect(await kc.get('profile/p/token')).toBe('sentinel-abc');
    const found = spawnSync('secret-tool', ['lookup', 'service', 'floe-test', 'account', 'profile/p/token'], {
      encoding: 'utf8',
    });
    expect(found.stdout).toBe('sentinel-abc');
    expect(await kc.delete('profile/p/token')).toBe(true);
    expect(await kc.get('profile/p/token')).toBeUndefined();
  });
});
