// The JSON field accepts the JSON itself or `@/path/to/key.json`: this reads such a file.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { KeyFileError, readKeyFileSync } from '../../config/files.js';

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
    // Regular files only (a FIFO or /dev/zero would hang or never end), at most MAX_BYTES.
    text = readKeyFileSync(path, MAX_BYTES).trim();
  } catch (error) {
    if (!(error instanceof KeyFileError)) throw error;
    return { ok: false, message: `${label}: cannot read ${path} (${error.message})` };
  }
  try {
    return { ok: true, value: JSON.stringify(JSON.parse(text)) };
  } catch {
    return { ok: true, value: text.replace(/\s*[\r\n]+\s*/g, ' ') };
  }
}
