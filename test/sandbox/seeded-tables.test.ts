// The demo tables `floe sandbox` seeds in the background: the sandbox answers before they exist, they
// appear one by one under the namespace OLake writes the jobs' streams to, each named after a stream
// the seeded jobs select, and stopping the sandbox mid-seeding ends it at once. Without the option
// (every other test's startSandbox) nothing is seeded.
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_TABLE_NAMESPACE, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { streamsConfig } from '../../src/sandbox/olake-ui/seed.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { DEFAULT_THRESHOLDS } from '../../src/tables/health.js';
import { listTables } from '../../src/tables/index.js';
import { openSession } from '../../src/tables/session.js';

const started: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

async function sandbox(tables: boolean): Promise<Sandbox> {
  const s = await startSandbox({
    catalog: 'polaris',
    jobs: 8,
    tables,
    ports: { catalog: 0, olake: 0, s3: 0 },
  });
  started.push(s);
  return s;
}

function values(s: Sandbox) {
  const { catalog, s3 } = s;
  return sandboxProfile({
    flavour: 'polaris',
    facts: catalog.facts,
    catalogUrl: catalog.url,
    tokenUrl: catalog.tokenUrl,
    s3,
  });
}

describe('the sandbox seeds OLake-shaped tables', () => {
  it('answers at once, then has a table per demo stream, named as OLake names them', async () => {
    const s = await sandbox(true);
    expect(s.tables).toBeDefined();
    // Started, not seeded: the 110-snapshot table alone takes seconds.
    expect(s.tables!.seeded.length).toBeLessThan(6);
    const v = values(s);
    const opened = await openSession(v, { signal: new AbortController().signal, timeoutMs: 10_000 });
    if (!('session' in opened)) throw new Error(JSON.stringify(opened.diagnoses));
    expect(await s.tables!.done).toEqual({});
    expect(s.tables!.seeded.map((t) => t.name)).toEqual([
      'customers',
      'events',
      'orders',
      'sessions',
      'invoices',
      'payments',
    ]);
    const { rows } = await listTables({
      values: v,
      session: opened.session,
      catalogName: 'olake',
      thresholds: DEFAULT_THRESHOLDS,
      signal: new AbortController().signal,
      timeoutMs: 10_000,
      now: () => Date.now(),
      namespace: SANDBOX_TABLE_NAMESPACE,
    });
    expect(rows.map((r) => `${r.namespace.join('.')}.${r.name}`).sort()).toEqual(
      s.tables!.seeded.map((t) => `public.${t.name}`).sort(),
    );
    // Each is a stream some seeded job selects, in the stream's own namespace (no destination_database,
    // no iceberg_db: OLake's GetDestinationDatabase falls back to the stream's namespace).
    const streams = new Set(
      s.olake.emulator.jobs.flatMap((job) => {
        const config = JSON.parse(streamsConfig(job)) as {
          streams: { stream: { name: string; namespace: string } }[];
        };
        return config.streams.map(({ stream }) => `${stream.namespace}.${stream.name}`);
      }),
    );
    for (const row of rows) expect(streams).toContain(`${row.namespace.join('.')}.${row.name}`);
  }, 120_000);

  it('stops mid-seeding without waiting for the rest', async () => {
    const s = await sandbox(true);
    const begun = Date.now();
    await s.stop();
    expect(await s.tables!.done).toEqual({});
    expect(s.tables!.seeded.length).toBeLessThan(6);
    expect(Date.now() - begun).toBeLessThan(10_000);
  }, 60_000);

  it('seeds nothing unless asked', async () => {
    const s = await sandbox(false);
    expect(s.tables).toBeUndefined();
  });
});
