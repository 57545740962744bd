// The storage check's probe object, journaled as the write check journals what it makes (floe test
// --write, where the two checks run side by side): recorded before it is written, forgotten once it is
// deleted. A run killed in between leaves the record, and the next `floe test --write` or `floe test
// --cleanup` deletes the probe by its exact key (src/write/cleanup.ts: an object inside the record's
// location, here the probe's own folder).
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ChainOptions, SharedFacts } from '../check/chain.js';
import { type WriteRecord, writeScope } from '../check/journal.js';
import type { Emit } from '../check/types.js';
import type { Values } from '../destination/fields.js';
import { type StorageSteps, skipWrites } from './steps.js';

export interface ProbeJournal {
  /** Records the probe; resolves once it is on disk. */
  written(): Promise<void>;
  /** Forgets it: deleted, or never stored. */
  gone(): Promise<void>;
}

const NONE: ProbeJournal = { written: async () => {}, gone: async () => {} };

/** The journal of a probe at `url` (a key under `folder`, both full URLs); a no-op without a journal. */
export function probeJournal(
  values: Values,
  opts: Pick<ChainOptions, 'write'> & { shared?: Pick<SharedFacts, 'runId'> },
  url: string,
  folder: string,
): ProbeJournal {
  const journal = opts.write?.journal;
  if (!journal) return NONE;
  const record: WriteRecord = {
    id: randomUUID(),
    ...(opts.shared ? { run: opts.shared.runId } : {}),
    profile: opts.write?.profile ?? '',
    host: hostname(),
    pid: process.pid,
    scope: writeScope(values),
    startedAt: new Date().toISOString(),
    namespace: [],
    createdNamespaces: [],
    table: null,
    location: folder,
    tableUuid: null,
    catalogFiles: [],
    objects: [url],
    commit: 'none',
    kept: false,
  };
  let saved = false;
  return {
    async written() {
      await journal.save(record);
      saved = true;
    },
    async gone() {
      if (saved) await journal.remove(record.id);
    },
  };
}

/**
 * Records the probe before it is written; when the journal cannot be written, the probe is not either
 * (a kill would leave an object nothing names): its three steps are skipped with a warning.
 */
export async function recorded(journal: ProbeJournal, steps: StorageSteps, emit: Emit): Promise<boolean> {
  try {
    await journal.written();
    return true;
  } catch (error) {
    skipWrites(steps, 'not written: the journal could not record it');
    emit({
      type: 'warning',
      message: `The probe object was not written: recording it in the config folder's write journal failed (${error instanceof Error ? error.message : String(error)})`,
    });
    return false;
  }
}
