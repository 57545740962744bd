// Private files and folders whatever the umask (folders 0700, files 0600), atomic replacement through a
// 0600 temp file in the same folder that is removed on every failure path, and the inter-process lock
// (proper-lockfile) every read-modify-write of the config or the secrets file runs under.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { FloeError } from '../errors.js';

/** Creates `dir` (and missing parents) as 0700; narrows a folder floe created earlier with a wider mode. */
export function ensurePrivateDir(dir: string): void {
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (created !== undefined) chmodSync(dir, 0o700);
}

/** Temp files are `.<name>.<pid>.<random>.tmp` beside their target. */
function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Replaces `path` with `text` atomically: a new 0600 file (O_EXCL, so nothing pre-created is written
 * through) in the same folder, synced, then renamed over the target. The temp file never outlives a failure.
 */
export function writePrivateFile(path: string, text: string): void {
  ensurePrivateDir(dirname(path));
  const tmp = tempPath(path);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', 0o600);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Removes temp files left beside `path` by a process that died mid-write (this one's or an older form). */
export function removeStaleTemps(path: string): void {
  const name = basename(path);
  let entries: string[];
  try {
    entries = readdirSync(dirname(path));
  } catch {
    return;
  }
  const ours = new RegExp(
    `^(\\.${escapeRegExp(name)}\\.\\d+\\.[0-9a-f]+|${escapeRegExp(name)}\\.\\d+)\\.tmp$`,
  );
  for (const entry of entries) if (ours.test(entry)) rmSync(join(dirname(path), entry), { force: true });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const LOCK_WAIT_MS = 15_000;

export class LockTimeoutError extends FloeError {}

function lockOptions(path: string) {
  return { realpath: false, stale: 10_000, lockfilePath: `${path}.lock` };
}

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
 * Takes the lock of `path`, waiting (synchronously: a CLI has nothing else to do meanwhile) while another
 * process holds it. proper-lockfile's sync form has no retries, so the waiting is done here.
 */
function acquire(path: string): () => void {
  ensurePrivateDir(dirname(path));
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return lockfile.lockSync(path, lockOptions(path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      if (Date.now() > deadline) throw timedOut(path);
      sleepSync(10 + Math.floor(Math.random() * 40));
    }
  }
}

/** Runs `fn` holding the inter-process lock of `path`; re-entrant within this process. */
export function withLockSync<T>(path: string, fn: () => T): T {
  if (held.has(path)) return fn();
  const release = acquire(path);
  held.add(path);
  try {
    return fn();
  } finally {
    held.delete(path);
    release();
  }
}

/** The form for work that awaits (secret stores) while holding the lock; proper-lockfile keeps it fresh. */
export async function withLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  if (held.has(path)) return fn();
  const release = acquire(path);
  held.add(path);
  try {
    return await fn();
  } finally {
    held.delete(path);
    release();
  }
}
