// Where the storage check writes: the Data Location, else a Warehouse that is a location, else the
// location the catalog's config names (Polaris default-base-location, Nessie warehouse), else nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { type SharedFacts, sharedFacts } from '../../src/check/types.js';
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

async function runShared(v: Values, shared: SharedFacts) {
  const events: { type: string; step?: { id: string; detail?: string; state: string } }[] = [];
  await storageChain(v, {
    emit: (e) => events.push(e as (typeof events)[number]),
    signal: new AbortController().signal,
    timeoutMs: 5000,
    readOnly: true,
    shared,
  });
  return events;
}

describe('the storage check’s data location', () => {
  it('is the Data Location when set, even beside an s3:// Warehouse', async () => {
    const s3 = await store();
    const run = await runStorage(values(s3, { warehouse: 's3://other', dataLocation: 's3://lake/raw' }), {
      readOnly: true,
    });
    expect(run.steps['storage.head']?.detail).toBe('bucket "lake" exists (from the Data Location)');
    expect(s3.requests).toEqual(['HEAD /lake/', 'GET /lake/?list-type=2&max-keys=1&prefix=raw%2F']);
  });

  it('is an s3:// Warehouse when there is no Data Location', async () => {
    const s3 = await store();
    const run = await runStorage(values(s3, { warehouse: 's3://warehouse/olake' }), { readOnly: true });
    expect(run.steps['storage.head']?.detail).toBe('bucket "warehouse" exists (from the Warehouse)');
  });

  it('waits for the catalog’s config when the Warehouse is a name', async () => {
    const s3 = await store();
    const shared = sharedFacts();
    const done = runShared(values(s3, {}), shared);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(s3.requests).toEqual([]);
    shared.setCatalogLocation({ url: 's3://polaris-data/olake_catalog', property: 'default-base-location' });
    const events = await done;
    const head = events.filter((e) => e.step?.id === 'storage.head').at(-1)?.step;
    expect(head?.detail).toBe('bucket "polaris-data" exists (from the catalog\'s default-base-location)');
    expect(s3.requests[1]).toBe('GET /polaris-data/?list-type=2&max-keys=1&prefix=olake_catalog%2F');
  });

  it('is a diagnosis, not a guess, when nothing names a location', async () => {
    const s3 = await store();
    const shared = sharedFacts();
    shared.setCatalogLocation(null);
    const events = await runShared(values(s3, {}), shared);
    const diagnoses = events.filter((e) => e.type === 'diagnosis') as unknown as {
      diagnosis: { code: string; remedy: string };
    }[];
    expect(diagnoses.map((d) => d.diagnosis.code)).toEqual(['S3_NO_DATA_LOCATION']);
    expect(diagnoses[0]?.diagnosis.remedy).toContain('--data-location s3://bucket/prefix');
    expect(s3.requests).toEqual([]);
  });

  // Issue 30, item 6: the cause says what was tried: a config read without a location, or none read.
  it.each([
    ['read', 'the catalog’s config gave no default location either'],
    [
      'unread',
      'the catalog’s config could not be read (see the catalog steps), so its default location is unknown',
    ],
  ] as const)('says what was tried when the catalog config was %s', async (config, said) => {
    const s3 = await store();
    const shared = sharedFacts();
    shared.setCatalogLocation(null, config);
    const events = await runShared(values(s3, {}), shared);
    const diagnosis = (
      events.find((e) => e.type === 'diagnosis') as unknown as { diagnosis: { cause: string } }
    ).diagnosis;
    expect(diagnosis.cause).toContain(said);
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
