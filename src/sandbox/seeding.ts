// The demo tables seeded in the background once the sandbox answers (seed-tables.ts demoTables).
import type { Values } from '../destination/fields.js';
import type { SeededTable } from './seed-tables.js';

/** The background seeding of the demo tables: the tables done so far, and how it ended. */
export interface SandboxTables {
  /** Where OLake writes the seeded streams (SANDBOX_TABLE_NAMESPACE). */
  namespace: string[];
  seeded: SeededTable[];
  /** Settles when every table is seeded, the seeding failed (`error`) or the sandbox stopped. */
  done: Promise<{ error?: string }>;
}

/**
 * The namespace of the seeded tables: OLake writes a stream to its `destination_database`, else the
 * writer's `iceberg_db`, else the stream's own namespace (datazip-inc/olake types/stream_configured.go
 * GetDestinationDatabase), and names the table after the stream (GetDestinationTable). The emulator's
 * streams (olake-ui/seed.ts streamsConfig) carry neither and the sandbox destination no iceberg_db, so
 * the jobs' streams `public.orders`, `public.events`… land in `public`.
 */
export const SANDBOX_TABLE_NAMESPACE = ['public'];

/** Seeds the demo tables through the sandbox's own profile, the seeded list growing as it goes. */
export function seedInBackground(values: Values, stops: (() => Promise<void>)[]): SandboxTables {
  const abort = new AbortController();
  const seeded: SeededTable[] = [];
  const done = (async (): Promise<{ error?: string }> => {
    try {
      const [{ openSession }, { demoTables, seedTables }] = await Promise.all([
        import('../tables/session.js'),
        import('./seed-tables.js'),
      ]);
      const opened = await openSession(values, { signal: abort.signal, timeoutMs: 10_000 });
      if (abort.signal.aborted) return {};
      if (!('session' in opened))
        return { error: opened.diagnoses.map((d) => d.what).join('; ') || 'no catalog session' };
      const opts = { values, session: opened.session, signal: abort.signal };
      for (const table of demoTables(Date.now(), SANDBOX_TABLE_NAMESPACE)) {
        if (abort.signal.aborted) break;
        seeded.push(...(await seedTables([table], opts)));
      }
      return {};
    } catch (error) {
      return abort.signal.aborted ? {} : { error: error instanceof Error ? error.message : String(error) };
    }
  })();
  stops.push(async () => {
    abort.abort();
    await done;
  });
  return { namespace: SANDBOX_TABLE_NAMESPACE, seeded, done };
}
