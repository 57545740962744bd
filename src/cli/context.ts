// Opens the config store and the secret vault once per process, first tidying what a killed floe left.
import { ConfigStore, configDir } from '../config/store.js';
import { recover } from '../secrets/shadow.js';
import type { SecretBackend } from '../secrets/store.js';
import { openVault, type Vault } from '../secrets/vault.js';

export interface Context {
  config: ConfigStore;
  vault: Vault;
}

let context: Context | undefined;

/** The process's context; the first call may give the keychain backend (the demo's throwaway one). */
export async function openContext(options: { keychain?: SecretBackend } = {}): Promise<Context> {
  if (!context) {
    const config = new ConfigStore(configDir());
    const opened = { config, vault: openVault(config.secretsPath, process.env, options.keychain) };
    await recover(opened);
    context = opened;
  }
  return context;
}
