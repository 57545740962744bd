// Seeded, repeatable jobs for the OLake UI emulator: mixed states (completed, failed, running, never
// ran), paused ones, several cron frequencies, tasks with log lines for each run, and the config strings
// a job's detail carries (`streams_config`, source and destination `config`; olake-ui v0.4.6
// `server/internal/services/etl/job.go` buildJobResponse): from a few streams to tens of thousands.
import type { Job, LogLine, Task } from '../../management/types.js';
import { SEED_FAILURES } from './failures.js';
import { type FailureText, PREAMBLE_LINES, syncFailureLog } from './synclog.js';

export interface EmulatorTask extends Task {
  /** Every complete line of the run's log, debug lines included (the API filters those out). */
  logs: LogLine[];
  /** Bytes written after the last newline (a line being written), if any. */
  partial?: string;
}

export interface EmulatorJob extends Job {
  /** Newest first, as Temporal lists workflows. */
  tasks: EmulatorTask[];
  /** How many streams `streams_config` selects; the string is built when the detail is read. */
  stream_count: number;
}

export interface SeedOptions {
  /** The destination.json every seeded job writes to (default: an unreachable example catalog). */
  destinationConfig?: string;
}

/** Saved by an older OLake UI in the `N-unit` form the server still converts (utils.ToCron). */
export const LEGACY_FREQUENCY_JOB_ID = 9;

/** A schema-per-tenant source: this job's detail is well over 10 MB. */
export const HUGE_JOB_ID = 6;
export const HUGE_JOB_STREAMS = 24_000;

/** The destination.json of a job that writes to a catalog the emulator cannot reach. */
export const EXAMPLE_DESTINATION = JSON.stringify({
  type: 'ICEBERG',
  writer: {
    catalog_type: 'rest',
    rest_catalog_url: 'http://iceberg-rest.internal:8181',
    iceberg_s3_path: 's3://warehouse/olake',
    aws_region: 'us-east-1',
    aws_access_key: 'AKIAEMULATOR0000SEED',
    aws_secret_key: 'seed-destination-secret-key',
    rest_auth_type: 'none',
    rest_signing_v_4: false,
    no_identifier_fields: false,
  },
});

const COLUMNS = ['id', 'tenant_id', 'created_at', 'updated_at', 'status', 'amount', 'payload'];

/**
 * The job's `streams_config` as the OLake UI stores it (a catalog string): `selected_streams` per
 * namespace and one `streams` entry with its type schema per stream.
 */
export function streamsConfig(job: Pick<EmulatorJob, 'stream_count' | 'source'>): string {
  const selected: Record<string, unknown[]> = {};
  const streams: unknown[] = [];
  const perSchema = TABLES.length;
  for (let i = 0; i < job.stream_count; i++) {
    const namespace =
      job.stream_count > perSchema
        ? `tenant_${String(Math.floor(i / perSchema)).padStart(5, '0')}`
        : 'public';
    const name = TABLES[i % perSchema] as string;
    const list = selected[namespace] ?? [];
    selected[namespace] = list;
    list.push({ partition_regex: '', stream_name: name, normalization: false });
    streams.push({
      stream: {
        name,
        namespace,
        type_schema: {
          properties: Object.fromEntries(
            COLUMNS.map((c) => [c, { type: c === 'id' ? ['integer'] : ['string', 'null'] }]),
          ),
        },
        supported_sync_modes: ['full_refresh', 'cdc', 'incremental'],
        source_defined_primary_key: ['id'],
        available_cursor_fields: ['id', 'created_at', 'updated_at'],
        sync_mode: 'cdc',
      },
    });
  }
  return JSON.stringify({ selected_streams: selected, streams });
}

function sourceConfig(type: string, id: number): string {
  return JSON.stringify({
    host: `${type}.db.internal`,
    port: { postgres: 5432, mysql: 3306, mongodb: 27017, oracle: 1521, mssql: 1433 }[type] ?? 5432,
    database: 'prod',
    username: 'olake',
    password: `seed-source-password-${id}`,
    max_threads: 5,
  });
}

/** mulberry32: a tiny deterministic PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SOURCES = [
  { name: 'pg-prod', type: 'postgres' },
  { name: 'mysql-shop', type: 'mysql' },
  { name: 'mongo-events', type: 'mongodb' },
  { name: 'oracle-erp', type: 'oracle' },
  { name: 'mssql-billing', type: 'mssql' },
];
const TABLES = ['orders', 'customers', 'payments', 'invoices', 'events', 'sessions', 'products', 'shipments'];
const FREQUENCIES = ['*/15 * * * *', '0 * * * *', '0 */6 * * *', '0 2 * * *', '30 1 * * 1', '0 0 1 * *'];
const VERSIONS = ['v0.9.4', 'v0.9.3', 'v0.9.1'];

type Outcome = 'Completed' | 'Failed' | 'Canceled';

/** The latest run's outcome by position, so that any 12 consecutive jobs show every state. */
const PATTERN = [
  'Completed',
  'Failed',
  'never',
  'Running',
  'Completed',
  'Completed',
  'Failed',
  'never',
  'Canceled',
  'Completed',
  'Running',
  'Completed',
] as const;

export function workflowId(project: string, jobId: number, start: Date): string {
  return `sync-${project}-${jobId}-${start.toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function runtime(ms: number): string {
  const s = Math.round(ms / 1000);
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${s % 60}s` : `${s}s`;
}

/** How a failed run of job `jobId` ends from `start` (ms): its seeded failure (picked by job id). */
export function failedEnd(jobId: number, start: number): LogLine[] {
  const failure = SEED_FAILURES[jobId % SEED_FAILURES.length]?.failure as FailureText;
  return syncFailureLog(failure, start).slice(PREAMBLE_LINES);
}

/** The log of one sync run, ending the way the run ended. */
export function taskLogs(
  job: Pick<Job, 'name' | 'source'> & { id?: number },
  start: number,
  status: Outcome | 'Running',
  rand: () => number,
): LogLine[] {
  const lines: LogLine[] = [];
  let t = start;
  const at = (level: string, message: string) => {
    t += Math.floor(rand() * 4000) + 200;
    lines.push({ level, time: iso(t), message });
  };
  at('info', `Starting sync for job ${job.name}`);
  at('debug', `Resolved driver image olakego/source-${job.source.type}`);
  at('info', `Discovering streams of ${job.source.type} source ${job.source.name}`);
  const streams = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < streams; i++) {
    const table = TABLES[Math.floor(rand() * TABLES.length)];
    at('info', `Stream public.${table}: running full refresh in ${1 + Math.floor(rand() * 8)} chunks`);
    at('debug', `Chunk boundaries computed for public.${table}`);
    if (status !== 'Running' || i < streams - 1)
      at('info', `Stream public.${table}: wrote ${Math.floor(rand() * 90_000) + 100} records to Iceberg`);
  }
  if (status === 'Completed') at('info', 'Sync completed; state committed');
  if (status === 'Failed') {
    at('warn', 'Retrying commit after a transient error (1/3)');
    t += Math.floor(rand() * 4000) + 200;
    lines.push(...failedEnd(job.id ?? 0, t));
  }
  if (status === 'Canceled') at('warn', 'Workflow cancellation requested; stopping writers');
  return lines;
}

/**
 * `n` jobs in mixed states, the same for the same seed and clock: one in six never ran, one in five is
 * paused (never while running), and the rest have 1–5 runs whose latest completed, failed, was
 * cancelled or still runs.
 */
export function seedJobs(
  n: number,
  seed = 1,
  now = Date.now(),
  project = '123',
  options: SeedOptions = {},
): EmulatorJob[] {
  const rand = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const jobs: EmulatorJob[] = [];
  for (let i = 0; i < n; i++) {
    const id = i + 1;
    const src = pick(SOURCES);
    const table = pick(TABLES);
    const created = now - (30 + Math.floor(rand() * 60)) * 86_400_000;
    const version = pick(VERSIONS);
    const last = PATTERN[(i + seed) % PATTERN.length] as (typeof PATTERN)[number];
    const job: EmulatorJob = {
      id,
      name: `${src.type}_${table}_${id}`,
      source: {
        id: (i % SOURCES.length) + 1,
        name: src.name,
        type: src.type,
        version,
        config: sourceConfig(src.type, (i % SOURCES.length) + 1),
      },
      destination: {
        id: 1,
        name: 'iceberg-rest',
        type: 'iceberg',
        version,
        config: options.destinationConfig ?? EXAMPLE_DESTINATION,
      },
      frequency: id === LEGACY_FREQUENCY_JOB_ID ? '6-hours' : pick(FREQUENCIES),
      created_at: iso(created),
      updated_at: iso(created + Math.floor(rand() * 86_400_000)),
      activate: !(i % 5 === 2 && last !== 'Running'),
      created_by: 'admin',
      updated_by: 'admin',
      tasks: [],
      stream_count: id === HUGE_JOB_ID ? HUGE_JOB_STREAMS : 1 + ((id * 7) % 8),
    };
    if (rand() < 0.3) job.advanced_settings = { max_discover_threads: 50 };
    if (last !== 'never') {
      const runs = 1 + Math.floor(rand() * 5);
      let start = now - Math.floor(rand() * 6 * 3_600_000) - 60_000;
      for (let r = 0; r < runs; r++) {
        const status: Outcome | 'Running' =
          r === 0 ? last : rand() < 0.2 ? 'Failed' : rand() < 0.05 ? 'Canceled' : 'Completed';
        const logs = taskLogs(job, start, status, rand);
        const end = Date.parse(logs.at(-1)?.time ?? iso(start));
        job.tasks.push({
          runtime: status === 'Running' ? '' : runtime(end - start),
          start_time: iso(start),
          status,
          file_path: workflowId(project, id, new Date(start)),
          job_type: 'sync',
          logs,
        });
        start -= (1 + Math.floor(rand() * 24)) * 3_600_000;
      }
      const latest = job.tasks[0] as EmulatorTask;
      job.last_run_time = latest.start_time;
      job.last_run_state = latest.status;
      job.last_run_type = 'sync';
    }
    jobs.push(job);
  }
  return jobs;
}
