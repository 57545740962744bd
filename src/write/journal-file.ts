// The write check's journal on disk: write-journal.json in the config folder (0600, replaced whole
// under the folder's lock), so a record made before a create or a write survives a SIGKILL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { sameScope, type WriteJournal, type WriteRecord } from '../check/journal.js';
import { withLockSync, writePrivateFile } from '../config/files.js';

export const JOURNAL_FILE = 'write-journal.json';
/** A journal is a few records; anything larger was not written by floe. */
const MAX_JOURNAL_BYTES = 1024 * 1024;

const scopeSchema = z.object({ catalog: z.string(), warehouse: z.string(), store: z.string() });
const recordSchema = z.object({
  id: z.string(),
  profile: z.string(),
  host: z.string(),
  pid: z.number(),
  scope: scopeSchema,
  startedAt: z.string(),
  namespace: z.array(z.string()),
  createdNamespaces: z.array(z.array(z.string())),
  table: z.nullable(z.string()),
  location: z.nullable(z.string()),
  tableUuid: z.nullable(z.string()),
  catalogFiles: z.array(z.string()),
  objects: z.array(z.string()),
  commit: z.enum(['none', 'unknown', 'committed']),
  kept: z.boolean(),
});
const fileSchema = z.object({ version: z.literal(1), records: z.array(recordSchema) });

/** The journal of the config folder `dir`. An unreadable journal reads as empty and is replaced at the next save. */
export function fileJournal(dir: string): WriteJournal {
  const path = join(dir, JOURNAL_FILE);
  const read = (): WriteRecord[] => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return [];
    }
    if (text.length > MAX_JOURNAL_BYTES) return [];
    try {
      const parsed = fileSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data.records : [];
    } catch {
      return [];
    }
  };
  const change = (fn: (records: WriteRecord[]) => WriteRecord[]) =>
    withLockSync(path, () => {
      const records = fn(read());
      writePrivateFile(path, `${JSON.stringify({ version: 1, records }, null, 2)}\n`);
    });
  return {
    save: async (record) => change((records) => [...records.filter((r) => r.id !== record.id), record]),
    remove: async (id) => change((records) => records.filter((r) => r.id !== id)),
    pending: async (scope) => read().filter((r) => sameScope(r.scope, scope)),
  };
}
