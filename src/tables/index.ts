// `floe tables` in the domain: every table of the catalog (or under a namespace, nested levels
// included) with its size, deletes, snapshots, freshness and health problems, from the current
// snapshot's summary where it is complete, else from the manifests; and one table in detail, exactly
// from its manifests. A table that cannot be read (a refused load, a hostile answer, a missing or
// malformed file) gets its own TABLE_UNREADABLE problem and never stops the others.
import type { CatalogSession } from '../catalog/session.js';
import type { Diagnosis, Emit } from '../check/types.js';
import type { Values } from '../destination/fields.js';
import { CatalogReadError, CatalogReader, type TableRef } from './catalog.js';
import { evaluate, PROBLEMS, type Problem, smallFileBytes, type Thresholds, unreadable } from './health.js';
import { limiter } from './limit.js';
import { type ExactStats, type ScanBudget, ScanError, type SizeBucket, scanManifests } from './manifests.js';
import { currentSnapshot, type SchemaInfo, type TableMetadata, writeProperties } from './metadata.js';
import { type ObjectReader, objectReader } from './objects.js';
import { averageFileBytes, EMPTY_STATS, statsFromSummary, type TableStats } from './stats.js';

export type { TableRef } from './catalog.js';

/** The most requests `floe tables` has in flight. */
export const MAX_IN_FLIGHT = 16;
/** Namespaces nest at most this deep, and at most this many are visited (a server inventing children stops). */
export const MAX_DEPTH = 16;
export const MAX_NAMESPACES = 10_000;

/** One table as `floe tables` shows it (and prints with --json). Unknown numbers are null. */
export interface TableRow {
  namespace: string[];
  name: string;
  location: string | null;
  formatVersion: number | null;
  lastCommitMs: number | null;
  snapshots: number | null;
  records: number | null;
  dataFiles: number | null;
  dataBytes: number | null;
  avgDataFileBytes: number | null;
  deleteFiles: { position: number | null; equality: number | null };
  deleteRows: { position: number | null; equality: number | null };
  source: 'summary' | 'manifests' | null;
  problems: Problem[];
}

export interface SnapshotLine {
  /** A decimal string (64-bit). */
  id: string;
  timestampMs: number;
  operation: string;
  addedRecords: number | null;
  deletedRecords: number | null;
  addedFiles: number | null;
  removedFiles: number | null;
  addedDeleteFiles: number | null;
  removedDeleteFiles: number | null;
}

export interface TableDetail extends TableRow {
  metadataLocation: string | null;
  manifests: number | null;
  histogram: SizeBucket[];
  currentSchemaId: number | null;
  schemas: SchemaInfo[];
  partitionSpec: string[];
  sortOrder: string[];
  writeProperties: Record<string, string>;
  snapshotLog: SnapshotLine[];
}

export interface TablesOptions {
  /** The profile (validated): the object store's settings. */
  values: Values;
  session: CatalogSession;
  /** The engines' name for the catalog (the export's), for the maintenance lines. */
  catalogName: string;
  thresholds: Thresholds;
  signal: AbortSignal;
  timeoutMs: number;
  now: () => number;
  emit?: Emit;
  /** Requests in flight, at most MAX_IN_FLIGHT. */
  concurrency?: number;
  /** Tests and the bench give their own; otherwise the profile's object store. */
  reader?: ObjectReader;
  /** A job's schedule period, when the tables are a job's. */
  expectedPeriodMs?: number;
}

interface Context {
  opts: TablesOptions;
  catalog: CatalogReader;
  reader: ObjectReader;
}

function open(opts: TablesOptions): Context {
  const emit = opts.emit ?? (() => {});
  const limit = limiter(Math.min(MAX_IN_FLIGHT, opts.concurrency ?? MAX_IN_FLIGHT));
  const catalog = new CatalogReader({
    session: opts.session,
    emit,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    limit,
  });
  const base =
    opts.reader ??
    objectReader({
      values: opts.values,
      emit,
      scrubber: opts.session.scrubber,
      env: opts.session.env,
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
    });
  return {
    opts,
    catalog,
    reader: { read: (url, signal) => limit(() => base.read(url, signal)), close: () => base.close() },
  };
}

async function close(ctx: Context): Promise<void> {
  ctx.reader.close();
  await ctx.catalog.close();
}

/** A table known only by name (unreadable, or not written yet), with its problems. */
export const unknownRow = (ref: TableRef, problems: Problem[]): TableRow => ({
  namespace: ref.namespace,
  name: ref.name,
  location: null,
  formatVersion: null,
  lastCommitMs: null,
  snapshots: null,
  records: null,
  dataFiles: null,
  dataBytes: null,
  avgDataFileBytes: null,
  deleteFiles: { position: null, equality: null },
  deleteRows: { position: null, equality: null },
  source: null,
  problems,
});

function scanProblem(error: ScanError): Problem {
  if (error.diagnosis) return unreadable(error.diagnosis.what, error.diagnosis.remedy);
  if (error.kind === 'budget')
    return unreadable(
      `${error.message}: floe stopped reading`,
      'Read this table with floe tables show and a larger --budget, or with an engine’s $files table',
    );
  return unreadable(
    error.message,
    'The file was not written by an Iceberg writer floe can read, or is damaged: rewrite the table’s manifests with an engine (Spark CALL <catalog>.system.rewrite_manifests)',
  );
}

interface Computed {
  stats: TableStats;
  exact: ExactStats | null;
  source: 'summary' | 'manifests';
  problem: Problem | null;
}

/** The table's numbers: the summary where complete (unless `exact`), else the manifests. */
async function compute(
  ctx: Context,
  meta: TableMetadata,
  exact: boolean,
  extra: { budget?: ScanBudget; onProgress?: (done: number, total: number) => void } = {},
): Promise<Computed> {
  const current = currentSnapshot(meta);
  if (!current) return { stats: EMPTY_STATS, exact: null, source: 'summary', problem: null };
  const fromSummary = exact ? null : statsFromSummary(current.summary);
  if (fromSummary) return { stats: fromSummary, exact: null, source: 'summary', problem: null };
  if (!current.manifestList)
    return {
      stats: EMPTY_STATS,
      exact: null,
      source: 'manifests',
      problem: unreadable(
        'the current snapshot has no manifest list (a format v1 table with embedded manifests)',
        'Read this table with an engine; floe reads manifest lists only',
      ),
    };
  try {
    const scanned = await scanManifests(current.manifestList, {
      reader: ctx.reader,
      signal: ctx.opts.signal,
      smallFileBytes: smallFileBytes(ctx.opts.thresholds, meta.properties),
      ...extra,
    });
    return { stats: scanned, exact: scanned, source: 'manifests', problem: null };
  } catch (error) {
    if (!(error instanceof ScanError)) throw error;
    if (error.kind === 'cancelled') throw new CatalogReadError(null);
    return { stats: EMPTY_STATS, exact: null, source: 'manifests', problem: scanProblem(error) };
  }
}

function rowOf(ctx: Context, ref: TableRef, meta: TableMetadata, computed: Computed): TableRow {
  const current = currentSnapshot(meta);
  const { stats, exact, problem } = computed;
  const known = problem === null;
  const problems = evaluate(
    {
      stats,
      smallDataFiles: exact?.smallDataFiles ?? null,
      snapshots: meta.snapshots.length,
      oldestSnapshotMs: meta.snapshots[0]?.timestampMs ?? null,
      lastCommitMs: current?.timestampMs ?? null,
      properties: meta.properties,
    },
    {
      thresholds: ctx.opts.thresholds,
      nowMs: ctx.opts.now(),
      table: { catalog: ctx.opts.catalogName, namespace: ref.namespace, name: ref.name },
      ...(ctx.opts.expectedPeriodMs ? { expectedPeriodMs: ctx.opts.expectedPeriodMs } : {}),
    },
  ).filter((p) => known || PROBLEMS[p.code].maintenance === 'expire' || p.code === 'TABLE_STALE');
  const n = (v: number) => (known ? v : null);
  return {
    namespace: ref.namespace,
    name: ref.name,
    location: meta.location,
    formatVersion: meta.formatVersion,
    lastCommitMs: current?.timestampMs ?? null,
    snapshots: meta.snapshots.length,
    records: n(stats.records),
    dataFiles: n(stats.dataFiles),
    dataBytes: n(stats.dataBytes),
    avgDataFileBytes: n(averageFileBytes(stats)),
    deleteFiles: { position: n(stats.deleteFiles.position), equality: n(stats.deleteFiles.equality) },
    deleteRows: { position: n(stats.deleteRows.position), equality: n(stats.deleteRows.equality) },
    source: computed.source,
    problems: problem ? [problem, ...problems] : problems,
  };
}

async function loadRow(ctx: Context, ref: TableRef): Promise<TableRow> {
  const meta = await ctx.catalog.load(ref);
  if ('problem' in meta) return unknownRow(ref, [unreadable(meta.problem, meta.diagnosis?.remedy)]);
  return rowOf(ctx, ref, meta, await compute(ctx, meta, false));
}

export interface ListOptions extends TablesOptions {
  /** Only this namespace and the ones nested in it. */
  namespace?: string[];
  /** Each row as soon as it is known (in no particular order). */
  onRow?: (row: TableRow) => void;
}

export interface ListResult {
  rows: TableRow[];
  /** Namespaces whose listing failed (the rest are listed). */
  failures: Diagnosis[];
}

/** Every table under `namespace` (or the whole catalog), sorted by namespace and name. */
export async function listTables(opts: ListOptions): Promise<ListResult> {
  const ctx = open(opts);
  const rows: TableRow[] = [];
  const failures: Diagnosis[] = [];
  const guard = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof CatalogReadError)) throw error;
      if (!error.diagnosis || opts.signal.aborted) throw error;
      failures.push(error.diagnosis);
    }
  };
  /** A child as a full namespace (a server may answer only the last level). */
  const childOf = (parent: string[], child: string[]): string[] | null => {
    if (child.length === parent.length + 1 && parent.every((level, i) => child[i] === level)) return child;
    return child.length === 1 && parent.length > 0 ? [...parent, child[0]!] : null;
  };
  let visited = 0;
  const visit = async (namespace: string[]): Promise<void> => {
    if (namespace.length > MAX_DEPTH || ++visited > MAX_NAMESPACES) {
      if (visited === MAX_NAMESPACES + 1 || namespace.length === MAX_DEPTH + 1)
        failures.push({
          code: 'TABLES_TOO_MANY_NAMESPACES',
          step: 'tables.namespaces',
          what: `The catalog lists more than ${MAX_NAMESPACES} namespaces or nests them deeper than ${MAX_DEPTH} levels: floe stopped there`,
          cause: 'A catalog this large, or a server that answers every namespace with another child',
          remedy: 'List one namespace at a time with --namespace',
          evidence: {},
        });
      return;
    }
    const children: string[][] = [];
    const tables = namespace.length
      ? guard(async () => {
          const refs = await ctx.catalog.tables(namespace);
          await Promise.all(
            refs.map(async (ref) => {
              const row = await loadRow(ctx, ref);
              rows.push(row);
              opts.onRow?.(row);
            }),
          );
        })
      : Promise.resolve();
    // The top level must list (or the command fails); a nested level that does not is one failure.
    const listed = namespace.length
      ? guard(async () => {
          children.push(...(await ctx.catalog.namespaces(namespace)));
        })
      : ctx.catalog.namespaces([]).then((top) => {
          children.push(...top);
        });
    await Promise.all([tables, listed]);
    await Promise.all(
      children
        .map((child) => childOf(namespace, child))
        .filter((child): child is string[] => child !== null)
        .map((child) => visit(child)),
    );
  };
  try {
    await visit(opts.namespace ?? []);
  } finally {
    await close(ctx);
  }
  // A namespace's own tables first, then its nested namespaces'; code-point order (no locale).
  const key = (r: TableRow) => [r.namespace.join('.'), r.name] as const;
  rows.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] !== y[0] ? (x[0] < y[0] ? -1 : 1) : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0;
  });
  return { rows, failures };
}

const summaryCount = (summary: Record<string, string>, key: string): number | null => {
  const v = summary[key];
  return v !== undefined && /^\d{1,15}$/.test(v) ? Number(v) : null;
};

export interface ShowOptions extends TablesOptions {
  budget?: ScanBudget;
  onProgress?: (done: number, total: number) => void;
}

/** One table in detail, its numbers exactly from the manifests; null when the catalog has no such table. */
export async function showTable(
  ref: TableRef,
  opts: ShowOptions,
): Promise<TableDetail | { problem: string; diagnosis?: Diagnosis }> {
  const ctx = open(opts);
  try {
    const meta = await ctx.catalog.load(ref);
    if ('problem' in meta) return meta;
    const computed = await compute(ctx, meta, true, {
      ...(opts.budget ? { budget: opts.budget } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    });
    return {
      ...rowOf(ctx, ref, meta, computed),
      metadataLocation: meta.metadataLocation,
      manifests: computed.exact?.manifests ?? null,
      histogram: computed.exact?.histogram ?? [],
      currentSchemaId: meta.currentSchemaId,
      schemas: meta.schemas,
      partitionSpec: meta.partitionSpec,
      sortOrder: meta.sortOrder,
      writeProperties: writeProperties(meta),
      snapshotLog: meta.snapshots.map((s) => ({
        id: s.id,
        timestampMs: s.timestampMs,
        operation: s.operation,
        addedRecords: summaryCount(s.summary, 'added-records'),
        deletedRecords: summaryCount(s.summary, 'deleted-records'),
        addedFiles: summaryCount(s.summary, 'added-data-files'),
        removedFiles: summaryCount(s.summary, 'deleted-data-files'),
        addedDeleteFiles: summaryCount(s.summary, 'added-delete-files'),
        removedDeleteFiles: summaryCount(s.summary, 'removed-delete-files'),
      })),
    };
  } finally {
    await close(ctx);
  }
}
