// Private files and folders whatever the umask (folders 0700, files 0600), atomic replacement through a
// 0600 temp file in the same folder that is removed on every failure path (and, when a killed process
// left one, by the next run), the inter-process lock (proper-lockfile) every read-modify-write of the
// config or the secrets file runs under, taken over at once when the process holding it has died, and
// bounded reads of key files (regular files only, at most 1 MiB, with a timeout).
import { randomBytes } from 'node:crypto';
import fs, {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { FloeError } from '../errors.js';

/** Creates `dir` (and missing parents) as 0700; narrows a folder floe created earlier with a wider mode. */
export function ensurePrivateDir(dir: string): void {
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (created !== undefined) chmodSync(dir, 0o700);
}

/**
 * Refuses a folder for floe's files that another user owns or may write: they could swap the config
 * or read the secrets file floe is about to write there (an existing folder is never changed silently).
 * A link (~/.config/floe -> dotfiles/floe) is followed: the folder checked, and named, is its target.
 */
export function checkPrivateDir(dir: string): void {
  const real = realpathSync.native(dir);
  const stat = statSync(real);
  const folder = real === resolve(dir) ? dir : `${dir} (really ${real}, the folder checked)`;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    throw new FloeError(
      `The config folder ${folder} belongs to another user (uid ${stat.uid}); floe keeps profiles and secrets there.`,
      'Use a folder of your own: unset FLOE_CONFIG_DIR, or point it at a folder you own.',
    );
  if ((stat.mode & 0o022) !== 0)
    throw new FloeError(
      `The config folder ${folder} may be written by other users (mode ${(stat.mode & 0o777).toString(8)}); floe keeps profiles and secrets there.`,
      `Make it private with: chmod 700 ${real}`,
    );
}

/** Temp files are `.<name>.<pid>.<random>.tmp` beside their target. */
function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** The disk (or quota) is full: nothing was replaced. */
export class DiskFullError extends FloeError {}

const diskFull = (error: unknown) =>
  ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException).code ?? '');

function diskFullError(path: string, error: unknown): DiskFullError {
  return new DiskFullError(
    `The disk holding ${dirname(path)} is full (${(error as NodeJS.ErrnoException).code}): ${basename(path)} was not changed.`,
    'Free some space there (df -h shows it), or point FLOE_CONFIG_DIR at another disk, then try again.',
  );
}

/** Writes all of `data`: a short write (a full disk answers some bytes, then ENOSPC) is continued or fails. */
function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) {
    const written = writeSync(fd, data, offset, data.length - offset);
    if (written <= 0) throw Object.assign(new Error('no byte written'), { code: 'ENOSPC' });
    offset += written;
  }
}

/** Makes the rename itself durable (the folder's entry), where the platform allows it. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder; the file's own data is synced already.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Replaces `path` with `text` atomically: a new 0600 file (O_EXCL, so nothing pre-created is written
 * through) in the same folder, written whole and synced, then renamed over the target and the folder
 * synced. On any failure — a full disk included — the temp file is removed and `path` is unchanged.
 */
export function writePrivateFile(path: string, text: string): void {
  ensurePrivateDir(dirname(path));
  refuseSymlink(path);
  const tmp = tempPath(path);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', 0o600);
    writeAll(fd, Buffer.from(text, 'utf8'));
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    if (diskFull(error)) throw diskFullError(path, error);
    throw error;
  }
  syncDir(dirname(path));
}

/** floe replaces its files by rename, which would turn a symbolic link into a file of its own: refused. */
function refuseSymlink(path: string): void {
  let link: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return;
    link = readlinkSync(path);
  } catch {
    return;
  }
  throw new FloeError(
    `${path} is a symbolic link (to ${link}); floe replaces its files whole, which would turn the link into a file of its own. Nothing was changed.`,
    `Point FLOE_CONFIG_DIR at the folder the link leads to, or replace the link with the file itself.`,
  );
}

/** Temp files of `path` (this form or an older one). */
function tempsOf(path: string): string[] {
  const name = basename(path);
  let entries: string[];
  try {
    entries = readdirSync(dirname(path));
  } catch {
    return [];
  }
  const ours = new RegExp(
    `^(\\.${escapeRegExp(name)}\\.\\d+\\.[0-9a-f]+|${escapeRegExp(name)}\\.\\d+)\\.tmp$`,
  );
  return entries.filter((entry) => ours.test(entry)).map((entry) => join(dirname(path), entry));
}

/**
 * Removes what a process that died left beside `path`: temp files, and lock folders it was making or
 * removing. Call it holding the lock of `path`.
 */
export function removeStaleTemps(path: string): void {
  for (const temp of [...tempsOf(path), ...tempsOf(`${path}.lock`)])
    rmSync(temp, { recursive: true, force: true });
}

/** Whether a process that died while changing `path` may have left a temp file or its lock behind. */
export function leftBehind(path: string): boolean {
  return (
    tempsOf(path).length > 0 ||
    tempsOf(`${path}.lock`).length > 0 ||
    lstatSync(`${path}.lock`, { throwIfNoEntry: false }) !== undefined
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const LOCK_WAIT_MS = 15_000;

export class LockTimeoutError extends FloeError {}

function timedOut(path: string): LockTimeoutError {
  return new LockTimeoutError(
    `Another floe process has held the lock ${path}.lock for over ${LOCK_WAIT_MS / 1000} s; nothing was changed.`,
    'Try again when it has finished (a lock left by a crashed process expires after 10 s).',
  );
}

const held = new Set<string>();

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The holder of a lock names itself ("<host> <pid>") in a file inside the lock folder, so that a lock left
 * by a killed process is taken over by the next one at once instead of after the 10 s proper-lockfile
 * waits for a lock to go stale. proper-lockfile is given a file system whose mkdir makes the folder with
 * that file under a temp name and renames it into place, and whose rmdir renames it away before removing
 * it: no instant, even for a SIGKILL, leaves a lock without its owner. (Renaming onto an empty folder
 * would replace it: an empty lock folder is an older floe's, hence the check before.) What a killed
 * process leaves under a temp name is removed with the other temp files.
 */
const OWNER = 'owner';

function exists(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${path}`), { code });
}

const lockFs = {
  ...fs,
  mkdirSync(lock: string): void {
    if (lstatSync(lock, { throwIfNoEntry: false })) throw exists('EEXIST', lock);
    const temp = tempPath(lock);
    mkdirSync(temp, { mode: 0o700 });
    try {
      writeFileSync(join(temp, OWNER), `${hostname()} ${process.pid}\n`, { mode: 0o600 });
    } catch {
      // A full disk: the lock holds without its owner file (only the expiry frees it after a crash).
      rmSync(join(temp, OWNER), { force: true });
    }
    try {
      renameSync(temp, lock);
    } catch (error) {
      rmSync(temp, { recursive: true, force: true });
      const code = (error as NodeJS.ErrnoException).code;
      // Taken meanwhile, or our temp folder removed by the holder's tidying: held, try again later.
      if (code === 'EEXIST' || code === 'ENOTEMPTY' || code === 'ENOENT') throw exists('EEXIST', lock);
      throw error;
    }
  },
  rmdirSync(lock: string): void {
    discard(lock);
  },
};

/** Removes a lock folder: renamed away first, so that it is never seen without its owner. */
function discard(lock: string): void {
  const trash = tempPath(lock);
  try {
    renameSync(lock, trash);
  } catch (error) {
    if (!diskFull(error)) throw error;
    // The folder holding it is full: removed in place (for an instant without its owner).
    rmSync(lock, { recursive: true, force: true });
    return;
  }
  rmSync(trash, { recursive: true, force: true });
}

function lockOptions(path: string) {
  return { realpath: false, stale: 10_000, lockfilePath: `${path}.lock`, fs: lockFs };
}

/** Removes a dead holder's lock; another process may have done it first. */
function discardDead(lock: string): void {
  try {
    discard(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Whether the lock's holder was a process of this host that no longer exists. */
function holderDied(lock: string): boolean {
  let owner: string;
  try {
    owner = readFileSync(join(lock, OWNER), 'utf8');
  } catch {
    return false;
  }
  const [host, pid] = owner.trim().split(' ');
  if (host !== hostname() || !/^\d+$/.test(pid ?? '')) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * One try at the lock of `path`: its release function, or undefined while another process holds it. A
 * lock whose holder died is removed first, with the same window as proper-lockfile's own stale takeover
 * (two processes taking over the same dead lock at the same instant).
 */
function tryLock(path: string): (() => void) | undefined {
  const lock = `${path}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return lockfile.lockSync(path, lockOptions(path));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOCKED' && holderDied(lock)) discardDead(lock);
      else if (code === 'ELOCKED') return undefined;
      else if (diskFull(error)) throw diskFullError(path, error);
      else throw error;
    }
  }
  return undefined;
}

const pause = () => 10 + Math.floor(Math.random() * 40);

/**
 * Runs `fn` holding the inter-process lock of `path`; re-entrant within this process. proper-lockfile's sync
 * form has no retries, so the waiting (synchronous: there is nothing else to do meanwhile) is done here.
 */
export function withLockSync<T>(path: string, fn: () => T): T {
  if (held.has(path)) return fn();
  ensurePrivateDir(dirname(path));
  const deadline = Date.now() + LOCK_WAIT_MS;
  let release = tryLock(path);
  while (!release) {
    if (Date.now() > deadline) throw timedOut(path);
    sleepSync(pause());
    release = tryLock(path);
  }
  held.add(path);
  try {
    return fn();
  } finally {
    held.delete(path);
    release();
  }
}

export interface LockWait {
  /** Stops waiting for the lock (Ctrl-C). */
  signal?: AbortSignal;
  /** Told once when another process holds the lock (the argument is the lock's path). */
  onWait?: (lockPath: string) => void;
}

/**
 * The form for work that awaits (secret stores) while holding the lock; proper-lockfile keeps the lock
 * fresh meanwhile. It waits for the lock without blocking, so Ctrl-C (`signal`) stops the wait.
 */
export async function withLock<T>(path: string, fn: () => Promise<T>, wait: LockWait = {}): Promise<T> {
  if (held.has(path)) return fn();
  ensurePrivateDir(dirname(path));
  const deadline = Date.now() + LOCK_WAIT_MS;
  const { signal, onWait } = wait;
  let release = tryLock(path);
  if (!release) onWait?.(`${path}.lock`);
  while (!release) {
    if (Date.now() > deadline) throw timedOut(path);
    await sleep(pause(), undefined, signal ? { signal } : {});
    release = tryLock(path);
  }
  return holding(path, release, fn);
}

/** Runs `fn` with the lock of `path` taken (`release` gives it back), marked as held by this process. */
async function holding<T>(path: string, release: () => void, fn: () => Promise<T>): Promise<T> {
  held.add(path);
  try {
    return await fn();
  } finally {
    held.delete(path);
    release();
  }
}

/**
 * Runs `fn` holding the lock of `path` if no other process holds it now; otherwise returns undefined at
 * once (for tidying up that can wait for the next run).
 */
export async function withLockIfFree<T>(path: string, fn: () => Promise<T>): Promise<T | undefined> {
  if (held.has(path)) return fn();
  ensurePrivateDir(dirname(path));
  const release = tryLock(path);
  return release ? holding(path, release, fn) : undefined;
}

/** Key files (a service-account JSON, a destination.json to import) are small; anything larger is refused. */
export const MAX_KEY_FILE_BYTES = 1024 * 1024;
const KEY_FILE_TIMEOUT_MS = 5000;

/** A key file that cannot be used; the message says why in a few words (no path). */
export class KeyFileError extends Error {}

function kind(stat: Stats): string {
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

function checkKeyFile(stat: Stats, maxBytes: number): void {
  if (stat.isDirectory()) throw new KeyFileError('it is a directory');
  if (!stat.isFile()) throw new KeyFileError(`it is ${kind(stat)}, not a regular file`);
  if (stat.size > maxBytes) throw new KeyFileError(`it is larger than ${maxBytes / 1024} KiB`);
}

function explainOpen(error: unknown): KeyFileError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new KeyFileError('no such file');
  if (code === 'EACCES' || code === 'EPERM') return new KeyFileError('permission denied');
  if (code === 'EISDIR') return new KeyFileError('it is a directory');
  return new KeyFileError(code ?? String(error));
}

/**
 * Reads a small regular file: opened non-blocking (a FIFO cannot hang the open), checked to be a regular
 * file of at most `maxBytes` (so /dev/zero or a huge file is refused before reading), read within a timeout.
 */
export async function readKeyFile(
  path: string,
  maxBytes = MAX_KEY_FILE_BYTES,
  timeoutMs = KEY_FILE_TIMEOUT_MS,
): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw explainOpen(error);
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const read = (async () => {
      checkKeyFile(await handle.stat(), maxBytes);
      const buffer = Buffer.alloc(maxBytes + 1);
      let size = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, size, buffer.length - size, null);
        if (bytesRead === 0) break;
        size += bytesRead;
        if (size > maxBytes) throw new KeyFileError(`it is larger than ${maxBytes / 1024} KiB`);
      }
      return buffer.subarray(0, size).toString('utf8');
    })();
    // A read still running when the timeout wins must not become an unhandled rejection.
    read.catch(() => undefined);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new KeyFileError(`reading it took longer than ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
    });
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
    await handle.close();
  }
}

/** The synchronous form for a key handler (the wizard's `@file`): the same checks, no timeout. */
export function readKeyFileSync(path: string, maxBytes = MAX_KEY_FILE_BYTES): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw explainOpen(error);
  }
  try {
    checkKeyFile(fstatSync(fd), maxBytes);
    const buffer = Buffer.alloc(maxBytes + 1);
    let size = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, size, buffer.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > maxBytes) throw new KeyFileError(`it is larger than ${maxBytes / 1024} KiB`);
    }
    return buffer.subarray(0, size).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
