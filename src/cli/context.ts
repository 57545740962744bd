// Opens the config store and the secret vault once per process.
import { ConfigStore, configDir } from '../config/store.js';
import { openVault, type Vault } from '../secrets/vault.js';

export interface Context {
  config: ConfigStore;
  vault: Vault;
}

let context: Context | undefined;

export function openContext(): Context {
  if (!context) {
    const config = new ConfigStore(configDir());
    context = { config, vault: openVault(config.secretsPath) };
  }
  return context;
}
