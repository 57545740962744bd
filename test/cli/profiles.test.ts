import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/cli/context.js';
import { saveProfile } from '../../src/cli/profiles.js';
import { ConfigStore } from '../../src/config/store.js';
import { KeychainUnavailableError } from '../../src/secrets/store.js';
import { openVault } from '../../src/secrets/vault.js';
import { sample } from '../fixtures/samples.js';
import { tempConfigDir } from '../support/cli.js';

describe('saveProfile', () => {
  it('moves a keychain profile to the file even when the keychain is gone', async () => {
    const config = new ConfigStore(tempConfigDir());
    const vault = openVault(config.secretsPath, {});
    config.saveProfile('p', sample('token'), 'keychain', ['token']);
    const unreachable: Context['vault'] = {
      ...vault,
      deleteProfileSecrets: async (name, storage) => {
        if (storage === 'keychain') throw new KeychainUnavailableError('no D-Bus.');
        return vault.deleteProfileSecrets(name, storage);
      },
    };
    await saveProfile({ config, vault: unreachable }, 'p', sample('token'), 'file');
    expect(config.getProfile('p')?.secretStorage).toBe('file');
    expect(await vault.backend('file').get('profile/p/token')).toBe('dapi-sentinel-token');
  });
});
