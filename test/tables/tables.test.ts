// `floe tables` against the sandbox's catalog with tables written by floe's own write path: every
// number equals an independent read (Apache Avro for Python over the manifests, icebird over the
// rows), from a summary or from the manifests; each problem code fires on its fixture and not on the
// healthy table; `show` reads exactly from the manifests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../../src/tables/health.js';
import { listTables, showTable, type TableRow } from '../../src/tables/index.js';
import { readIcebergTable } from '../support/iceberg-reader.js';
import { readWithPython, startWorld, type World } from './support.js';

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
    expect(rows.map((r) => r.name)).toEqual([
      'customers',
      'events',
      'invoices',
      'orders',
      'page_views',
      'payments',
    ]);
    for (const seeded of world.seeded) {
      const independent = await readWithPython(world, seeded.metadataLocation);
      const r = row(seeded.name);
      expect(
        {
          records: r.records,
          dataFiles: r.dataFiles,
          dataBytes: r.dataBytes,
          deleteFiles: r.deleteFiles,
          deleteRows: r.deleteRows,
        },
        seeded.name,
      ).toEqual({
        records: independent.records,
        dataFiles: independent.dataFiles,
        dataBytes: independent.dataBytes,
        deleteFiles: independent.deleteFiles,
        deleteRows: independent.deleteRows,
      });
      expect(r.avgDataFileBytes).toBe(Math.floor(independent.dataBytes / independent.dataFiles));
    }
  }, 120_000);

  it('takes the summary where it is complete, else the manifests', () => {
    expect(row('customers').source).toBe('summary');
    expect(row('page_views').source).toBe('summary');
    expect(row('orders').source).toBe('manifests');
    expect(row('payments').source).toBe('manifests');
    expect(row('page_views').snapshots).toBe(150);
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
    expect(codes('page_views')).toEqual(['TABLE_SMALL_FILES', 'TABLE_MANY_SNAPSHOTS', 'TABLE_OLD_SNAPSHOTS']);
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
