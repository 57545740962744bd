// Reads and writes secret entries: a profile's secrets (the environment always wins, then the backend
// the profile was saved with), and entries by account for the save protocol (shadow.ts). Knows nothing
// about prompts; callers decide what to do when the keychain fails.
import { dirname } from 'node:path';
import { FIELDS, type FieldId, type Values } from '../destination/fields.js';
import { type FileBackend, fileBackend } from './file.js';
import { folderKeychain } from './namespace.js';
import { accounts, fromEnv, type SecretBackend, type SecretStorage } from './store.js';

/** Where a profile's secrets are: its storage, the ids stored, and their generation (StoredProfile has them). */
export interface ProfileSecrets {
  secretStorage: SecretStorage;
  storedSecrets?: readonly string[];
  secretsGeneration?: string | undefined;
}

export interface Vault {
  backend(kind: 'keychain' | 'file'): SecretBackend;
  /**
   * Fills the secret fields of `values`. Only the secrets the profile stored are asked of the backend (a
   * profile that stored none never needs the keychain). `missing` lists the required or stored secrets
   * found nowhere.
   */
  loadProfileSecrets(
    profile: string,
    values: Values,
    stored: ProfileSecrets,
  ): Promise<{ values: Values; missing: FieldId[]; fromEnv: FieldId[] }>;
  /**
   * Writes `entries` (account → value): the file in one write, the keychain one entry at a time, stopping
   * at the first failure or when `signal` aborts.
   */
  put(
    storage: 'keychain' | 'file',
    entries: ReadonlyMap<string, string>,
    signal?: AbortSignal,
  ): Promise<void>;
  /** Removes entries (the file in one write); returns the accounts that existed. */
  remove(storage: 'keychain' | 'file', accounts: readonly string[]): Promise<string[]>;
}

const SECRET_FIELDS = FIELDS.filter((f) => f.secret);

/** The secret fields of `values` a save stores in `storage` (none for `env`). */
export function secretsToStore(values: Values, storage: SecretStorage): FieldId[] {
  if (storage === 'env') return [];
  return SECRET_FIELDS.filter((def) => {
    const value = values.fields[def.id];
    return typeof value === 'string' && value !== '' && def.applies(values);
  }).map((def) => def.id);
}

/** `secretsFile` lies in the config folder; by default the keychain is that folder's own namespace. */
export function openVault(
  secretsFile: string,
  env: NodeJS.ProcessEnv,
  keychain: SecretBackend = folderKeychain(dirname(secretsFile)),
): Vault {
  const file: FileBackend = fileBackend(secretsFile);
  const backends = { keychain, file };
  return {
    backend: (kind) => backends[kind],
    async loadProfileSecrets(profile, values, stored) {
      const { secretStorage: storage, storedSecrets: expected = [], secretsGeneration } = stored;
      const out: Values = { ...values, fields: { ...values.fields } };
      const envIds: FieldId[] = [];
      const applicable = SECRET_FIELDS.filter((def) => def.applies(values));
      for (const def of applicable) {
        let value = def.env ? fromEnv(def.env, env) : undefined;
        if (value !== undefined) envIds.push(def.id);
        else if (storage !== 'env' && expected.includes(def.id))
          value = await backends[storage].get(accounts.profileSecret(profile, def.id, secretsGeneration));
        if (value !== undefined) out.fields[def.id] = value;
      }
      const missing = applicable
        .filter((def) => out.fields[def.id] === undefined && (def.required(out) || expected.includes(def.id)))
        .map((def) => def.id);
      return { values: out, missing, fromEnv: envIds };
    },
    async put(storage, entries, signal) {
      if (storage === 'file') {
        await file.apply(entries);
        return;
      }
      for (const [account, value] of entries) {
        signal?.throwIfAborted();
        await keychain.set(account, value);
      }
    },
    async remove(storage, list) {
      if (storage === 'file') return file.apply(new Map(list.map((account) => [account, undefined])));
      const removed: string[] = [];
      for (const account of list) if (await keychain.delete(account)) removed.push(account);
      return removed;
    },
  };
}
