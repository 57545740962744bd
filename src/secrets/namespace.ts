// Each config folder has its own keychain service, "floe/<id>": two folders (two FLOE_CONFIG_DIRs) never
// read, overwrite or delete each other's entries, profile secrets and OLake UI session alike, even for the
// same profile name or server.
//
// The id is random (a UUID), created on the folder's first keychain use and kept in the folder's
// keychain-id.json with the folder's real path, device and inode. Not a hash of the path: moving or
// renaming the folder (or the home folder above it) would then silently orphan every secret it has in the
// keychain. A random id alone would be shared by a copy of the folder, the very mix-up this prevents: a
// save in one folder would then sweep (shadow.ts) entries the other's config still names. So a folder is
// the one that recorded the id only when its inode and its device or its real path agree:
// - all three agree: the id is used as it is;
// - the inode and the device agree, not the path: the folder was moved; it keeps its id (and records its
//   new path); the inode and the path agree, not the device: the file system was mounted again under
//   another device number (NFS, btrfs); it keeps its id too;
// - the inode differs: another folder. `cp -a` (even once the original is moved away), `cp -al` and
//   `rsync --link-dest` make a new folder whose keychain-id.json says the original's id (a hard-linked
//   one is even the original's file): it gets a new id, so its keychain profiles report their secrets
//   missing until stored again, and it logs in again. The same goes for a folder moved to another file
//   system or restored from a backup: it cannot be told from a copy whose original was moved.
// The id file is only ever replaced (a new file renamed over it), never written in place: a hard-linked
// copy's new id never reaches the original's file.
// A keychain-id.json written before floe recorded the inode (no `inode`) is judged by its path: the
// recorded path is this folder's, or is gone or holds another id (a move); the recorded folder still
// holds this id (in another file or the same hard-linked one), or cannot be read: a copy. Its next use
// records the inode.
// Not in config.json: that file is replaced whole by every save, set aside when corrupt, and rewritten by
// an older floe, which drops fields it does not know.
//
// Migration: floe before namespaces kept every folder's entries under the one service "floe". A folder
// whose config.json named the keychain when its id was created (so it stored entries there) takes them
// over when it needs them: an entry missing from its namespace is copied in from "floe". Once the folder
// has copied, written or deleted an account that "floe" holds, keychain-id.json lists it and "floe" is not
// asked for it again (a deleted profile or a logout never comes back from there). The "floe" entries are
// never changed or deleted: another folder that shared them may not have taken its own copy yet (they
// can be removed by hand once every folder has used its profiles and login). A folder created after
// namespaces never reads them.
import { randomUUID } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { removeStaleTemps, withLock, withLockSync, writePrivateFile } from '../config/files.js';
import { ConfigError, ConfigStore } from '../config/store.js';
import { keychainBackend } from './keychain.js';
import type { SecretBackend } from './store.js';

/** The one service every config folder shared before namespaces: read to take entries over, never written. */
export const LEGACY_SERVICE = 'floe';

/** The file in the config folder that names its keychain namespace. */
export const NAMESPACE_FILE = 'keychain-id.json';

const namespaceSchema = z.object({
  id: z.string().check(z.minLength(1)),
  /** The folder's real path when the id was created or last moved. */
  folder: z.string(),
  /** The folder's device and inode then (decimal: 64-bit values), absent in files of an older floe. */
  device: z.optional(z.string()),
  inode: z.optional(z.string()),
  /** Present when the folder used the keychain before namespaces: it may take entries over from there. */
  legacyService: z.optional(z.literal(LEGACY_SERVICE)),
  /** Accounts taken over (copied, written or deleted here): the legacy service is not asked for them again. */
  takenOver: z._default(z.array(z.string()), []),
});
type Namespace = z.infer<typeof namespaceSchema>;

function read(path: string): Namespace | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigError(
      `The keychain id file ${path} cannot be read (${(error as Error).message}).`,
      'Check its owner and mode (floe writes it as 0600).',
    );
  }
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw invalid(path, (error as Error).message);
  }
  const parsed = namespaceSchema.safeParse(root);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  throw invalid(path, `${first?.path.join('.') || 'root'}: ${first?.message}`);
}

function invalid(path: string, why: string): ConfigError {
  return new ConfigError(
    `The keychain id file ${path} is not valid (${why}); it names this folder's entries in the OS keychain.`,
    'Restore it from a backup; or move it away, then store the secrets of this folder\'s keychain profiles again ("floe setup --profile NAME") and log in again ("floe login").',
  );
}

function write(path: string, namespace: Namespace): Namespace {
  writePrivateFile(path, `${JSON.stringify(namespace, undefined, '\t')}\n`);
  return namespace;
}

/** The device and inode of folder `real`, as the id file records them. */
function identity(real: string): { device: string; inode: string } {
  const stat = statSync(real, { bigint: true });
  return { device: stat.dev.toString(), inode: stat.ino.toString() };
}

/**
 * Whether the folder at real path `here` (device and inode `now`) is the one that recorded `found` (the
 * top of this file says when).
 */
function isRecordedFolder(found: Namespace, here: string, now: { device: string; inode: string }): boolean {
  if (found.inode !== undefined)
    return found.inode === now.inode && (found.device === now.device || found.folder === here);
  if (found.folder === here) return true;
  let there: { device: string; inode: string };
  let other: Namespace | undefined;
  try {
    there = identity(found.folder);
    other = read(join(found.folder, NAMESPACE_FILE));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Gone: moved. Cannot tell: a new namespace loses nothing another folder relies on.
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
  if (there.device === now.device && there.inode === now.inode) return true;
  return other?.id !== found.id;
}

/** Whether `dir`'s config stores a profile's secrets or the OLake UI session in the keychain. */
function usesKeychain(dir: string): boolean {
  const config = new ConfigStore(dir);
  return (
    config.getManagement()?.secretStorage === 'keychain' ||
    config.profileNames().some((name) => config.getProfile(name)?.secretStorage === 'keychain')
  );
}

/** The namespace of config folder `dir`, created (or renewed for a copy) on first use. */
function namespaceOf(dir: string): Namespace {
  const path = join(dir, NAMESPACE_FILE);
  return withLockSync(path, () => {
    removeStaleTemps(path);
    const here = realpathSync.native(dir);
    const now = identity(here);
    const found = read(path);
    if (found && isRecordedFolder(found, here, now)) {
      if (found.folder === here && found.device === now.device && found.inode === now.inode) return found;
      return write(path, { ...found, folder: here, ...now });
    }
    const legacy = found ? found.legacyService !== undefined : usesKeychain(dir);
    return write(path, {
      id: randomUUID(),
      folder: here,
      ...now,
      ...(legacy ? { legacyService: LEGACY_SERVICE } : {}),
      takenOver: found?.takenOver ?? [],
    });
  });
}

function serviceOf(namespace: Namespace): string {
  return `${LEGACY_SERVICE}/${namespace.id}`;
}

/** The keychain service of config folder `dir` ("floe/<id>"); creates the folder's id when it has none. */
export function folderKeychainService(dir: string): string {
  return serviceOf(namespaceOf(dir));
}

/**
 * The keychain backend of config folder `dir`: its own service, and the legacy entries taken over as the
 * comment at the top says. The id is looked up on the first call, so a folder that never uses the keychain
 * never gets one.
 */
export function folderKeychain(dir: string): SecretBackend {
  const path = join(dir, NAMESPACE_FILE);
  const legacy = keychainBackend(LEGACY_SERVICE);
  let opened: { namespace: Namespace; own: SecretBackend } | undefined;
  const open = () => {
    if (!opened) {
      const namespace = namespaceOf(dir);
      opened = { namespace, own: keychainBackend(serviceOf(namespace)) };
    }
    return opened;
  };
  /** The file as it is now (another floe may have taken accounts over), when it still names this namespace. */
  const current = (namespace: Namespace) => {
    const now = read(path);
    return now?.id === namespace.id ? now : undefined;
  };
  /** Under the file's lock: the legacy entry of `account`, unless the folder took the account over already. */
  const untaken = async (namespace: Namespace, account: string) =>
    (current(namespace) ?? namespace).takenOver.includes(account) ? undefined : legacy.get(account);
  const markTaken = (namespace: Namespace, account: string) => {
    const now = current(namespace);
    if (now && !now.takenOver.includes(account))
      write(path, { ...now, takenOver: [...now.takenOver, account] });
  };
  return {
    kind: 'keychain',
    location: 'the OS keychain',
    async get(account) {
      const { namespace, own } = open();
      const value = await own.get(account);
      if (value !== undefined || !namespace.legacyService) return value;
      return withLock(path, async () => {
        const mine = await own.get(account);
        if (mine !== undefined) return mine;
        const old = await untaken(namespace, account);
        if (old === undefined) return undefined;
        await own.set(account, old);
        markTaken(namespace, account);
        return old;
      });
    },
    async set(account, value) {
      const { namespace, own } = open();
      if (!namespace.legacyService) return own.set(account, value);
      await withLock(path, async () => {
        const old = await untaken(namespace, account);
        await own.set(account, value);
        if (old !== undefined) markTaken(namespace, account);
      });
    },
    async delete(account) {
      const { namespace, own } = open();
      if (!namespace.legacyService) return own.delete(account);
      return withLock(path, async () => {
        // Marked first: a process killed in between leaves the entry, never brings it back from "floe".
        const old = await untaken(namespace, account);
        if (old !== undefined) markTaken(namespace, account);
        return (await own.delete(account)) || old !== undefined;
      });
    },
  };
}
