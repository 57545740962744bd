// Whole writes: a 0600 temp file (O_EXCL) in the same folder, written whole (a short write continued, a full
// disk an error naming it), synced, renamed over the target, the folder synced; the temp file removed on
// every failure path, and what a killed process left removed by the next run.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { FloeError } from '../errors.js';
import { ensurePrivateDir, refuseSymlink } from './private-dir.js';

/** Temp files are `.<name>.<pid>.<random>.tmp` beside their target. */
export function tempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** The disk (or quota) is full: nothing was replaced. */
export class DiskFullError extends FloeError {}

export const diskFull = (error: unknown) =>
  ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException).code ?? '');

export function diskFullError(path: string, error: unknown): DiskFullError {
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
