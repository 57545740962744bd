// Opens the config store and the secret vault once per process.
import { ConfigStore, configDir } from '../config/store.js';
import type { SecretBackend } from '../secrets/store.js';
import { openVault, type Vault } from '../secrets/vault.js';

export interface Context {
  config: ConfigStore;
  vault: Vault;
}

let context: Context | undefined;

/** The process's context; the first call may give the keychain backend (the demo's throwaway one). */
export function openContext(options: { keychain?: SecretBackend } = {}): Context {
  if (!context) {
    const config = new ConfigStore(configDir());
    context = { config, vault: openVault(config.secretsPath, process.env, options.keychain) };
  }
  return context;
}
