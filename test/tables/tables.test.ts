// `floe tables` against the sandbox's catalog with tables written by floe's own write path: every
// number equals an independent read (Apache Avro for Python over the manifests, icebird over the
// rows), from a summary or from the manifests; each problem code fires on its fixture and not on the
// healthy table; `show` reads exactly from the manifests.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Writer, writerFor } from '../../src/cli/output.js';
import { type JobTablesDeps, prepareJobTables } from '../../src/commands/jobs-tables.js';
import { execute, type IO, parse } from '../../src/commands/tables.js';
import type { JobDetail } from '../../src/management/types.js';
import { seedTables } from '../../src/sandbox/seed-tables.js';
import { DEFAULT_THRESHOLDS } from '../../src/tables/health.js';
import { listTables, showTable, type TableRow } from '../../src/tables/index.js';
import { type ObjectReader, objectReader } from '../../src/tables/objects.js';
import { openSession } from '../../src/tables/session.js';
import { readIcebergTable } from '../support/iceberg-reader.js';
import {
  DEMO_TABLE_NAMES,
  deleteObject,
  getObject,
  putObject,
  readWithPython,
  sizeFacts,
  startWorld,
  type World,
} from './support.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
}, 240_000);
afterAll(async () => {
  world?.s3.destroy();
  await world?.sandbox.stop();
});

const options = () => ({
  values: world.values,
  session: world.session,
  catalogName: 'olake',
  thresholds: DEFAULT_THRESHOLDS,
  signal: new AbortController().signal,
  timeoutMs: 10_000,
  now: () => world.nowMs,
});

let rows: TableRow[];
const row = (name: string) => rows.find((r) => r.name === name)!;
const codes = (name: string) => row(name).problems.map((p) => p.code);

describe('floe tables', () => {
  beforeAll(async () => {
    ({ rows } = await listTables(options()));
  }, 60_000);

  it('lists every seeded table, each with the numbers an independent read of its files gives', async () => {
    expect(rows.map((r) => r.name)).toEqual(DEMO_TABLE_NAMES);
    for (const seeded of world.seeded) {
      const independent = await readWithPython(world, seeded.metadataLocation);
      const r = row(seeded.name);
      expect(sizeFacts(r), seeded.name).toEqual(sizeFacts(independent));
      expect(r.avgDataFileBytes).toBe(Math.floor(independent.dataBytes / independent.dataFiles));
    }
  }, 120_000);

  it('takes the summary where it is complete, else the manifests', () => {
    expect(row('customers').source).toBe('summary');
    expect(row('sessions').source).toBe('summary');
    expect(row('orders').source).toBe('manifests');
    expect(row('payments').source).toBe('manifests');
    expect(row('sessions').snapshots).toBe(110);
  });

  it('counts the rows icebird reads for the tables without deletes', async () => {
    for (const name of ['customers', 'payments']) {
      const seeded = world.seeded.find((t) => t.name === name)!;
      const read = await readIcebergTable({
        metadataLocation: seeded.metadataLocation,
        s3: {
          endpoint: world.sandbox.s3.url,
          region: 'us-east-1',
          accessKeyId: world.sandbox.s3.accessKey,
          secretAccessKey: world.sandbox.s3.secretKey,
        },
      });
      expect(read.length, name).toBe(row(name).records);
    }
  }, 60_000);

  it('fires each problem code on its fixture and none on the healthy table', () => {
    expect(codes('customers')).toEqual([]);
    expect(codes('events')).toEqual(['TABLE_SMALL_FILES']);
    expect(codes('orders')).toEqual(['TABLE_EQUALITY_DELETES', 'TABLE_DELETE_RATIO']);
    expect(codes('sessions')).toEqual(['TABLE_SMALL_FILES', 'TABLE_MANY_SNAPSHOTS', 'TABLE_OLD_SNAPSHOTS']);
    expect(codes('invoices')).toEqual(['TABLE_STALE']);
    expect(codes('payments')).toEqual([]);
  });

  it('shows one table exactly from its manifests', async () => {
    for (const seeded of world.seeded) {
      const detail = await showTable({ namespace: seeded.namespace, name: seeded.name }, options());
      if ('problem' in detail) throw new Error(detail.problem);
      const independent = await readWithPython(world, seeded.metadataLocation);
      expect(detail.source).toBe('manifests');
      expect(detail.manifests, seeded.name).toBe(independent.manifests);
      expect(detail.records).toBe(independent.records);
      expect(detail.dataBytes).toBe(independent.dataBytes);
      expect(detail.deleteFiles).toEqual(independent.deleteFiles);
      expect(detail.histogram.reduce((n, b) => n + b.files, 0)).toBe(independent.dataFiles);
      expect(detail.snapshotLog).toHaveLength(row(seeded.name).snapshots!);
    }
  }, 120_000);
});

describe('a job’s tables', () => {
  /** A job writing olake_demo.customers (last committed 2 h before the world's now) on `frequency`. */
  const job = (frequency: string): JobDetail => ({
    id: 7,
    name: 'customers sync',
    source: { name: 'pg', type: 'postgres' },
    destination: {
      name: 'lake',
      type: 'iceberg',
      config: JSON.stringify({ writer: { iceberg_db: 'olake_demo' } }),
    },
    frequency,
    activate: true,
    streams: {
      bytes: 100,
      selected: 1,
      config: JSON.stringify({ selected_streams: { public: [{ stream_name: 'customers' }] }, streams: [] }),
    },
  });
  /** The job's tables read an hour after the world's now: customers' last commit is 3 h old. */
  const customers = async (frequency: string) => {
    const source = await prepareJobTables(job(frequency), {
      prepare: async () =>
        ({ values: world.values, profile: 'sandbox' }) as Awaited<ReturnType<JobTablesDeps['prepare']>>,
      env: process.env,
      now: () => world.nowMs + 3_600_000,
    });
    if ('problem' in source) throw new Error(source.problem);
    const { rows: listed } = await source.list(() => {}, new AbortController().signal);
    expect(listed.map((r) => r.name)).toEqual(['customers']);
    return listed[0]!;
  };

  it('is stale after the job’s period (plus slack): hourly, 3 h without a commit is stale; daily is not', async () => {
    const hourly = await customers('0 * * * *');
    expect(hourly.problems.map((p) => p.code)).toEqual(['TABLE_STALE']);
    expect(hourly.problems[0]!.what).toBe(
      'no commit for 3 h, longer than the job’s period of 1 h and its slack (2 h)',
    );
    expect((await customers('0 0 * * *')).problems).toEqual([]);
    // Without a schedule floe knows, the profile's rule (24 h) holds.
    expect((await customers('')).problems).toEqual([]);
  }, 60_000);
});

/** Output written to a Writer, as text. */
function capture(): { writer: Writer; text: () => string } {
  const chunks: string[] = [];
  return { writer: writerFor({ write: (s: string) => chunks.push(s) > 0 }), text: () => chunks.join('') };
}

function io(extra: Partial<IO> = {}): { io: IO; out: () => string; err: () => string } {
  const out = capture();
  const err = capture();
  return {
    out: out.text,
    err: err.text,
    io: {
      out: out.writer,
      err: err.writer,
      profile: async () => ({ name: 'sandbox', values: world.values }),
      session: async () => ({ session: world.session }),
      now: () => world.nowMs,
      signal: new AbortController().signal,
      ...extra,
    },
  };
}

describe('the command, in process', () => {
  it('prints {tables: […]} with --json, numbers as numbers and the source', async () => {
    const run = io();
    expect(await execute(parse(['--json', '--namespace', 'olake_demo']), run.io)).toBe(0);
    const { tables } = JSON.parse(run.out()) as { tables: TableRow[] };
    const orders = tables.find((t) => t.name === 'orders')!;
    expect(orders).toMatchObject({
      namespace: ['olake_demo'],
      formatVersion: 2,
      snapshots: 2,
      source: 'manifests',
      deleteFiles: { position: 2, equality: 3 },
      deleteRows: { position: 10, equality: 30 },
    });
    expect(typeof orders.dataBytes).toBe('number');
    expect(orders.problems.map((p) => Object.keys(p).sort())).toContainEqual([
      'code',
      'maintenance',
      'remedy',
      'what',
    ]);
  });

  it('prints aligned rows and the problems without --json; a threshold silences one', async () => {
    const run = io();
    expect(await execute(parse([]), run.io)).toBe(0);
    const lines = run.out().split('\n');
    expect(lines[0]).toMatch(
      /^TABLE\s+LAST COMMIT\s+SNAPS\s+RECORDS\s+FILES\s+AVG FILE\s+DEL P\/E\s+PROBLEMS$/,
    );
    expect(lines.find((l) => l.startsWith('olake_demo.orders '))).toMatch(
      /\s2\/3\s+EQUALITY_DELETES,DELETE_RATIO$/,
    );
    expect(run.out()).toContain('olake_demo.invoices: TABLE_STALE no commit for 9 days');
    const quiet = io();
    await execute(parse(['--threshold', 'stale-hours=1000']), quiet.io);
    expect(quiet.out()).not.toContain('TABLE_STALE');
  });

  it('shows a table with its maintenance lines', async () => {
    const run = io();
    expect(await execute(parse(['show', 'olake_demo.sessions']), run.io)).toBe(0);
    expect(run.out()).toContain('Snapshots   110');
    expect(run.out()).toContain('(the last 50 of 110; --json has them all)');
    // The export's catalog name for the sandbox profile.
    expect(run.out()).toContain("CALL olake_iceberg.system.expire_snapshots(table => 'olake_demo.sessions'");
    const missing = io();
    expect(await execute(parse(['show', 'olake_demo.nothing']), missing.io)).toBe(1);
    expect(missing.err()).toMatch(/Could not load olake_demo\.nothing: .*404/);
  });

  it('on a terminal, says how far it read: a line a second at most, and the last one', async () => {
    const chunks: string[] = [];
    const err = writerFor({ write: (text: string) => chunks.push(text) > 0, isTTY: true, columns: 80 });
    const run = io({ err });
    expect(await execute(parse(['show', 'olake_demo.sessions']), run.io)).toBe(0);
    const lines = chunks
      .join('')
      .split('\n')
      .filter((l) => l.startsWith('Reading manifests:'));
    const total = Number(/of (\d+)$/.exec(lines.at(-1) ?? '')?.[1]);
    expect(total).toBeGreaterThanOrEqual(110);
    expect(lines.at(-1)).toBe(`Reading manifests: ${total} of ${total}`);
    // One line per manifest (110 here) before; now the first, one a second, and the last.
    expect(lines.length).toBeLessThan(total / 2);
  });

  it('fails with the catalog check’s diagnoses when the catalog cannot be read', async () => {
    const diagnosis = {
      code: 'CATALOG_DNS',
      step: 'catalog.connect',
      what: 'no host',
      cause: 'c',
      remedy: 'r',
      evidence: {},
    };
    const run = io({ session: async () => ({ diagnoses: [diagnosis] }) });
    expect(await execute(parse([]), run.io)).toBe(1);
    expect(run.err()).toContain('CATALOG_DNS: no host');
  });
});

describe('many, nested and hostile tables', () => {
  beforeAll(async () => {
    const empty = (name: string, namespace: string[]) => ({ namespace, name, commits: [] });
    await seedTables(
      [
        ...Array.from({ length: 105 }, (_, i) => empty(`t${String(i).padStart(3, '0')}`, ['many'])),
        {
          namespace: ['many', 'inner'],
          name: 'deep',
          commits: [{ files: 1, rows: 2, timestampMs: world.nowMs }],
        },
      ],
      { values: world.values, session: world.session, signal: new AbortController().signal },
    );
  }, 240_000);

  it('follows every page of tables and the nested namespaces', async () => {
    const { rows: many, failures } = await listTables({ ...options(), namespace: ['many'] });
    expect(failures).toEqual([]);
    expect(many).toHaveLength(106);
    expect(many.at(0)).toMatchObject({ namespace: ['many'], name: 't000', snapshots: 0, records: 0 });
    expect(many.find((r) => r.name === 'deep')).toMatchObject({ namespace: ['many', 'inner'], records: 2 });
  }, 60_000);

  it('never has more than 16 requests in flight (catalog and object store together)', async () => {
    // A counting catalog: every request forwarded to the sandbox's after 20 ms, the most open at once kept.
    let open = 0;
    let most = 0;
    const enter = () => {
      open++;
      most = Math.max(most, open);
    };
    const target = new URL(world.values.fields.catalogUrl as string);
    const server = createServer(async (req, res) => {
      enter();
      try {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const upstream = await fetch(new URL(req.url!, target.origin), {
          method: req.method!,
          headers: Object.fromEntries(
            Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && k !== 'host'),
          ) as Record<string, string>,
        });
        const body = Buffer.from(await upstream.arrayBuffer());
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? '' });
        res.end(body);
      } finally {
        open--;
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const values = {
      ...world.values,
      fields: { ...world.values.fields, catalogUrl: `http://127.0.0.1:${port}${target.pathname}` },
    };
    const opened = await openSession(values, { signal: new AbortController().signal, timeoutMs: 10_000 });
    if (!('session' in opened)) throw new Error(JSON.stringify(opened.diagnoses));
    const store = objectReader({
      values,
      emit: () => {},
      scrubber: opened.session.scrubber,
      timeoutMs: 10_000,
      env: process.env,
    });
    const reader: ObjectReader = {
      read: async (url, signal) => {
        enter();
        try {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return await store.read(url, signal);
        } finally {
          open--;
        }
      },
      close: () => store.close(),
    };
    try {
      most = 0;
      const { rows: all } = await listTables({ ...options(), values, session: opened.session, reader });
      expect(all.length).toBe(112);
      expect(all.find((r) => r.name === 'orders')!.source).toBe('manifests');
      expect(most).toBe(16);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it('gives a broken table its own problem and still lists the others', async () => {
    const byName = Object.fromEntries(world.seeded.map((t) => [t.name, t]));
    const listOf = async (name: string) => {
      const metadata = JSON.parse(
        Buffer.from(await getObject(world, byName[name]!.metadataLocation)).toString(),
      );
      return metadata.snapshots.at(-1)['manifest-list'] as string;
    };
    // orders: its manifest list replaced by junk; payments (no totals): its manifest list deleted.
    await putObject(world, await listOf('orders'), new TextEncoder().encode('\u001b]52;c;junk'.repeat(1000)));
    await deleteObject(world, await listOf('payments'));
    const { rows: after } = await listTables({ ...options(), namespace: ['olake_demo'] });
    const problem = (name: string) => after.find((r) => r.name === name)!.problems[0]!;
    expect(problem('orders').code).toBe('TABLE_UNREADABLE');
    expect(problem('orders').what).toMatch(/is not a readable manifest: invalid magic bytes/);
    expect(problem('payments')).toMatchObject({ code: 'TABLE_UNREADABLE' });
    expect(problem('payments').what).toMatch(/does not exist \(HTTP 404\)/);
    expect(after.find((r) => r.name === 'orders')!.records).toBeNull();
    expect(after.find((r) => r.name === 'customers')!.problems).toEqual([]);
    expect(after).toHaveLength(6);
  }, 60_000);
});
