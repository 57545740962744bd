// Opens the config store and the secret vault once per opener, first tidying what a killed floe left.
import { ConfigStore, configDir } from '../config/store.js';
import { recover } from '../secrets/shadow.js';
import type { SecretBackend } from '../secrets/store.js';
import { openVault, type Vault } from '../secrets/vault.js';

export interface Context {
  config: ConfigStore;
  vault: Vault;
}

export type ContextOpener = (options?: { keychain?: SecretBackend }) => Promise<Context>;

/**
 * An opener for the config folder `env` names (FLOE_CONFIG_DIR, …) and its secrets read with `env`:
 * the first call opens (and may give the keychain backend, the demo's throwaway one), later calls share it.
 */
export function contextOpener(env: NodeJS.ProcessEnv, keychain?: SecretBackend): ContextOpener {
  let context: Promise<Context> | undefined;
  return (options = {}) => {
    context ??= (async () => {
      const config = new ConfigStore(configDir(env));
      const opened = { config, vault: openVault(config.secretsPath, env, options.keychain ?? keychain) };
      await recover(opened);
      return opened;
    })();
    return context;
  };
}

/** The process's context (the process's Io opens this one). */
export const openContext: ContextOpener = contextOpener(process.env);
