// Reads and writes a profile's secrets: the environment always wins, then the backend the profile
// was saved with. Knows nothing about prompts; callers decide what to do when the keychain fails.
import { dirname } from 'node:path';
import { FIELDS, type FieldId, type Values } from '../destination/fields.js';
import { FloeError } from '../errors.js';
import { fileBackend } from './file.js';
import { folderKeychain } from './namespace.js';
import {
  accounts,
  fromEnv,
  KeychainUnavailableError,
  type SecretBackend,
  type SecretStorage,
} from './store.js';

export interface SaveOptions {
  /** Aborting (Ctrl-C) before the commit undoes every secret written so far. */
  signal?: AbortSignal;
  /** Switches the config to the new secrets (the last step); if it throws, the secrets are undone too. */
  commit?: (stored: FieldId[]) => void | Promise<void>;
}

export interface Vault {
  backend(kind: 'keychain' | 'file'): SecretBackend;
  /**
   * Fills the secret fields of `values`. `expected` lists the secrets the profile stored: only those are
   * asked of the backend (a profile that stored none never needs the keychain). `missing` lists the
   * required or expected secrets found nowhere.
   */
  loadProfileSecrets(
    profile: string,
    values: Values,
    storage: SecretStorage,
    expected?: readonly string[],
  ): Promise<{ values: Values; missing: FieldId[]; fromEnv: FieldId[] }>;
  /**
   * Stores the secret fields of `values` (none for `env`) as one transaction: the previous values are read
   * first, and a failure, an abort or a failed `commit` restores them. Entries of secrets the profile no
   * longer has are removed only after the commit. Returns the ids stored.
   */
  saveProfileSecrets(
    profile: string,
    values: Values,
    storage: SecretStorage,
    options?: SaveOptions,
  ): Promise<FieldId[]>;
  /** Removes the profile's entries (`stored`, or every secret field when not given). */
  deleteProfileSecrets(profile: string, storage: SecretStorage, stored?: readonly string[]): Promise<void>;
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

/** Puts back the values read before a save; says which entries could not be restored. */
async function restore(backend: SecretBackend, previous: Map<string, string | undefined>): Promise<string[]> {
  const failed: string[] = [];
  for (const [account, value] of [...previous].reverse()) {
    try {
      if (value === undefined) await backend.delete(account);
      else await backend.set(account, value);
    } catch {
      failed.push(account);
    }
  }
  return failed;
}

export class SecretsRestoreError extends FloeError {}

/** `secretsFile` lies in the config folder; by default the keychain is that folder's own namespace. */
export function openVault(
  secretsFile: string,
  env: NodeJS.ProcessEnv = process.env,
  keychain: SecretBackend = folderKeychain(dirname(secretsFile)),
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
        else if (storage !== 'env' && expected.includes(def.id))
          value = await backends[storage].get(accounts.profileSecret(profile, def.id));
        if (value !== undefined) out.fields[def.id] = value;
      }
      const missing = applicable
        .filter((def) => out.fields[def.id] === undefined && (def.required(out) || expected.includes(def.id)))
        .map((def) => def.id);
      return { values: out, missing, fromEnv: envIds };
    },
    async saveProfileSecrets(profile, values, storage, options = {}) {
      const { signal, commit } = options;
      const wanted = SECRET_FIELDS.filter((def) => {
        const value = values.fields[def.id];
        return storage !== 'env' && typeof value === 'string' && value !== '' && def.applies(values);
      });
      const stored = wanted.map((def) => def.id);
      if (storage === 'env') {
        signal?.throwIfAborted();
        await commit?.(stored);
        return stored;
      }
      const backend = backends[storage];
      const previous = new Map<string, string | undefined>();
      try {
        for (const def of wanted) {
          signal?.throwIfAborted();
          const account = accounts.profileSecret(profile, def.id);
          previous.set(account, await backend.get(account));
        }
        for (const def of wanted) {
          signal?.throwIfAborted();
          const account = accounts.profileSecret(profile, def.id);
          await backend.set(account, values.fields[def.id] as string);
        }
        signal?.throwIfAborted();
        await commit?.(stored);
      } catch (error) {
        const failed = await restore(backend, previous);
        if (failed.length > 0)
          throw new SecretsRestoreError(
            `Profile "${profile}" was not saved, and ${failed.length} of its previous secrets in ${backend.location} could not be put back (${failed.join(', ')}).`,
            `Store them again with "floe setup --profile ${profile}".`,
          );
        throw error;
      }
      for (const def of SECRET_FIELDS)
        if (!stored.includes(def.id))
          await deleteIfReachable(backend, accounts.profileSecret(profile, def.id));
      return stored;
    },
    async deleteProfileSecrets(profile, storage, stored) {
      if (storage === 'env') return;
      for (const def of SECRET_FIELDS)
        if (stored === undefined || stored.includes(def.id))
          await backends[storage].delete(accounts.profileSecret(profile, def.id));
    },
  };
}
