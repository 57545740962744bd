// Table health as data: each threshold (its key for --threshold, default, rule and meaning) and each
// problem code (when it fires, what it says, the remedy and the maintenance to paste). docs/tables.md
// is generated from these tables (test/docs/tables.test.ts keeps it current).
import { type Maintenance, type MaintenanceKind, maintenance, type TableName } from './maintenance.js';
import type { TableStats } from './stats.js';

/** Iceberg's write.target-file-size-bytes default (TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT). */
export const DEFAULT_TARGET_FILE_BYTES = 512 * 1024 * 1024;
/** Iceberg's history.expire.max-snapshot-age-ms default (TableProperties.MAX_SNAPSHOT_AGE_MS_DEFAULT): 5 days. */
export const DEFAULT_MAX_SNAPSHOT_AGE_MS = 5 * 86_400_000;

export const THRESHOLDS = {
  'small-file-bytes': {
    default: 0,
    kind: 'integer',
    help: 'A data file below this many bytes is small; 0: a quarter of the table’s write.target-file-size-bytes (Iceberg’s default 512 MiB, so 128 MiB)',
  },
  'small-file-share': {
    default: 0.5,
    kind: 'ratio',
    help: 'TABLE_SMALL_FILES fires when at least this share of the data files is small (from the manifests; from a summary, when the average file is small)',
  },
  'small-file-min-files': {
    default: 32,
    kind: 'integer',
    help: 'TABLE_SMALL_FILES needs at least this many data files (a small table is small files by nature)',
  },
  'equality-delete-files': {
    default: 1,
    kind: 'integer',
    help: 'TABLE_EQUALITY_DELETES fires at this many live equality delete files (CDC writes them; every read merges them until compaction)',
  },
  'delete-ratio': {
    default: 0.1,
    kind: 'ratio',
    help: 'TABLE_DELETE_RATIO fires when delete rows (position and equality) reach this share of the records',
  },
  'max-snapshots': {
    default: 100,
    kind: 'integer',
    help: 'TABLE_MANY_SNAPSHOTS fires above this many snapshots',
  },
  'max-snapshot-age-hours': {
    default: 0,
    kind: 'integer',
    help: 'TABLE_OLD_SNAPSHOTS fires when the oldest snapshot is older than this; 0: the table’s history.expire.max-snapshot-age-ms (Iceberg’s default 5 days)',
  },
  'stale-hours': {
    default: 24,
    kind: 'integer',
    help: 'TABLE_STALE fires when the last commit is older than this; a job’s table (from floe jobs): older than the longest gap of the job’s schedule plus the slack of one run (that gap again, at most 6 h)',
  },
} as const satisfies Record<string, { default: number; kind: 'integer' | 'ratio'; help: string }>;

export type ThresholdKey = keyof typeof THRESHOLDS;
export type Thresholds = Record<ThresholdKey, number>;

export const DEFAULT_THRESHOLDS: Thresholds = Object.fromEntries(
  Object.entries(THRESHOLDS).map(([key, t]) => [key, t.default]),
) as Thresholds;

/** `key=value` for --threshold, or the message naming the rule and an example. */
export function parseThreshold(text: string): { key: ThresholdKey; value: number } | { problem: string } {
  const match = /^([a-z-]+)=(.*)$/.exec(text);
  const keys = Object.keys(THRESHOLDS).join(', ');
  if (!match || !(match[1]! in THRESHOLDS))
    return {
      problem: `--threshold: "${text}" is not KEY=VALUE with a known key (${keys}), e.g. --threshold max-snapshots=500`,
    };
  const key = match[1] as ThresholdKey;
  const raw = match[2]!;
  const value = Number(raw);
  if (THRESHOLDS[key].kind === 'ratio') {
    if (!/^\d*\.?\d+$/.test(raw) || value > 1)
      return { problem: `--threshold ${key}: "${raw}" must be a ratio from 0 to 1, e.g. ${key}=0.25` };
  } else if (!/^\d{1,15}$/.test(raw))
    return {
      problem: `--threshold ${key}: "${raw}" must be a whole number ≥ 0, e.g. ${key}=${THRESHOLDS[key].default || 24}`,
    };
  return { key, value };
}

export const PROBLEMS = {
  TABLE_SMALL_FILES: {
    title: 'Many small data files',
    remedy:
      'Compact the data files (rewrite_data_files / optimize); OLake’s own benchmark reads 4.7× faster after compaction. Raise the job’s batch size if every sync writes small files',
    maintenance: 'compact',
  },
  TABLE_EQUALITY_DELETES: {
    title: 'Equality delete files',
    remedy:
      'CDC writes equality deletes and every read merges them with the data: compact with the deletes applied, regularly for CDC tables',
    maintenance: 'compact-deletes',
  },
  TABLE_DELETE_RATIO: {
    title: 'Many deleted rows still in data files',
    remedy: 'Rewrite the data files with their deletes applied, then the position delete files',
    maintenance: 'compact-deletes',
  },
  TABLE_MANY_SNAPSHOTS: {
    title: 'Too many snapshots',
    remedy: 'Expire old snapshots: the metadata file grows with each, and so does every commit and planning',
    maintenance: 'expire',
  },
  TABLE_OLD_SNAPSHOTS: {
    title: 'Old snapshots kept',
    remedy:
      'Expire snapshots older than the retention: their files stay in the bucket (and are billed) until then; remove orphan files after failed writes',
    maintenance: 'expire',
  },
  TABLE_STALE: {
    title: 'No recent commit',
    remedy:
      'Check the job writing this table (floe jobs: its last run, its logs); a run that succeeds without committing leaves the table behind',
    maintenance: null,
  },
  TABLE_UNREADABLE: {
    title: 'Metadata or manifests unreadable',
    remedy: 'Fix what the problem names (the profile’s storage access, a missing or malformed file)',
    maintenance: null,
  },
} as const satisfies Record<string, { title: string; remedy: string; maintenance: MaintenanceKind | null }>;

export type ProblemCode = keyof typeof PROBLEMS;

export interface Problem {
  code: ProblemCode;
  what: string;
  remedy: string;
  maintenance?: Maintenance;
}

/** What the rules look at. */
export interface HealthFacts {
  stats: TableStats;
  /** Data files below the small-file size: exact from the manifests, null from a summary. */
  smallDataFiles: number | null;
  snapshots: number;
  oldestSnapshotMs: number | null;
  lastCommitMs: number | null;
  properties: Record<string, string>;
}

export interface HealthContext {
  thresholds: Thresholds;
  nowMs: number;
  table: TableName;
  /** A job's schedule period, when the table is a job's and its schedule is known. */
  expectedPeriodMs?: number;
}

/** A job's run may take up to its period, at most this long, before its commit is late. */
export const JOB_SLACK_MAX_MS = 6 * 3_600_000;

/** A job's table is stale after its schedule's period plus the slack of one run (min(period, 6 h)). */
export function jobStaleAfterMs(periodMs: number): number {
  return periodMs + Math.min(periodMs, JOB_SLACK_MAX_MS);
}

/** The table's write.target-file-size-bytes, else Iceberg's default. */
function targetFileBytes(properties: Record<string, string>): number {
  const n = Number(properties['write.target-file-size-bytes']);
  return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_TARGET_FILE_BYTES;
}

/** The size below which a data file is small for this table. */
export function smallFileBytes(thresholds: Thresholds, properties: Record<string, string>): number {
  return thresholds['small-file-bytes'] || Math.floor(targetFileBytes(properties) / 4);
}

export function maxSnapshotAgeMs(thresholds: Thresholds, properties: Record<string, string>): number {
  if (thresholds['max-snapshot-age-hours']) return thresholds['max-snapshot-age-hours'] * 3_600_000;
  const n = Number(properties['history.expire.max-snapshot-age-ms']);
  return Number.isSafeInteger(n) && n > 0 ? n : DEFAULT_MAX_SNAPSHOT_AGE_MS;
}

const bytesText = (n: number) =>
  n >= 1024 ** 3
    ? `${(n / 1024 ** 3).toFixed(1)} GiB`
    : n >= 1024 ** 2
      ? `${(n / 1024 ** 2).toFixed(1)} MiB`
      : n >= 1024
        ? `${(n / 1024).toFixed(1)} KiB`
        : `${n} B`;

export function durationText(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 48
    ? `${Math.floor(hours / 24)} days`
    : hours >= 1
      ? `${Math.floor(hours)} h`
      : `${Math.max(0, Math.floor(ms / 60_000))} min`;
}

/** Every problem the rules find in `facts`, in PROBLEMS order. */
export function evaluate(facts: HealthFacts, ctx: HealthContext): Problem[] {
  const t = ctx.thresholds;
  const { stats } = facts;
  const small = smallFileBytes(t, facts.properties);
  const retainMs = maxSnapshotAgeMs(t, facts.properties);
  const found: { code: ProblemCode; what: string }[] = [];
  if (stats.dataFiles >= t['small-file-min-files'] && stats.dataFiles > 0) {
    const share = facts.smallDataFiles === null ? null : facts.smallDataFiles / stats.dataFiles;
    const average = stats.dataBytes / stats.dataFiles;
    if (share === null ? average < small : share >= t['small-file-share'])
      found.push({
        code: 'TABLE_SMALL_FILES',
        what:
          share === null
            ? `${stats.dataFiles} data files averaging ${bytesText(average)}, below ${bytesText(small)}`
            : `${facts.smallDataFiles} of ${stats.dataFiles} data files (${Math.round(share * 100)}%) are below ${bytesText(small)}`,
      });
  }
  const equality = stats.deleteFiles.equality;
  if (t['equality-delete-files'] > 0 && equality >= t['equality-delete-files'])
    found.push({
      code: 'TABLE_EQUALITY_DELETES',
      what: `${equality} equality delete file${equality === 1 ? '' : 's'} (${stats.deleteRows.equality} rows) merged by every read`,
    });
  const deleteRows = stats.deleteRows.position + stats.deleteRows.equality;
  if (stats.records > 0 && deleteRows > 0 && deleteRows / stats.records >= t['delete-ratio'])
    found.push({
      code: 'TABLE_DELETE_RATIO',
      what: `${deleteRows} delete rows against ${stats.records} records (${Math.round((deleteRows / stats.records) * 100)}%)`,
    });
  if (facts.snapshots > t['max-snapshots'])
    found.push({
      code: 'TABLE_MANY_SNAPSHOTS',
      what: `${facts.snapshots} snapshots, more than ${t['max-snapshots']}`,
    });
  if (facts.oldestSnapshotMs !== null && ctx.nowMs - facts.oldestSnapshotMs > retainMs && facts.snapshots > 1)
    found.push({
      code: 'TABLE_OLD_SNAPSHOTS',
      what: `the oldest snapshot is ${durationText(ctx.nowMs - facts.oldestSnapshotMs)} old, beyond the retention of ${durationText(retainMs)}`,
    });
  const period = ctx.expectedPeriodMs;
  const staleMs = period ? jobStaleAfterMs(period) : t['stale-hours'] * 3_600_000;
  if (facts.lastCommitMs !== null && staleMs > 0 && ctx.nowMs - facts.lastCommitMs > staleMs)
    found.push({
      code: 'TABLE_STALE',
      what: `no commit for ${durationText(ctx.nowMs - facts.lastCommitMs)}, longer than ${period ? `the job’s period of ${durationText(period)} and its slack` : 'expected'} (${durationText(staleMs)})`,
    });
  const mctx = { nowMs: ctx.nowMs, retainMs, smallFileBytes: small };
  return found.map(({ code, what }) => {
    const kind = PROBLEMS[code].maintenance;
    return {
      code,
      what,
      remedy: PROBLEMS[code].remedy,
      ...(kind ? { maintenance: maintenance(kind, ctx.table, mctx) } : {}),
    };
  });
}

/** The problem of a table whose metadata or manifests could not be read. */
export function unreadable(what: string, remedy?: string): Problem {
  return { code: 'TABLE_UNREADABLE', what, remedy: remedy ?? PROBLEMS.TABLE_UNREADABLE.remedy };
}
