// The write check on Google Cloud Storage, in process: a BigLake-style catalog (Google's jwt-bearer token,
// tables at gs:// locations) over the sandbox's GCS emulator (STORAGE_EMULATOR_HOST). It writes, reads
// back and removes its files through the JSON API with the profile's service-account key; a refusal is
// GCS's own diagnosis; and the safety rules hold as on S3 (a catalog naming another object as metadata:
// that object stays, named with a `gcloud storage rm` hint; a location that already holds objects gets
// nothing written).
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WriteOptions } from '../../src/check/chain.js';
import { memoryJournal, type WriteRecord, writeScope } from '../../src/check/journal.js';
import type { CheckReport } from '../../src/check/types.js';
import { runCheck } from '../../src/connection/run.js';
import type { Values } from '../../src/destination/fields.js';
import { type CatalogEmulator, startCatalogEmulator } from '../../src/sandbox/catalog/index.js';
import { type GcsEmulator, startGcsEmulator } from '../../src/sandbox/gcs.js';
import { type CatalogProxy, rewriteTable, startCatalogProxy } from '../support/catalog-proxy.js';

const EMAIL = 'olake-biglake@floe-write.iam.gserviceaccount.com';
const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_KEY = key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC_KEY = key.publicKey.export({ type: 'spki', format: 'pem' }).toString();

const PRECIOUS = ['precious/orders.parquet', 'olake/test_olake/keep.txt'];

let gcs: GcsEmulator;
let catalog: CatalogEmulator;
let proxy: CatalogProxy;

beforeEach(async () => {
  gcs = await startGcsEmulator({
    serviceAccounts: [{ clientEmail: EMAIL, publicKey: PUBLIC_KEY }],
    buckets: [{ name: 'lake', location: 'US' }, { name: 'other' }],
    projects: ['floe-billing'],
  });
  // BigLake's REST catalog takes the token Google's one token endpoint issues for Cloud Storage too.
  catalog = await startCatalogEmulator({
    auth: 'bearer',
    trustedTokens: gcs.principalOf,
    dataLocation: 'gs://lake/olake',
  });
  proxy = await startCatalogProxy(catalog.url);
  for (const name of PRECIOUS) gcs.seed('lake', name, `not floe's: ${name}`);
  gcs.seed('other', 'orders.parquet', 'not floe’s either');
  vi.stubEnv('STORAGE_EMULATOR_HOST', gcs.url);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await proxy.close();
  await catalog.close();
  await gcs.close();
});

function values(): Values {
  return {
    preset: 'biglake',
    authType: 'google',
    storage: 'gcs',
    targetVersion: 'latest',
    fields: {
      catalogUrl: proxy.url,
      warehouse: 'gs://lake/olake',
      gcpServiceAccountJson: JSON.stringify({
        type: 'service_account',
        project_id: 'floe-write',
        private_key_id: 'key-1',
        private_key: PRIVATE_KEY,
        client_email: EMAIL,
        token_uri: gcs.tokenUrl,
      }),
    },
  };
}

const WRITE: WriteOptions = { namespace: ['test_olake'], keep: false };
const check = (v: Values, write: Partial<WriteOptions> = {}): Promise<CheckReport> =>
  runCheck(v, { timeoutMs: 5000, write: { ...WRITE, ...write } });
const step = (r: CheckReport, id: string) => r.steps.find((x) => x.id === id);
const names = (bucket: string) => [...gcs.objects(bucket).keys()].sort();
/** The write check's requests to the bucket (the storage check's probe under .floe-probe/ aside). */
const writeCalls = () =>
  gcs.requests.filter(
    (r) => r.path.includes('/b/lake/') && !`${r.path} ${r.query.name ?? ''}`.includes('.floe-probe'),
  );
const uploads = () => writeCalls().filter((r) => r.method === 'POST' && r.path.includes('/upload/'));

/** Every object that is not floe's is still there, byte for byte. */
function preciousIntact(): void {
  for (const name of PRECIOUS) expect(gcs.objects('lake').get(name)?.toString()).toBe(`not floe's: ${name}`);
  expect(gcs.objects('other').get('orders.parquet')?.toString()).toBe('not floe’s either');
}

const TABLE = /\/namespaces\/test_olake\/tables$/;
const ONE_TABLE = /\/namespaces\/test_olake\/tables\/floe_check_[0-9a-z_]+$/;
/** Polaris-style refusal of a purge: the catalog drops without deleting files, floe removes its own. */
const UNABLE_TO_PURGE = {
  status: 403,
  body: JSON.stringify({
    error: { message: 'Unable to purge entity: test_olake.t', type: 'ForbiddenException', code: 403 },
  }),
};

describe('floe test --write on Google Cloud Storage', () => {
  it('writes the data file and manifests under the gs:// table location, reads the record back, removes them', async () => {
    const journal = memoryJournal();
    const report = await check(values(), { journal });
    expect(report.diagnoses).toEqual([]);
    expect(report.steps.filter((s) => s.chain === 'write').map((s) => [s.id, s.state])).toEqual([
      ['write.namespace', 'ok'],
      ['write.table', 'ok'],
      ['write.data', 'ok'],
      ['write.commit', 'ok'],
      ['write.verify', 'ok'],
      ['write.cleanup', 'ok'],
    ]);
    expect(report.ok).toBe(true);
    expect(report.write?.rows).toBe(1);
    expect(step(report, 'write.data')?.detail).toMatch(
      /^gs:\/\/lake\/olake\/test_olake\/floe_check_\w+\/data\/00000-0-[\w-]+-00001\.parquet \(\d+ bytes, 1 record\)$/,
    );
    // Through the JSON API with the service account: uploads, the read back, the deletes.
    const calls = writeCalls();
    // The data file, the manifest, the manifest list.
    expect(uploads().map((r) => r.query.name?.replace(/^.*\/(data|metadata)\//, '$1/'))).toEqual([
      expect.stringMatching(/^data\/00000-0-[\w-]+-00001\.parquet$/),
      expect.stringMatching(/^metadata\/[\w-]+-m0\.avro$/),
      expect.stringMatching(/^metadata\/snap-\d+-1-[\w-]+\.avro$/),
    ]);
    expect(calls.filter((r) => r.method === 'DELETE' && r.status === 204).length).toBe(3);
    expect(calls.every((r) => r.email === EMAIL)).toBe(true);
    expect(calls.some((r) => r.method === 'GET' && r.query.alt === 'media')).toBe(true);
    // Nothing of floe's left; what was there is still there; the journal is empty.
    expect(names('lake')).toEqual([...PRECIOUS].sort());
    preciousIntact();
    expect(journal.records.size).toBe(0);
  });

  it('a service account without storage.objects.create on the bucket: GCS_PERMISSION_DENIED naming the permission, the account and the table location', async () => {
    gcs.deny(EMAIL, 'storage.objects.create');
    const report = await check(values());
    expect(step(report, 'write.data')?.state).toBe('failed');
    const d = report.diagnoses.find((x) => x.step === 'write.data');
    expect(d?.code).toBe('GCS_PERMISSION_DENIED');
    expect(d?.what).toContain(`${EMAIL} does not have storage.objects.create`);
    expect(d?.what).toContain('the table’s location gs://lake/olake/test_olake/floe_check_');
    expect(d?.remedy).toContain('gcloud storage buckets add-iam-policy-binding gs://lake');
    expect(d?.evidence.status).toBe(403);
    expect(report.ok).toBe(false);
    // The table was still dropped; nothing of floe's in the bucket.
    expect(step(report, 'write.cleanup')?.state).toBe('ok');
    expect(names('lake')).toEqual([...PRECIOUS].sort());
  });

  it('a profile without the service-account key: GCS_KEY_INVALID on the write, and nothing written', async () => {
    // A catalog that asks for no token (BigLake's needs the key too): only the store lacks it.
    const open = await startCatalogEmulator({ auth: 'none', dataLocation: 'gs://lake/olake' });
    try {
      const v = values();
      delete v.fields.gcpServiceAccountJson;
      const report = await check({ ...v, authType: 'none', fields: { ...v.fields, catalogUrl: open.url } });
      const d = report.diagnoses.find((x) => x.step === 'write.data');
      expect(d?.code).toBe('GCS_KEY_INVALID');
      expect(d?.what).toContain('GCP Service Account JSON cannot be used: no service-account JSON is set');
      expect(d?.remedy).toContain('--gcp-service-account-file');
      expect(step(report, 'write.cleanup')?.state).toBe('ok');
      expect(names('lake')).toEqual([...PRECIOUS].sort());
    } finally {
      await open.close();
    }
  });

  it('a GCP Project ID Cloud Storage does not know: GCS_USER_PROJECT_INVALID on the write, naming the project', async () => {
    const v = values();
    const report = await check({ ...v, fields: { ...v.fields, gcpProjectId: 'no-such-project' } });
    const d = report.diagnoses.find((x) => x.step === 'write.data');
    expect(d?.code).toBe('GCS_USER_PROJECT_INVALID');
    expect(d?.what).toContain('does not accept "no-such-project" as the billing project');
    expect(uploads()).toEqual([]);
    expect(names('lake')).toEqual([...PRECIOUS].sort());
  });

  it('no storage.objects.list: the emptiness is not checked (said so), the check passes', async () => {
    gcs.deny(EMAIL, 'storage.objects.list');
    const report = await check(values());
    expect(step(report, 'write.data')?.state).toBe('ok');
    expect(step(report, 'write.data')?.detail).toContain(
      'could not list the location (no storage.objects.list), so its emptiness was not checked',
    );
    expect(step(report, 'write.cleanup')?.state).toBe('ok');
    expect(names('lake')).toEqual([...PRECIOUS].sort());
  });

  it('an earlier run’s journaled gs:// file is removed by exact name; a journaled path outside its table is not', async () => {
    const old = 'olake/test_olake/floe_check_20260101t0000_aaaaaa';
    gcs.seed('lake', `${old}/data/00000-0-x-00001.parquet`, 'floe wrote this');
    const journal = memoryJournal();
    const earlier: WriteRecord = {
      id: 'earlier-run',
      profile: 'lake',
      host: 'elsewhere',
      pid: 1,
      scope: writeScope(values()),
      startedAt: '2026-01-01T00:00:00.000Z',
      namespace: ['test_olake'],
      createdNamespaces: [],
      table: null,
      location: `gs://lake/${old}`,
      tableUuid: null,
      catalogFiles: [],
      objects: [`gs://lake/${old}/data/00000-0-x-00001.parquet`, 'gs://lake/precious/orders.parquet'],
      commit: 'none',
      kept: false,
    };
    await journal.save(earlier);
    const report = await check(values(), { journal });
    expect(step(report, 'write.cleanup')?.state).toBe('ok');
    expect(step(report, 'write.cleanup')?.detail).toContain('earlier check test_olake');
    expect(names('lake')).toEqual([...PRECIOUS].sort());
    preciousIntact();
    expect(journal.records.size).toBe(0);
  });

  it('a table location in another store than the profile’s (s3:// with a GCS profile): WRITE_LOCATION_UNSUPPORTED, nothing written', async () => {
    proxy.rules.push({
      method: 'POST',
      path: TABLE,
      answer: rewriteTable((body) => {
        const metadata = body.metadata as { location: string };
        metadata.location = metadata.location.replace(/^gs:/, 's3:');
      }),
    });
    const report = await check(values());
    const d = report.diagnoses.find((x) => x.step === 'write.data');
    expect(d?.code).toBe('WRITE_LOCATION_UNSUPPORTED');
    expect(d?.what).toContain('not a gs:// location');
    expect(uploads()).toEqual([]);
  });
});

describe('the write check on GCS deletes only what it wrote', () => {
  const hostilePaths = [
    ['another object in the bucket', (_t: string) => 'gs://lake/precious/orders.parquet'],
    ['an object in another bucket', (_t: string) => 'gs://other/orders.parquet'],
    ['a path climbing out with ..', (t: string) => `${t}/metadata/../../../../precious/orders.parquet`],
    [
      'a path climbing out with percent-escapes',
      (t: string) => `${t}/metadata/%2E%2E/%2e%2e/../../precious/orders.parquet`,
    ],
  ] as const;

  it.each(hostilePaths)(
    'a catalog naming %s as the metadata, then dropping without purge: that object stays, named with a gcloud hint',
    async (_name, path) => {
      const rename = rewriteTable((body) => {
        const metadata = body.metadata as { location: string };
        body['metadata-location'] = path(metadata.location);
      });
      proxy.rules.push(
        { method: 'POST', path: TABLE, answer: rename },
        { method: 'POST', path: ONE_TABLE, answer: rename },
        { method: 'DELETE', path: ONE_TABLE, answer: () => UNABLE_TO_PURGE, times: 1, forward: false },
      );
      const report = await check(values());
      preciousIntact();
      expect(step(report, 'write.commit')?.state).toBe('ok');
      expect(step(report, 'write.cleanup')?.state).toBe('warning');
      const named = report.write?.leftovers.filter((l) => l.kind === 'object') ?? [];
      expect(named.length).toBeGreaterThan(0);
      expect(named[0]?.why).toContain('floe deletes only what it wrote');
      expect(named[0]?.remove).toMatch(/gcloud storage rm gs:\/\//);
      // floe's own files are gone.
      expect(names('lake').filter((n) => /\.parquet$|\.avro$/.test(n))).toEqual(['precious/orders.parquet']);
      // Never a delete of an object that is not floe's.
      expect(
        gcs.requests.filter(
          (r) => r.method === 'DELETE' && /precious|orders|keep\.txt/.test(decodeURIComponent(r.path)),
        ),
      ).toEqual([]);
    },
  );

  it('a catalog that drops without purge: its metadata files under the table’s metadata folder go, by exact name', async () => {
    const seeded: string[] = [];
    // The catalog's metadata files, where it names them (in the emulator they live in its memory).
    const named = rewriteTable((body) => {
      const metadata = body.metadata as { location: string };
      const key = `${metadata.location.replace('gs://lake/', '')}/metadata/0000${seeded.length}-${'c'.repeat(8)}.metadata.json`;
      gcs.seed('lake', key, 'the catalog wrote this');
      seeded.push(key);
      body['metadata-location'] = `gs://lake/${key}`;
    });
    proxy.rules.push(
      { method: 'POST', path: TABLE, answer: named },
      { method: 'POST', path: ONE_TABLE, answer: named },
      { method: 'DELETE', path: ONE_TABLE, answer: () => UNABLE_TO_PURGE, times: 1, forward: false },
    );
    const report = await check(values());
    expect(step(report, 'write.cleanup')?.state).toBe('ok');
    expect(step(report, 'write.cleanup')?.detail).toContain(
      'dropped the table (the catalog has purge turned off)',
    );
    expect(seeded).toHaveLength(2);
    const deleted = writeCalls()
      .filter((r) => r.method === 'DELETE' && r.status === 204)
      .map((r) => decodeURIComponent(r.path.replace(/^.*\/o\//, '')));
    for (const key of seeded) expect(deleted).toContain(key);
    expect(names('lake')).toEqual([...PRECIOUS].sort());
    preciousIntact();
  });

  it('a new table placed where objects already are: WRITE_LOCATION_NOT_EMPTY, nothing written there', async () => {
    proxy.rules.push({
      method: 'POST',
      path: TABLE,
      answer: rewriteTable((body) => {
        const metadata = body.metadata as { location: string };
        metadata.location = 'gs://lake/precious';
      }),
    });
    const report = await check(values());
    const d = report.diagnoses.find((x) => x.code === 'WRITE_LOCATION_NOT_EMPTY');
    expect(d?.what).toContain('gs://lake/precious');
    expect(d?.what).toContain('precious/orders.parquet');
    expect(uploads()).toEqual([]);
    preciousIntact();
    expect(names('lake')).toEqual([...PRECIOUS].sort());
  });
});
