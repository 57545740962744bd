// Bounded reads of key files (a service-account JSON, a destination.json to import): regular files only, at
// most 1 MiB, opened non-blocking, read within a timeout.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

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
