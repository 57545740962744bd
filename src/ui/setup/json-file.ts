// The JSON field accepts the JSON itself or `@/path/to/key.json`: this reads such a file.
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';

const MAX_BYTES = 256 * 1024;

export type JsonArgument = { ok: true; value: string } | { ok: false; message: string };

/** Whether a typed value names a file (`@path`) rather than being the JSON itself. */
export function isFileReference(value: string): boolean {
  return value.trim().startsWith('@');
}

/**
 * Reads the file an `@path` value names (`~/` is the home directory) and returns its JSON on one line.
 * Content that is not JSON is returned as read, for the field's own rule to reject.
 */
export function readJsonArgument(value: string, label: string, cwd = process.cwd()): JsonArgument {
  const raw = value.trim().slice(1).trim();
  if (raw === '') return { ok: false, message: `${label}: give a file path after "@", e.g. @./key.json` };
  const path = resolve(cwd, raw.startsWith('~/') ? `${homedir()}/${raw.slice(2)}` : raw);
  let text: string;
  try {
    if (statSync(path).size > MAX_BYTES)
      return { ok: false, message: `${label}: ${path} is larger than ${MAX_BYTES / 1024} KiB` };
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a directory'
            : (code ?? 'unreadable');
    return { ok: false, message: `${label}: cannot read ${path} (${why})` };
  }
  try {
    return { ok: true, value: JSON.stringify(JSON.parse(text)) };
  } catch {
    return { ok: true, value: text.replace(/\s*[\r\n]+\s*/g, ' ') };
  }
}
