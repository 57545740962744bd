// `floe tables` on Google Cloud Storage, in process: a BigLake-style catalog (Google's jwt-bearer token,
// tables at gs:// locations) over the sandbox's GCS emulator (STORAGE_EMULATOR_HOST). Tables seeded by
// floe's write path through the JSON API; their manifests read back with the profile's service-account
// key give the numbers Apache Avro for Python reads from the same files; a refused or missing file is
// the table's own TABLE_UNREADABLE, diagnosed as the storage check diagnoses Cloud Storage.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CatalogSession, catalogPath } from '../../src/catalog/session.js';
import type { Values } from '../../src/destination/fields.js';
import { type CatalogEmulator, startCatalogEmulator } from '../../src/sandbox/catalog/index.js';
import { type GcsEmulator, startGcsEmulator } from '../../src/sandbox/gcs.js';
import { demoTables, seedTables } from '../../src/sandbox/seed-tables.js';
import { DEFAULT_THRESHOLDS } from '../../src/tables/health.js';
import { listTables, showTable } from '../../src/tables/index.js';
import { openSession } from '../../src/tables/session.js';
import { openWriteStore } from '../../src/write/store.js';
import { readManifestsWithPython, sizeFacts } from './support.js';

const EMAIL = 'olake-biglake@floe-tables.iam.gserviceaccount.com';
const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_KEY = key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC_KEY = key.publicKey.export({ type: 'spki', format: 'pem' }).toString();

let gcs: GcsEmulator;
let catalog: CatalogEmulator;
let values: Values;
let session: CatalogSession;
const nowMs = Date.now();
const NAMES = ['customers', 'orders', 'payments'];

beforeAll(async () => {
  gcs = await startGcsEmulator({
    serviceAccounts: [{ clientEmail: EMAIL, publicKey: PUBLIC_KEY }],
    buckets: [{ name: 'lake', location: 'US' }],
  });
  catalog = await startCatalogEmulator({
    auth: 'bearer',
    trustedTokens: gcs.principalOf,
    dataLocation: 'gs://lake/olake',
  });
  vi.stubEnv('STORAGE_EMULATOR_HOST', gcs.url);
  values = {
    preset: 'biglake',
    authType: 'google',
    storage: 'gcs',
    targetVersion: 'latest',
    fields: {
      catalogUrl: catalog.url,
      warehouse: 'gs://lake/olake',
      gcpServiceAccountJson: JSON.stringify({
        type: 'service_account',
        project_id: 'floe-tables',
        private_key_id: 'key-1',
        private_key: PRIVATE_KEY,
        client_email: EMAIL,
        token_uri: gcs.tokenUrl,
      }),
    },
  };
  const opened = await openSession(values, { signal: new AbortController().signal, timeoutMs: 10_000 });
  if (!('session' in opened)) throw new Error(`no session: ${JSON.stringify(opened.diagnoses)}`);
  session = opened.session;
  // A healthy table, one with equality and position deletes, one whose summaries carry no totals.
  const tables = demoTables(nowMs).filter((t) => NAMES.includes(t.name));
  await seedTables(tables, { values, session, signal: new AbortController().signal });
}, 120_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  await catalog?.close();
  await gcs?.close();
});

const options = () => ({
  values,
  session,
  catalogName: 'biglake',
  thresholds: DEFAULT_THRESHOLDS,
  signal: new AbortController().signal,
  timeoutMs: 10_000,
  now: () => nowMs,
});

/** The table's current manifest list, as the catalog answers it (read without floe's reader). */
async function manifestList(name: string): Promise<string> {
  const url = new URL(catalogPath(session, ['olake_demo'], 'tables', name));
  const res = await fetch(url, { headers: session.headers(url) });
  const { metadata } = (await res.json()) as {
    metadata: {
      'current-snapshot-id': number;
      snapshots: { 'snapshot-id': number; 'manifest-list': string }[];
    };
  };
  return metadata.snapshots.find((s) => s['snapshot-id'] === metadata['current-snapshot-id'])![
    'manifest-list'
  ];
}

/** An object of the emulator's bucket, read directly. */
async function object(url: string): Promise<Uint8Array> {
  const match = /^gs:\/\/lake\/(.+)$/.exec(url);
  const bytes = match && gcs.objects('lake').get(match[1]!);
  if (!bytes) throw new Error(`no object ${url}`);
  return bytes;
}

describe('floe tables on Cloud Storage', () => {
  it('reads gs:// manifests with the service-account key: the numbers Apache Avro for Python reads', async () => {
    const { rows, failures } = await listTables(options());
    expect(failures).toEqual([]);
    expect(rows.map((r) => r.name)).toEqual(NAMES);
    for (const row of rows) {
      const independent = await readManifestsWithPython(object, await manifestList(row.name));
      expect(sizeFacts(row), row.name).toEqual(sizeFacts(independent));
    }
    // customers from its summary; orders (deletes) and payments (no totals) from their gs:// manifests.
    expect(rows.map((r) => r.source)).toEqual(['summary', 'manifests', 'manifests']);
    expect(rows.find((r) => r.name === 'orders')!.problems.map((p) => p.code)).toEqual([
      'TABLE_EQUALITY_DELETES',
      'TABLE_DELETE_RATIO',
    ]);
    // Through the JSON API, as the service account.
    const reads = gcs.requests.filter((r) => r.method === 'GET' && r.query.alt === 'media');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.email === EMAIL && r.status === 200)).toBe(true);
  }, 60_000);

  it('shows a table exactly from its gs:// manifests', async () => {
    const detail = await showTable({ namespace: ['olake_demo'], name: 'customers' }, options());
    if ('problem' in detail) throw new Error(detail.problem);
    const independent = await readManifestsWithPython(object, await manifestList('customers'));
    expect(detail.source).toBe('manifests');
    expect(detail.manifests).toBe(independent.manifests);
    expect(detail.records).toBe(independent.records);
    expect(detail.dataBytes).toBe(independent.dataBytes);
  }, 60_000);

  it('a refused read is the storage check’s diagnosis, a missing file is named; the other tables still list', async () => {
    gcs.deny(EMAIL, 'storage.objects.get');
    try {
      const { rows } = await listTables(options());
      const orders = rows.find((r) => r.name === 'orders')!;
      expect(orders.problems[0]!.code).toBe('TABLE_UNREADABLE');
      // gcs-diagnoses.ts's GCS_PERMISSION_DENIED: the permission the service account lacks.
      expect(orders.problems[0]!.what).toContain('storage.objects.get');
      expect(orders.records).toBeNull();
      // The summary's table needs no file.
      expect(rows.find((r) => r.name === 'customers')!.problems).toEqual([]);
    } finally {
      gcs.allow(EMAIL, 'storage.objects.get');
    }
    const list = await manifestList('payments');
    // Deleted outside Iceberg (through the JSON API as the service account).
    const store = openWriteStore(values, {
      emit: () => {},
      scrubber: session.scrubber,
      timeoutMs: 10_000,
      env: process.env,
    });
    await store.delete('lake', list.replace('gs://lake/', ''), new AbortController().signal);
    await store.close();
    expect(gcs.objects('lake').has(list.replace('gs://lake/', ''))).toBe(false);
    const { rows } = await listTables(options());
    const payments = rows.find((r) => r.name === 'payments')!;
    expect(payments.problems[0]).toMatchObject({ code: 'TABLE_UNREADABLE' });
    expect(payments.problems[0]!.what).toBe(`The file ${list} does not exist (HTTP 404)`);
    expect(rows.find((r) => r.name === 'orders')!.problems[0]!.code).toBe('TABLE_EQUALITY_DELETES');
  }, 60_000);
});
