// A snapshot's facts computed exactly from its manifests: the manifest list, then every manifest it
// names (a few at a time), every live entry (status EXISTING 0 or ADDED 1; DELETED 2 is history)
// counted by content: data 0, position deletes 1 (deletion vectors included), equality deletes 2
// (format/spec.md "Manifests", "Manifest Lists"). Field names are the spec's; v1 files have no
// `content` (all data). Reading is bounded by a budget of manifests and bytes, reports progress, and
// stops when the signal aborts; a manifest whose entry count disagrees with its list entry is refused.
import { AvroReadError, type AvroRecord, readAvro } from './avro.js';
import { ObjectReadError, type ObjectReader } from './objects.js';
import type { TableStats } from './stats.js';

/** Upper edges of the data-file size histogram (bytes); the last bucket is open. */
export const HISTOGRAM_EDGES = [1 << 20, 8 << 20, 32 << 20, 128 << 20, 512 << 20] as const;

export interface SizeBucket {
  /** Files below this many bytes (and at or above the previous edge); null: the open last bucket. */
  below: number | null;
  files: number;
}

export interface ExactStats extends TableStats {
  manifests: number;
  histogram: SizeBucket[];
  /** Data files below ScanOptions.smallFileBytes. */
  smallDataFiles: number;
}

export interface ScanBudget {
  maxManifests: number;
  /** Manifest list and manifests together. */
  maxBytes: number;
}

export const DEFAULT_BUDGET: ScanBudget = { maxManifests: 20_000, maxBytes: 4 * 1024 ** 3 };

export interface ScanOptions {
  reader: ObjectReader;
  signal: AbortSignal;
  smallFileBytes: number;
  budget?: ScanBudget;
  /** Manifests read at once. */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Why the manifests could not give the facts; `file` is the one that failed. */
export class ScanError extends Error {
  constructor(
    readonly kind: 'unreadable' | 'malformed' | 'budget' | 'cancelled',
    message: string,
    readonly file?: string,
    readonly diagnosis?: ObjectReadError['diagnosis'],
  ) {
    super(message);
  }
}

const isRecord = (v: unknown): v is AvroRecord => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;

/** Inflated Avro blocks are refused beyond this (a manifest block is a few MiB). */
const MAX_BLOCK_BYTES = 256 * 1024 * 1024;

export async function scanManifests(manifestList: string, opts: ScanOptions): Promise<ExactStats> {
  const budget = opts.budget ?? DEFAULT_BUDGET;
  let bytesRead = 0;
  const fetch = async (url: string): Promise<Uint8Array> => {
    if (opts.signal.aborted) throw new ScanError('cancelled', 'cancelled');
    let bytes: Uint8Array;
    try {
      bytes = await opts.reader.read(url, opts.signal);
    } catch (error) {
      if (opts.signal.aborted) throw new ScanError('cancelled', 'cancelled');
      if (error instanceof ObjectReadError)
        throw new ScanError('unreadable', error.message, url, error.diagnosis);
      throw error;
    }
    bytesRead += bytes.length;
    if (bytesRead > budget.maxBytes)
      throw new ScanError('budget', `the manifests exceed the budget of ${budget.maxBytes} bytes`, url);
    return bytes;
  };
  const decode = async (url: string, bytes: Uint8Array, onRecord: (r: AvroRecord) => void) => {
    try {
      await readAvro(bytes, onRecord, { signal: opts.signal, maxBlockBytes: MAX_BLOCK_BYTES });
    } catch (error) {
      if (opts.signal.aborted) throw new ScanError('cancelled', 'cancelled');
      if (error instanceof ScanError) throw error;
      const message = error instanceof AvroReadError ? error.message : String(error);
      throw new ScanError('malformed', `${url} is not a readable manifest: ${message}`, url);
    }
  };

  const manifests: { path: string; entries: number | null }[] = [];
  await decode(manifestList, await fetch(manifestList), (record) => {
    const path = record.manifest_path;
    if (typeof path !== 'string' || !path)
      throw new ScanError('malformed', `${manifestList} has an entry without manifest_path`, manifestList);
    const counts = ['added_files_count', 'existing_files_count', 'deleted_files_count'].map((k) =>
      count(record[k]),
    );
    const entries = counts.every((c) => c !== null) ? counts.reduce((a, b) => a! + b!, 0)! : null;
    manifests.push({ path, entries });
    if (manifests.length > budget.maxManifests)
      throw new ScanError(
        'budget',
        `the snapshot has more than ${budget.maxManifests} manifests`,
        manifestList,
      );
  });

  const stats: ExactStats = {
    records: 0,
    dataFiles: 0,
    dataBytes: 0,
    deleteFiles: { position: 0, equality: 0 },
    deleteRows: { position: 0, equality: 0 },
    manifests: manifests.length,
    histogram: [...HISTOGRAM_EDGES, null].map((below) => ({ below, files: 0 })),
    smallDataFiles: 0,
  };
  const onEntry = (path: string) => (entry: AvroRecord) => {
    const file = entry.data_file;
    const status = count(entry.status);
    if (!isRecord(file) || status === null || status > 2)
      throw new ScanError('malformed', `${path} has an entry without status or data_file`, path);
    if (status === 2) return;
    const content = file.content === undefined ? 0 : count(file.content);
    const records = count(file.record_count);
    const size = count(file.file_size_in_bytes);
    if (content === null || content > 2 || records === null || size === null)
      throw new ScanError('malformed', `${path} has an entry with an invalid content, count or size`, path);
    if (content === 0) {
      stats.dataFiles++;
      stats.records += records;
      stats.dataBytes += size;
      if (size < opts.smallFileBytes) stats.smallDataFiles++;
      const bucket = HISTOGRAM_EDGES.findIndex((edge) => size < edge);
      stats.histogram[bucket === -1 ? HISTOGRAM_EDGES.length : bucket]!.files++;
    } else if (content === 1) {
      stats.deleteFiles.position++;
      stats.deleteRows.position += records;
    } else {
      stats.deleteFiles.equality++;
      stats.deleteRows.equality += records;
    }
  };

  let next = 0;
  let done = 0;
  let stopped = false;
  opts.onProgress?.(0, manifests.length);
  const work = async () => {
    while (!stopped && next < manifests.length) {
      const manifest = manifests[next++]!;
      let entries = 0;
      const counted = onEntry(manifest.path);
      await decode(manifest.path, await fetch(manifest.path), (entry) => {
        entries++;
        counted(entry);
      });
      if (manifest.entries !== null && entries !== manifest.entries)
        throw new ScanError(
          'malformed',
          `${manifest.path} has ${entries} entries where the manifest list counts ${manifest.entries}`,
          manifest.path,
        );
      opts.onProgress?.(++done, manifests.length);
    }
  };
  // The first failure stops the other readers at their next manifest.
  const worker = () =>
    work().catch((error: unknown) => {
      stopped = true;
      throw error;
    });
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 4, manifests.length) }, worker));
  return stats;
}
