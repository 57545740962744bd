// Plaintext secrets file, used only with the user's explicit consent (--insecure-storage or a yes
// at the prompt). Mode 0600 in a 0700 folder; every change is a locked read-modify-write replaced
// atomically through a 0600 temp file that never outlives a failure; `apply` makes several changes in
// one such write.
import { readFileSync } from 'node:fs';
import { removeStaleTemps, withLock, writePrivateFile } from '../config/files.js';
import type { SecretBackend } from './store.js';

export interface FileBackend extends SecretBackend {
  /** Sets (a value) and removes (undefined) entries in one write; returns the accounts that changed. */
  apply(changes: ReadonlyMap<string, string | undefined>): Promise<string[]>;
}

function read(path: string): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return new Map(
        Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
  } catch {}
  throw new Error(
    `The secrets file ${path} is not valid JSON; fix it or remove it and store the secrets again.`,
  );
}

function update(path: string, change: (data: Map<string, string>) => boolean): Promise<boolean> {
  return withLock(path, async () => {
    removeStaleTemps(path);
    const data = read(path);
    const changed = change(data);
    if (changed) writePrivateFile(path, `${JSON.stringify(Object.fromEntries(data), null, 2)}\n`);
    return changed;
  });
}

export function fileBackend(path: string): FileBackend {
  return {
    kind: 'file',
    location: path,
    get: async (account) => read(path).get(account),
    set: async (account, value) => {
      await update(path, (data) => {
        data.set(account, value);
        return true;
      });
    },
    delete: async (account) => update(path, (data) => data.delete(account)),
    apply: async (changes) => {
      const changed: string[] = [];
      await update(path, (data) => {
        for (const [account, value] of changes) {
          if (value === undefined ? data.delete(account) : data.get(account) !== value) changed.push(account);
          if (value !== undefined) data.set(account, value);
        }
        return changed.length > 0;
      });
      return changed;
    },
  };
}
