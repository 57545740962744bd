// The save protocol that keeps the config and the secrets it names consistent whatever stops a save: a
// failure, Ctrl-C, a full disk or a SIGKILL (after which nothing of the process runs to undo anything).
//
// Secrets are never overwritten in place. A save writes the new values as new entries ("shadows"), their
// accounts carrying a generation no config names yet (`profile@<gen>/…`): in the 0600 file all of them in
// one whole write beside the entries in use, in the keychain one by one. Then ONE config.json write —
// an atomic rename — names the new generation: that write is the commit point. Before it, the config
// names the previous entries, which are untouched; after it, the new ones, all written. Entries no longer
// named are removed afterwards.
//
// So that nothing a dead process wrote stays behind, config.json lists by account (never by value) what
// may need removing: the new entries before they are written, the previous ones in the commit itself.
// The list is swept right after the commit, at the start of every locked change, and by the next floe to
// start (recover), skipping any entry the config names again. Under the config lock throughout.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  DiskFullError,
  type LockWait,
  leftBehind,
  removeStaleTemps,
  withLockIfFree,
} from '../config/files.js';
import type {
  ConfigStore,
  ManagementSettings,
  StoredProfile,
  SweepChange,
  SweepEntry,
} from '../config/store.js';
import { NAMESPACE_FILE } from './namespace.js';
import { accounts, KeychainUnavailableError, type SecretStorage } from './store.js';
import type { Vault } from './vault.js';

export interface Store {
  config: ConfigStore;
  vault: Vault;
}

/** A generation for the accounts of one save: random, so it never names entries in use or left behind. */
export function newGeneration(): string {
  return randomBytes(6).toString('hex');
}

/** The entries a stored profile names. */
export function profileEntries(name: string, profile: StoredProfile): SweepEntry[] {
  const storage = profile.secretStorage;
  if (storage === 'env') return [];
  return profile.storedSecrets.map((id) => ({
    storage,
    account: accounts.profileSecret(name, id, profile.secretsGeneration),
  }));
}

/** The entries the OLake UI settings name: the session, and the password when it is remembered. */
export function managementEntries(settings: ManagementSettings | undefined): SweepEntry[] {
  const storage = settings?.secretStorage;
  if (!settings || (storage !== 'keychain' && storage !== 'file') || !URL.canParse(settings.url)) return [];
  const origin = new URL(settings.url).origin;
  const generation = settings.secretsGeneration;
  const entries = [{ storage, account: accounts.session(origin, generation) }];
  if (settings.rememberPassword && settings.username !== undefined)
    entries.push({ storage, account: accounts.password(origin, settings.username, generation) });
  return entries;
}

const key = (entry: SweepEntry) => `${entry.storage}\n${entry.account}`;

function named(config: ConfigStore): Set<string> {
  const profiles = config.profileNames().flatMap((name) => profileEntries(name, config.getProfile(name)!));
  return new Set([...profiles, ...managementEntries(config.getManagement())].map(key));
}

/**
 * Removes the entries config.json lists for removal, except any it names, and stops listing them. One
 * that cannot be removed now (the keychain is unreachable, the disk is full) stays listed for the next
 * run. Returns the entries that existed and were removed.
 */
export async function sweep(store: Store): Promise<SweepEntry[]> {
  const listed = store.config.sweepEntries();
  if (listed.length === 0) return [];
  const inUse = named(store.config);
  const done = listed.filter((entry) => inUse.has(key(entry)));
  const removed: SweepEntry[] = [];
  for (const storage of ['file', 'keychain'] as const) {
    const list = listed.filter((e) => e.storage === storage && !inUse.has(key(e))).map((e) => e.account);
    if (list.length === 0) continue;
    try {
      for (const account of await store.vault.remove(storage, list)) removed.push({ storage, account });
      done.push(...list.map((account) => ({ storage, account })));
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError) && !(error instanceof DiskFullError)) throw error;
    }
  }
  if (done.length === 0) return removed;
  try {
    store.config.changeSweep({ remove: done });
  } catch (error) {
    if (!(error instanceof DiskFullError)) throw error;
  }
  return removed;
}

/** The files of the config folder besides config.json that floe replaces, each under its own lock. */
const otherFiles = (config: ConfigStore) => [config.secretsPath, join(config.dir, NAMESPACE_FILE)];

/** Removes what a killed floe left beside floe's files: temp files, locks (holding the config lock). */
async function removeTemps(config: ConfigStore): Promise<void> {
  removeStaleTemps(config.path);
  for (const path of otherFiles(config))
    if (leftBehind(path)) await withLockIfFree(path, async () => removeStaleTemps(path));
}

/**
 * Runs `fn` as one change of the config and its secrets: under the config lock, from a fresh read, after
 * tidying what an earlier run left.
 */
export function transaction<T>(store: Store, fn: () => Promise<T>, wait?: LockWait): Promise<T> {
  return store.config.locked(async () => {
    await removeTemps(store.config);
    await sweep(store);
    return fn();
  }, wait);
}

/**
 * At start-up: tidies what a killed floe left (temp files, its locks, entries listed for removal). When
 * another floe holds the lock (it may be saving), that waits for a later run.
 */
export async function recover(store: Store): Promise<void> {
  const { config } = store;
  const files = [config.path, ...otherFiles(config)];
  if (!files.some(leftBehind) && config.sweepEntries().length === 0) return;
  await config.lockedIfFree(async () => {
    await removeTemps(config);
    await sweep(store);
  });
}

export interface Switch {
  storage: SecretStorage;
  /** The new entries (account → value), under a new generation; none for `env`. */
  fresh: ReadonlyMap<string, string>;
  /** The entries the config names now and stops naming at the commit. */
  stale: readonly SweepEntry[];
  /** The one config write that names `fresh`; it makes `change` (the entries to remove) in the same write. */
  commit: (change: SweepChange) => void;
  /** Aborting (Ctrl-C) before the commit undoes the save. */
  signal?: AbortSignal;
}

/**
 * Switches the config from `stale` to `fresh` (see the top of this file); call it inside `transaction`.
 * Any failure or abort before the commit leaves the config as it was and removes what was written.
 */
export async function switchSecrets(store: Store, change: Switch): Promise<void> {
  const { storage, fresh, stale, commit, signal } = change;
  const written: SweepEntry[] =
    storage === 'env' ? [] : [...fresh.keys()].map((account) => ({ storage, account }));
  try {
    signal?.throwIfAborted();
    if (storage !== 'env' && fresh.size > 0) {
      // An unreachable keychain fails here, before anything is written or listed.
      if (storage === 'keychain') await store.vault.backend('keychain').get(written[0]!.account);
      store.config.changeSweep({ add: written });
      await store.vault.put(storage, fresh, signal);
      signal?.throwIfAborted();
    }
    commit({ add: stale, remove: written });
  } catch (error) {
    try {
      await sweep(store);
    } catch {
      // The first error says more; what is still listed is removed by the next run.
    }
    throw error;
  }
  await sweep(store);
}
