import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/app/context.js';
import { saveProfile } from '../../src/app/profiles.js';
import { ConfigStore } from '../../src/config/store.js';
import { accounts, KeychainUnavailableError, type SecretBackend } from '../../src/secrets/store.js';
import { openVault } from '../../src/secrets/vault.js';
import { sample } from '../fixtures/samples.js';
import { tempConfigDir } from '../support/cli.js';

describe('saveProfile', () => {
  it('moves a keychain profile to the file even when the keychain is gone; its old entry stays listed', async () => {
    const config = new ConfigStore(tempConfigDir());
    const refuse = () => Promise.reject(new KeychainUnavailableError('no D-Bus.'));
    const gone: SecretBackend = {
      kind: 'keychain',
      location: 'nowhere',
      get: refuse,
      set: refuse,
      delete: refuse,
    };
    const ctx: Context = { config, vault: openVault(config.secretsPath, {}, gone) };
    config.saveProfile('p', sample('token'), 'keychain', ['token']);
    await saveProfile(ctx, 'p', sample('token'), 'file');
    const saved = config.getProfile('p')!;
    expect(saved.secretStorage).toBe('file');
    expect(
      await ctx.vault.backend('file').get(accounts.profileSecret('p', 'token', saved.secretsGeneration)),
    ).toBe('dapi-sentinel-token');
    // Removed by the first run that reaches the keychain.
    expect(config.sweepEntries()).toEqual([{ storage: 'keychain', account: 'profile/p/token' }]);
  });
});
