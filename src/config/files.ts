// Private files and folders whatever the umask (folders 0700, files 0600), atomic replacement through a
// 0600 temp file in the same folder that is removed on every failure path (and, when a killed process
// left one, by the next run), the inter-process lock (proper-lockfile) every read-modify-write of the
// config or the secrets file runs under, taken over at once when the process holding it has died, and
// bounded reads of key files (regular files only, at most 1 MiB, with a timeout).
// The parts: private-dir.ts (modes and refusals), atomic.ts (whole writes, temp files), lock.ts (the lock),
// key-file.ts (key file reads); this module is the one the rest of floe imports.
export { DiskFullError, leftBehind, removeStaleTemps, writePrivateFile } from './atomic.js';
export { KeyFileError, MAX_KEY_FILE_BYTES, readKeyFile, readKeyFileSync } from './key-file.js';
export { LockTimeoutError, type LockWait, withLock, withLockIfFree, withLockSync } from './lock.js';
export { checkPrivateDir, ensurePrivateDir } from './private-dir.js';
