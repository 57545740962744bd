// The write check's journal: what a run is about to make is recorded before it makes it (namespace
// levels, the table by the name floe chose, every object key), and cleared as the cleanup removes it.
// A run stopped by SIGKILL, a crash or a refused cleanup leaves its record; the next `floe test
// --write` of the same catalog and store, or `floe test --cleanup`, finds it and removes what it can.
import { hostname } from 'node:os';
import type { Values } from '../destination/fields.js';

/** Where a record's things live: a later run may clean them up only with the same catalog and store. */
export interface WriteScope {
  /** The catalog's URI as the profile names it. */
  catalog: string;
  warehouse: string;
  /** The object store: the endpoint of an S3-compatible store, else `aws:<region>` or `gcs`. */
  store: string;
}

/** What a commit left: `none` never sent, `unknown` sent without a clear answer, `committed`. */
export type CommitState = 'none' | 'unknown' | 'committed';

export interface WriteRecord {
  /** The record's id. */
  id: string;
  /** The check run that made it (SharedFacts.runId): that run's cleanup leaves it to the chain that made it. */
  run?: string;
  /** The profile the run tested (shown; the scope decides who may clean up). */
  profile: string;
  /** The floe that made the record: a run still going is not an earlier run's leftover. */
  host: string;
  pid: number;
  scope: WriteScope;
  startedAt: string;
  namespace: string[];
  /** Namespace levels this run created, outermost first. */
  createdNamespaces: string[][];
  /** The table's name, recorded before the create request; null before that. */
  table: string | null;
  /** The table's location and uuid once the catalog answered the create. */
  location: string | null;
  tableUuid: string | null;
  /** The catalog's metadata files it named under `<location>/metadata/` (removed only when it did not purge). */
  catalogFiles: string[];
  /** Every object floe put or may have put, by exact URL. */
  objects: string[];
  commit: CommitState;
  /** --keep: the table stays; only a failed run's things are cleaned up. */
  kept: boolean;
}

export interface WriteJournal {
  /** Records the run's current state (replacing its earlier record); resolves once it is on disk. */
  save(record: WriteRecord): Promise<void>;
  /** Forgets the run: everything it made is gone (or kept on purpose). */
  remove(id: string): Promise<void>;
  /** Records of earlier runs with this scope. */
  pending(scope: WriteScope): Promise<WriteRecord[]>;
}

export function writeScope(values: Values): WriteScope {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const f = values.fields;
  const store =
    values.storage === 'gcs'
      ? 'gcs'
      : text(f.s3Endpoint)
        ? text(f.s3Endpoint).replace(/\/+$/, '')
        : `aws:${text(f.region) || 'us-east-1'}`;
  return { catalog: text(f.catalogUrl).replace(/\/+$/, ''), warehouse: text(f.warehouse), store };
}

/** Whether the record's floe is another process still running on this machine. */
export function stillRunning(record: WriteRecord): boolean {
  if (record.host !== hostname() || record.pid === process.pid) return false;
  try {
    process.kill(record.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function sameScope(a: WriteScope, b: WriteScope): boolean {
  return a.catalog === b.catalog && a.warehouse === b.warehouse && a.store === b.store;
}

/** A journal in memory: for a check run without a config folder (tests of the chain alone). */
export function memoryJournal(): WriteJournal & { records: Map<string, WriteRecord> } {
  const records = new Map<string, WriteRecord>();
  return {
    records,
    save: async (record) => {
      records.set(record.id, structuredClone(record));
    },
    remove: async (id) => {
      records.delete(id);
    },
    pending: async (scope) => [...records.values()].filter((r) => sameScope(r.scope, scope)),
  };
}
