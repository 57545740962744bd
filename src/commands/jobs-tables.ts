// A job's tables on the tables screen (b in a job's detail of the jobs browser): the job's selected
// streams named as OLake names their tables (management/streams.ts), read through the job's destination
// with a local profile's secrets, as `floe jobs test` prepares it. A stream whose table the catalog does
// not have yet is listed too, never committed: next to the job's last run, a run that wrote nothing shows.

import { DEFAULT_TIMEOUT_SECONDS } from '../app/timeout.js';
import type { CatalogSession } from '../catalog/session.js';
import { parseWriter } from '../management/jobtest.js';
import type { PreparedJobTest, SecretsToType } from '../management/jobtest-prepare.js';
import { cronPeriodMs } from '../management/schedule.js';
import { streamTables } from '../management/streams.js';
import { serverText } from '../management/text.js';
import type { JobDetail } from '../management/types.js';
import { DEFAULT_THRESHOLDS } from '../tables/health.js';
import type { TableRow } from '../tables/index.js';
import { ageText, tableName } from '../tables/text.js';
import type { TablesSource } from '../ui/tables/useTables.js';
import { catalogSource } from './tables.js';

/** The job's last run in a few words: "last run 3 h ago (Completed)". */
function lastRun(job: JobDetail, nowMs: number): string {
  const at = job.last_run_time ? Date.parse(job.last_run_time) : Number.NaN;
  if (Number.isNaN(at)) return 'never ran';
  return `last run ${ageText(at, nowMs)}${job.last_run_state ? ` (${job.last_run_state})` : ''}`;
}

export interface JobTablesDeps {
  /** The job's destination with a local profile's secrets, as `floe jobs test` prepares it. */
  prepare: (job: JobDetail) => Promise<PreparedJobTest | SecretsToType>;
  /** The command's environment (io.env): the catalog's and the object store's proxies. */
  env: NodeJS.ProcessEnv;
  now?: () => number;
}

/** The job's tables as the screen's source, or why they cannot be shown. */
export async function prepareJobTables(
  job: JobDetail,
  deps: JobTablesDeps,
): Promise<TablesSource | { problem: string }> {
  const config = job.streams?.config;
  if (config === undefined)
    return {
      problem: job.streams?.bytes
        ? `The job’s streams_config is too large to name its tables (${job.streams.selected} streams); see them with floe tables`
        : 'The OLake UI sent no streams_config for this job',
    };
  let wanted: ReturnType<typeof streamTables>;
  let icebergDb: unknown;
  try {
    icebergDb = parseWriter(job.destination.config).iceberg_db;
    wanted = streamTables(config, typeof icebergDb === 'string' ? icebergDb : undefined);
  } catch (error) {
    return { problem: (error as Error).message };
  }
  const prepared = await deps.prepare(job);
  if ('missing' in prepared)
    return {
      problem: `Reading its tables needs ${prepared.missing.map((m) => m.label).join(', ')}: no local profile of its catalog has them (press t to test it with them typed)`,
    };
  const [{ catalogName }, { listTables, unknownRow }, { openSession }] = await Promise.all([
    import('../export/engines.js'),
    import('../tables/index.js'),
    import('../tables/session.js'),
  ]);
  const timeoutMs = DEFAULT_TIMEOUT_SECONDS * 1000;
  const values = prepared.values;
  const now = deps.now ?? Date.now;
  // "Stale" for the job's tables: no commit for longer than its schedule's period (plus slack).
  const period = cronPeriodMs(job.frequency);
  const names = new Set(wanted.map((t) => tableName(t)));
  let opening: Promise<CatalogSession> | undefined;
  const session = (signal: AbortSignal) => {
    opening ??= openSession(values, { signal, timeoutMs, env: deps.env }).then((opened) => {
      if ('session' in opened) return opened.session;
      throw new Error(opened.diagnoses.map((d) => d.what).join('; ') || 'the catalog could not be read');
    });
    // A failed opening is tried again on the next read (R).
    opening.catch(() => {
      opening = undefined;
    });
    return opening;
  };
  return catalogSource(
    {
      values,
      catalogName: catalogName(values),
      thresholds: DEFAULT_THRESHOLDS,
      timeoutMs,
      now,
      ...(period ? { expectedPeriodMs: period } : {}),
    },
    session,
    serverText(`Tables of job ${job.name} #${job.id}`),
    serverText(
      `${wanted.length} streams, ${lastRun(job, now())}${prepared.profile ? `; secrets of profile "${prepared.profile}"` : ''}`,
    ),
    async (opts) => {
      const rows: TableRow[] = [];
      const warnings: string[] = [];
      const namespaces = new Map(wanted.map((t) => [JSON.stringify(t.namespace), t.namespace]));
      for (const namespace of namespaces.values()) {
        const listed = await listTables({
          ...opts,
          namespace,
          onRow: (row) => {
            if (names.has(tableName(row))) opts.onRow?.(row);
          },
        });
        rows.push(...listed.rows.filter((row) => names.has(tableName(row))));
        warnings.push(...listed.failures.map((f) => f.what));
      }
      const found = new Set(rows.map((row) => tableName(row)));
      for (const table of wanted)
        if (!found.has(tableName(table))) {
          const row = unknownRow({ namespace: table.namespace, name: table.name }, []);
          rows.push(row);
          opts.onRow?.(row);
        }
      return { rows, warnings };
    },
  );
}
