// Reads and writes a profile's secrets: the environment always wins, then the backend the profile
// was saved with. Knows nothing about prompts; callers decide what to do when the keychain fails.
import { FIELDS, type FieldId, type Values } from '../destination/fields.js';
import { fileBackend } from './file.js';
import { keychainBackend } from './keychain.js';
import {
  accounts,
  fromEnv,
  KeychainUnavailableError,
  type SecretBackend,
  type SecretStorage,
} from './store.js';

export interface Vault {
  backend(kind: 'keychain' | 'file'): SecretBackend;
  /**
   * Fills the secret fields of `values`. `missing` lists the required or `expected` (previously
   * stored) secrets found nowhere.
   */
  loadProfileSecrets(
    profile: string,
    values: Values,
    storage: SecretStorage,
    expected?: readonly string[],
  ): Promise<{ values: Values; missing: FieldId[]; fromEnv: FieldId[] }>;
  /** Stores the secret fields of `values` (none for `env`); returns the ids stored. */
  saveProfileSecrets(profile: string, values: Values, storage: SecretStorage): Promise<FieldId[]>;
  deleteProfileSecrets(profile: string, storage: SecretStorage): Promise<void>;
}

const SECRET_FIELDS = FIELDS.filter((f) => f.secret);

/** Removing a stale secret must not block saving a profile when the keychain is unreachable. */
async function deleteIfReachable(backend: SecretBackend, account: string): Promise<void> {
  try {
    await backend.delete(account);
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
  }
}

export function openVault(
  secretsFile: string,
  env: NodeJS.ProcessEnv = process.env,
  keychain: SecretBackend = keychainBackend(),
): Vault {
  const backends = { keychain, file: fileBackend(secretsFile) };
  return {
    backend: (kind) => backends[kind],
    async loadProfileSecrets(profile, values, storage, expected = []) {
      const out: Values = { ...values, fields: { ...values.fields } };
      const envIds: FieldId[] = [];
      const applicable = SECRET_FIELDS.filter((def) => def.applies(values));
      for (const def of applicable) {
        let value = def.env ? fromEnv(def.env, env) : undefined;
        if (value !== undefined) envIds.push(def.id);
        else if (storage !== 'env')
          value = await backends[storage].get(accounts.profileSecret(profile, def.id));
        if (value !== undefined) out.fields[def.id] = value;
      }
      const missing = applicable
        .filter((def) => out.fields[def.id] === undefined && (def.required(out) || expected.includes(def.id)))
        .map((def) => def.id);
      return { values: out, missing, fromEnv: envIds };
    },
    async saveProfileSecrets(profile, values, storage) {
      const stored: FieldId[] = [];
      for (const def of SECRET_FIELDS) {
        const account = accounts.profileSecret(profile, def.id);
        const value = values.fields[def.id];
        if (storage === 'env') continue;
        if (typeof value === 'string' && value !== '' && def.applies(values)) {
          await backends[storage].set(account, value);
          stored.push(def.id);
        } else {
          await deleteIfReachable(backends[storage], account);
        }
      }
      return stored;
    },
    async deleteProfileSecrets(profile, storage) {
      if (storage === 'env') return;
      for (const def of SECRET_FIELDS)
        await backends[storage].delete(accounts.profileSecret(profile, def.id));
    },
  };
}
