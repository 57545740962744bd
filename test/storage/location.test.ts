// Where the storage check writes: the Data Location, else a Warehouse that is a location, else the
// location the catalog names (its config's default-base-location, the check namespace's location),
// else, under --write, the location the catalog gives the write check's table; else a warning.
import { afterEach, describe, expect, it } from 'vitest';
import { type SharedFacts, sharedFacts } from '../../src/check/chain.js';
import type { Values } from '../../src/destination/fields.js';
import { storageChain } from '../../src/storage/chain.js';
import { EMPTY_LIST, type FakeS3, fakeS3, xml } from './fake-s3.js';
import { runStorage, storageValues } from './harness.js';

let server: FakeS3 | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A store where every bucket exists and is empty. */
async function store(): Promise<FakeS3> {
  server = await fakeS3((req, res) => {
    if (req.method === 'HEAD') return void res.writeHead(200).end();
    xml(res, 200, EMPTY_LIST);
  });
  return server;
}

function values(s3: FakeS3, fields: Partial<Values['fields']>): Values {
  const v = storageValues({
    warehouse: 'olake_catalog',
    s3Endpoint: s3.endpoint,
    accessKey: 'AKIAFAKEFAKEFAKE0001',
    secretKey: 'fake-secret-0000000000000000000000000000',
  });
  return { ...v, preset: 'polaris', fields: { ...v.fields, ...fields } };
}

async function runShared(v: Values, shared: SharedFacts, write = false) {
  const events: {
    type: string;
    message?: string;
    step?: { id: string; detail?: string; state: string };
  }[] = [];
  await storageChain(v, {
    env: process.env,
    emit: (e) => events.push(e as (typeof events)[number]),
    signal: new AbortController().signal,
    timeoutMs: 5000,
    readOnly: true,
    shared,
    ...(write ? { write: { namespace: ['test_olake'], keep: false } } : {}),
  });
  return events;
}

describe('the storage check’s data location', () => {
  it('is the Data Location when set, even beside an s3:// Warehouse', async () => {
    const s3 = await store();
    const run = await runStorage(values(s3, { warehouse: 's3://other', dataLocation: 's3://lake/raw' }), {
      readOnly: true,
    });
    expect(run.steps['storage.head']?.detail).toBe(
      'bucket "lake" exists (probing s3://lake/raw/ from the Data Location)',
    );
    expect(s3.requests).toEqual(['HEAD /lake/', 'GET /lake/?list-type=2&max-keys=1&prefix=raw%2F']);
  });

  it('is an s3:// Warehouse when there is no Data Location', async () => {
    const s3 = await store();
    const run = await runStorage(values(s3, { warehouse: 's3://warehouse/olake' }), { readOnly: true });
    expect(run.steps['storage.head']?.detail).toBe(
      'bucket "warehouse" exists (probing s3://warehouse/olake/ from the Warehouse)',
    );
  });

  it('waits for the catalog’s config when the Warehouse is a name', async () => {
    const s3 = await store();
    const shared = sharedFacts();
    const done = runShared(values(s3, {}), shared);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(s3.requests).toEqual([]);
    shared.setCatalogLocation({
      url: 's3://polaris-data/olake_catalog',
      property: 'default-base-location',
      from: "catalog's config (defaults.default-base-location)",
    });
    const events = await done;
    const head = events.filter((e) => e.step?.id === 'storage.head').at(-1)?.step;
    expect(head?.detail).toBe(
      'bucket "polaris-data" exists (probing s3://polaris-data/olake_catalog/ from the catalog\'s config (defaults.default-base-location))',
    );
    expect(s3.requests[1]).toBe('GET /polaris-data/?list-type=2&max-keys=1&prefix=olake_catalog%2F');
  });

  it('under --write, waits for the location the catalog gives the write check’s table', async () => {
    const s3 = await store();
    const shared = sharedFacts();
    shared.setCatalogLocation(null);
    const done = runShared(values(s3, {}), shared, true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(s3.requests).toEqual([]);
    shared.setTableLocation({
      url: 's3://lakekeeper-data/0195/0196',
      property: 'location',
      from: 'location the catalog gave the write check’s table',
    });
    const events = await done;
    const head = events.filter((e) => e.step?.id === 'storage.head').at(-1)?.step;
    expect(head?.state).toBe('ok');
    expect(head?.detail).toBe(
      'bucket "lakekeeper-data" exists (probing s3://lakekeeper-data/0195/0196/ from the location the catalog gave the write check’s table)',
    );
  });

  it('is a warning naming what was asked and what to set, not a failure, when nothing names a location', async () => {
    const s3 = await store();
    const shared = sharedFacts();
    shared.locationTried.push('namespace test_olake does not exist');
    shared.setCatalogLocation(null);
    const events = await runShared(values(s3, {}), shared);
    expect(events.filter((e) => e.type === 'diagnosis')).toEqual([]);
    const last = new Map(events.flatMap((e) => (e.step ? [[e.step.id, e.step.state]] : [])));
    expect([...last.values()]).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
    const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
    expect(warnings).toEqual([
      'The object-store steps were skipped: no data location is known (the profile has no Data Location and its Warehouse “olake_catalog” is not an s3:// or gs:// location; namespace test_olake does not exist; floe test --write would learn the location the catalog gives a new table). Set Data Location to the bucket and prefix OLake writes to, e.g. floe setup --data-location s3://bucket/prefix',
    ]);
    expect(s3.requests).toEqual([]);
  });

  it('a gs:// location (BigLake) is not probed: the steps are skipped with a warning', async () => {
    const s3 = await store();
    const run = await runStorage(values(s3, { warehouse: 'gs://my-lake' }), { readOnly: true });
    expect(Object.values(run.states).every((state) => state === 'skipped')).toBe(true);
    expect(run.diagnoses).toEqual([]);
    expect(run.warnings[0]).toContain('gs://my-lake (from the Warehouse) is in Google Cloud Storage');
    expect(s3.requests).toEqual([]);
  });
});
