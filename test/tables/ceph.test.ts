// `floe tables` on a real Ceph RGW (which verifies SigV4): OLake-shaped tables written by floe's own
// write path (the sandbox seeding: Parquet data files, Avro manifests, commits through a Polaris-style
// catalog whose metadata files go to RGW), then read back by `floe tables` with the profile's keys.
// Every number equals an independent read: Apache Avro for Python over the manifest list and manifests
// for files, bytes and deletes, icebird over the rows of the tables without deletes. The tables: a
// healthy one, one with many small files, one with equality and position deletes, one with 110
// snapshots, a stale one and one whose summaries carry no totals.
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Values } from '../../src/destination/fields.js';
import { fillFromPreset } from '../../src/destination/presets.js';
import { normalize } from '../../src/destination/schema.js';
import {
  type CatalogEmulator,
  DEFAULT_WAREHOUSES,
  startCatalogEmulator,
} from '../../src/sandbox/catalog/index.js';
import { demoTables, type SeededTable, seedTables } from '../../src/sandbox/seed-tables.js';
import { DEFAULT_THRESHOLDS } from '../../src/tables/health.js';
import { listTables, showTable, type TableRow } from '../../src/tables/index.js';
import { openSession } from '../../src/tables/session.js';
import { cephFromEnv, createCephBucket } from '../support/ceph.js';
import { pythonAvroStatus, readIcebergTable } from '../support/iceberg-reader.js';
import { itWithService } from '../support/services.js';
import { DEMO_TABLE_NAMES, readManifestsWithPython, sizeFacts } from './support.js';

const { status, info } = cephFromEnv();
const python = pythonAvroStatus();
const it = itWithService(
  status === 'ready' && python !== 'ready' ? python : status,
  'Ceph RGW and python3-avro',
);
const BUCKET = 'floe-tables';
const CLIENT = { id: 'olake-client', secret: 'SENTINEL-tables-secret-5b2c' };

let catalog: CatalogEmulator | undefined;
let values: Values;
let seeded: SeededTable[] = [];
let rows: TableRow[] = [];
const nowMs = Date.now();
const options = (session: Awaited<ReturnType<typeof sessionOf>>) => ({
  values,
  session,
  catalogName: 'olake',
  thresholds: DEFAULT_THRESHOLDS,
  signal: new AbortController().signal,
  timeoutMs: 20_000,
  now: () => nowMs,
});

async function sessionOf(v: Values) {
  const opened = await openSession(v, { signal: new AbortController().signal, timeoutMs: 20_000 });
  if (!('session' in opened)) throw new Error(`no session: ${JSON.stringify(opened.diagnoses)}`);
  return opened.session;
}

function s3(): S3Client {
  return new S3Client({
    region: info!.region,
    endpoint: info!.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: info!.users.owner.accessKey, secretAccessKey: info!.users.owner.secretKey },
  });
}

async function read(url: string): Promise<Uint8Array> {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
  const client = s3();
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: match?.[1], Key: match?.[2] }));
    return (await out.Body?.transformToByteArray()) ?? new Uint8Array();
  } finally {
    client.destroy();
  }
}

/** The manifest list of the table's current snapshot, from its metadata file on RGW. */
async function manifestList(metadataLocation: string): Promise<string> {
  const metadata = JSON.parse(Buffer.from(await read(metadataLocation)).toString('utf8'));
  return metadata.snapshots.find(
    (s: { 'snapshot-id': number }) => s['snapshot-id'] === metadata['current-snapshot-id'],
  )['manifest-list'];
}

beforeAll(async () => {
  if (!info || python !== 'ready') return;
  await createCephBucket(info, BUCKET);
  const dataLocation = `s3://${BUCKET}/olake`;
  catalog = await startCatalogEmulator({
    flavour: 'polaris',
    basePath: '/api/catalog',
    auth: 'bearer',
    clients: [CLIENT],
    dataLocation,
    objectStore: {
      endpoint: info.endpoint,
      region: info.region,
      accessKeyId: info.users.owner.accessKey,
      secretAccessKey: info.users.owner.secretKey,
    },
  });
  values = normalize(
    fillFromPreset({
      preset: 'polaris',
      authType: 'oauth2',
      storage: 's3-compatible',
      targetVersion: 'latest',
      fields: {
        catalogUrl: catalog.url,
        warehouse: DEFAULT_WAREHOUSES.polaris,
        dataLocation,
        region: info.region,
        credential: `${CLIENT.id}:${CLIENT.secret}`,
        s3Endpoint: info.endpoint,
        accessKey: info.users.owner.accessKey,
        secretKey: info.users.owner.secretKey,
      },
    }),
  );
  const session = await sessionOf(values);
  seeded = await seedTables(demoTables(nowMs), { values, session, signal: new AbortController().signal });
  ({ rows } = await listTables(options(session)));
}, 600_000);
afterAll(async () => {
  await catalog?.close();
});

describe('floe tables on Ceph RGW', () => {
  it('lists the tables floe wrote with the numbers Apache Avro for Python reads from RGW', async () => {
    expect(rows.map((r) => r.name)).toEqual(DEMO_TABLE_NAMES);
    for (const table of seeded) {
      const independent = await readManifestsWithPython(read, await manifestList(table.metadataLocation));
      const row = rows.find((r) => r.name === table.name)!;
      expect(sizeFacts(row), table.name).toEqual(sizeFacts(independent));
    }
    expect(rows.find((r) => r.name === 'sessions')!.snapshots).toBe(110);
    expect(rows.find((r) => r.name === 'orders')!.source).toBe('manifests');
    expect(rows.find((r) => r.name === 'payments')!.source).toBe('manifests');
    expect(rows.find((r) => r.name === 'customers')!.problems).toEqual([]);
    expect(rows.find((r) => r.name === 'orders')!.problems.map((p) => p.code)).toEqual([
      'TABLE_EQUALITY_DELETES',
      'TABLE_DELETE_RATIO',
    ]);
  }, 300_000);

  it('counts the rows icebird reads from RGW for the tables without deletes', async () => {
    for (const name of ['customers', 'events', 'payments', 'sessions']) {
      const table = seeded.find((t) => t.name === name)!;
      const read = await readIcebergTable({
        metadataLocation: table.metadataLocation,
        s3: {
          endpoint: info!.endpoint,
          region: info!.region,
          accessKeyId: info!.users.owner.accessKey,
          secretAccessKey: info!.users.owner.secretKey,
        },
      });
      expect(read.length, name).toBe(rows.find((r) => r.name === name)!.records);
    }
  }, 300_000);

  it('shows a table exactly from its manifests on RGW', async () => {
    const session = await sessionOf(values);
    const orders = seeded.find((t) => t.name === 'orders')!;
    const detail = await showTable({ namespace: orders.namespace, name: 'orders' }, options(session));
    if ('problem' in detail) throw new Error(detail.problem);
    const independent = await readManifestsWithPython(read, await manifestList(orders.metadataLocation));
    expect(detail.manifests).toBe(independent.manifests);
    expect(detail.deleteFiles).toEqual(independent.deleteFiles);
    expect(detail.histogram.reduce((n, b) => n + b.files, 0)).toBe(independent.dataFiles);
  }, 300_000);
});
