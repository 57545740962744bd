// The inter-process lock (proper-lockfile) every read-modify-write of the config or the secrets file runs
// under: its holder named in the lock folder, so a lock whose holder died is taken over at once.
import fs, { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { FloeError } from '../errors.js';
import { diskFull, diskFullError, tempPath } from './atomic.js';
import { ensurePrivateDir } from './private-dir.js';

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
