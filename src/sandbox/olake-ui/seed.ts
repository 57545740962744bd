// Seeded, repeatable jobs for the OLake UI emulator: mixed states (completed, failed, running, never
// ran), paused ones, several cron frequencies, and tasks with log lines for each run.
import type { Job, LogLine, Task } from '../../management/types.js';

export interface EmulatorTask extends Task {
  /** Every line of the run's log, debug lines included (the API filters those out). */
  logs: LogLine[];
}

export interface EmulatorJob extends Job {
  /** Newest first, as Temporal lists workflows. */
  tasks: EmulatorTask[];
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

/** The log of one sync run, ending the way the run ended. */
export function taskLogs(
  job: Pick<Job, 'name' | 'source'>,
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
    at(
      'error',
      'failed to write records: rpc error: code = Internal desc = Failed to process request: ' +
        'org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: token expired',
    );
  }
  if (status === 'Canceled') at('warn', 'Workflow cancellation requested; stopping writers');
  return lines;
}

/**
 * `n` jobs in mixed states, the same for the same seed and clock: one in six never ran, one in five is
 * paused (never while running), and the rest have 1–5 runs whose latest completed, failed, was
 * cancelled or still runs.
 */
export function seedJobs(n: number, seed = 1, now = Date.now(), project = '123'): EmulatorJob[] {
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
      source: { id: (i % SOURCES.length) + 1, name: src.name, type: src.type, version },
      destination: { id: 1, name: 'iceberg-rest', type: 'iceberg', version },
      frequency: pick(FREQUENCIES),
      created_at: iso(created),
      updated_at: iso(created + Math.floor(rand() * 86_400_000)),
      activate: !(i % 5 === 2 && last !== 'Running'),
      created_by: 'admin',
      updated_by: 'admin',
      tasks: [],
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
