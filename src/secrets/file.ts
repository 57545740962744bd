// Plaintext secrets file, used only with the user's explicit consent (--insecure-storage or a yes
// at the prompt). Mode 0600, written atomically.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SecretBackend } from './store.js';

function read(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, string>;
  } catch {}
  throw new Error(
    `The secrets file ${path} is not valid JSON; fix it or remove it and store the secrets again.`,
  );
}

function write(path: string, data: Record<string, string>): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

export function fileBackend(path: string): SecretBackend {
  return {
    kind: 'file',
    location: path,
    get: async (account) => read(path)[account],
    set: async (account, value) => write(path, { ...read(path), [account]: value }),
    delete: async (account) => {
      const data = read(path);
      if (!(account in data)) return false;
      delete data[account];
      write(path, data);
      return true;
    },
  };
}
