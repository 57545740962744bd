// The write check against a buggy or hostile catalog (a proxy rewriting the sandbox catalog's answers):
// it never deletes an object it did not write, keeps the files of a table whose commit may have
// landed, refuses a location that already holds objects, names what it leaves and how to remove it,
// and a later run (or --cleanup) removes what an earlier one left, from the journal.
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it } from 'vitest';
import type { WriteOptions } from '../../src/check/chain.js';
import { memoryJournal } from '../../src/check/journal.js';
import type { CheckReport } from '../../src/check/types.js';
import { runCheck } from '../../src/connection/run.js';
import type { Values } from '../../src/destination/fields.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { type CatalogProxy, rewriteTable, startCatalogProxy } from '../support/catalog-proxy.js';

let sandbox: Sandbox | undefined;
let proxy: CatalogProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await sandbox?.stop();
  proxy = undefined;
  sandbox = undefined;
});

const PRECIOUS = ['precious/orders.parquet', 'precious/metadata/v1.metadata.json', 'test_olake/keep.txt'];

/** The Polaris sandbox behind a rewriting proxy, with objects that are not floe's in two buckets. */
async function world(): Promise<{ s: Sandbox; p: CatalogProxy; values: Values; s3: S3Client }> {
  sandbox = await startSandbox({ catalog: 'polaris', jobs: 0, ports: { catalog: 0, olake: 0, s3: 0 } });
  const s = sandbox;
  proxy = await startCatalogProxy(s.catalog.url);
  const values = sandboxProfile({
    flavour: 'polaris',
    facts: s.catalog.facts,
    catalogUrl: proxy.url,
    tokenUrl: s.catalog.tokenUrl,
    s3: s.s3,
  });
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: s.s3.url,
    forcePathStyle: true,
    credentials: { accessKeyId: s.s3.accessKey, secretAccessKey: s.s3.secretKey },
  });
  for (const key of PRECIOUS)
    await s3.send(new PutObjectCommand({ Bucket: s.s3.bucket, Key: key, Body: `not floe's: ${key}` }));
  await s3.send(new CreateBucketCommand({ Bucket: 'other' }));
  await s3.send(new PutObjectCommand({ Bucket: 'other', Key: 'orders.parquet', Body: 'not floe’s either' }));
  return { s, p: proxy, values, s3 };
}

async function keys(s3: S3Client, bucket: string): Promise<string[]> {
  const out = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (out.Contents ?? []).map((o) => o.Key ?? '').sort();
}

/** Every object that is not floe's is still there, byte for byte. */
async function preciousIntact(s3: S3Client, bucket: string): Promise<void> {
  for (const key of PRECIOUS) {
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(await out.Body?.transformToString()).toBe(`not floe's: ${key}`);
  }
  expect(await keys(s3, 'other')).toEqual(['orders.parquet']);
}

const WRITE: WriteOptions = { namespace: ['test_olake'], keep: false };
const check = (values: Values, write: Partial<WriteOptions> = {}, signal?: AbortSignal) =>
  runCheck(values, { timeoutMs: 3000, write: { ...WRITE, ...write }, ...(signal ? { signal } : {}) });
const step = (r: CheckReport, id: string) => r.steps.find((x) => x.id === id);

const TABLE = /\/namespaces\/test_olake\/tables$/;
const ONE_TABLE = /\/namespaces\/test_olake\/tables\/floe_check_[0-9a-z_]+$/;
/** Polaris without drop-with-purge (IcebergCatalogHandler.dropTableWithPurge). */
const UNABLE_TO_PURGE = {
  status: 403,
  body: JSON.stringify({
    error: {
      message:
        'Unable to purge entity: test_olake.t. To enable this feature, set the Polaris configuration DROP_WITH_PURGE_ENABLED or the catalog configuration polaris.config.drop-with-purge.enabled',
      type: 'ForbiddenException',
      code: 403,
    },
  }),
};

describe('the write check deletes only what it wrote', () => {
  const hostilePaths = [
    ['another object in the bucket', (_t: string) => 's3://warehouse/precious/orders.parquet'],
    ['an object in another bucket', (_t: string) => 's3://other/orders.parquet'],
    ['a path climbing out with ..', (t: string) => `${t}/metadata/../../../precious/orders.parquet`],
    [
      'a path climbing out with percent-escapes',
      (t: string) => `${t}/metadata/%2E%2E/%2e%2e/../precious/orders.parquet`,
    ],
    [
      'a doubled slash and dot segments',
      (t: string) => `${t}//metadata/./../../../precious/metadata/v1.metadata.json`,
    ],
  ] as const;

  it.each(hostilePaths)(
    'a catalog naming %s as the metadata, then dropping without purge: that object stays, and is named',
    async (_name, path) => {
      const { s, p, values, s3 } = await world();
      const rename = rewriteTable((body) => {
        const metadata = body.metadata as { location: string };
        body['metadata-location'] = path(metadata.location);
      });
      p.rules.push(
        { method: 'POST', path: TABLE, answer: rename },
        { method: 'POST', path: ONE_TABLE, answer: rename },
        { method: 'DELETE', path: ONE_TABLE, answer: () => UNABLE_TO_PURGE, times: 1, forward: false },
      );
      const report = await check(values);
      await preciousIntact(s3, s.s3.bucket);
      expect(step(report, 'write.commit')?.state).toBe('ok');
      expect(step(report, 'write.cleanup')?.state).toBe('warning');
      const named = report.write?.leftovers.filter((l) => l.kind === 'object') ?? [];
      expect(named.length).toBeGreaterThan(0);
      expect(named[0]?.why).toContain('floe deletes only what it wrote');
      // floe's own files are gone: only what is not floe's is left in the bucket.
      expect((await keys(s3, s.s3.bucket)).filter((k) => !PRECIOUS.includes(k))).toEqual(
        expect.not.arrayContaining([expect.stringMatching(/\.parquet$|\.avro$/)]),
      );
    },
  );

  it('a new table placed where objects already are: WRITE_LOCATION_NOT_EMPTY, nothing written there', async () => {
    const { s, p, values, s3 } = await world();
    p.rules.push({
      method: 'POST',
      path: TABLE,
      answer: rewriteTable((body) => {
        (body.metadata as { location: string }).location = 's3://warehouse/precious';
      }),
    });
    const before = await keys(s3, s.s3.bucket);
    const report = await check(values);
    const d = report.diagnoses.find((x) => x.code === 'WRITE_LOCATION_NOT_EMPTY');
    expect(d?.step).toBe('write.data');
    expect(d?.what).toContain('s3://warehouse/precious');
    expect(d?.what).toContain('precious/orders.parquet');
    expect(await keys(s3, s.s3.bucket)).toEqual(before);
    await preciousIntact(s3, s.s3.bucket);
  });

  it('a commit answered 502 and a drop that fails: the table and every file stay, named as possibly committed', async () => {
    const { s, p, values, s3 } = await world();
    p.rules.push(
      { method: 'POST', path: ONE_TABLE, answer: () => ({ status: 502, body: '<html>Bad Gateway</html>' }) },
      { method: 'DELETE', path: ONE_TABLE, answer: () => ({ status: 500, body: '{}' }), forward: false },
    );
    const report = await check(values);
    expect(report.diagnoses.map((d) => d.code)).toContain('WRITE_COMMIT_STATE_UNKNOWN');
    const left = report.write?.leftovers ?? [];
    expect(left.find((l) => l.kind === 'table')?.why).toContain('may hold floe’s committed snapshot');
    const files = left.filter((l) => l.kind === 'object');
    // The data file, the manifest and the manifest list are all kept with the table.
    expect(files.map((f) => f.name).join(' ')).toMatch(/\.parquet.*\.avro.*\.avro/);
    for (const f of files) expect(f.why).toContain('commit’s outcome is unknown');
    const stored = await keys(s3, s.s3.bucket);
    for (const f of files) expect(stored).toContain(f.name.replace(/^s3:\/\/warehouse\//, ''));
  });

  it('a commit that times out leaves its outcome unknown (WRITE_COMMIT_STATE_UNKNOWN), not a plain time-out', async () => {
    const { p, values } = await world();
    p.rules.push({ method: 'POST', path: ONE_TABLE, answer: () => 'hang' });
    const report = await runCheck(values, { timeoutMs: 700, write: WRITE });
    const d = report.diagnoses.find((x) => x.step === 'write.commit');
    expect(d?.code).toBe('WRITE_COMMIT_STATE_UNKNOWN');
    // The drop worked: the table is gone, so floe's files could go too.
    expect(step(report, 'write.cleanup')?.state).toBe('ok');
  });
});

describe('what the check leaves is always said', () => {
  it('Ctrl-C while the create is answered late: the table is dropped by the name floe chose', async () => {
    const { s, p, values } = await world();
    // The catalog creates the table; its answer never arrives.
    p.rules.push({ method: 'POST', path: TABLE, answer: () => 'hang' });
    const controller = new AbortController();
    const report = await runCheck(values, {
      timeoutMs: 5000,
      write: WRITE,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'step' && event.step.id === 'write.table' && event.step.state === 'running')
          setTimeout(() => controller.abort(), 300);
      },
    });
    expect(step(report, 'write.table')?.state).toBe('cancelled');
    expect(step(report, 'write.cleanup')).toMatchObject({ state: 'ok' });
    expect(step(report, 'write.cleanup')?.detail).toContain('dropped the table');
    const created = s.catalog.bearer.requests.filter(
      (r) => r.method === 'POST' && TABLE.test(r.url.split('?')[0]!),
    );
    const dropped = s.catalog.bearer.requests.filter(
      (r) => r.method === 'DELETE' && r.url.includes(`/tables/${report.write?.table}`),
    );
    expect(created.length).toBe(1);
    expect(dropped.length).toBe(1);
  });

  it('an answer with a schema nothing expected: the failure is named and the cleanup still runs', async () => {
    const { p, values } = await world();
    p.rules.push({
      method: 'POST',
      path: TABLE,
      answer: rewriteTable((body) => {
        const metadata = body.metadata as { schemas: { fields: { type: unknown }[] }[] };
        for (const schema of metadata.schemas)
          for (const field of schema.fields) field.type = { type: 'geometry-9' };
      }),
    });
    const report = await check(values);
    expect(report.diagnoses.some((d) => d.step === 'write.data')).toBe(true);
    expect(step(report, 'write.cleanup')?.state).toBe('ok');
    expect(step(report, 'write.cleanup')?.detail).toContain('dropped the table');
  });

  it('a principal that may not drop tables: the check passes with leftovers, each with the grant and command', async () => {
    const { p, values } = await world();
    const forbidden = {
      status: 403,
      body: JSON.stringify({
        error: {
          message:
            "Principal 'floe' with activated PrincipalRoles '[]' and activated grants via '[catalog_reader]' is not authorized for op DROP_TABLE_WITH_PURGE",
          type: 'ForbiddenException',
          code: 403,
        },
      }),
    };
    p.rules.push({ method: 'DELETE', path: ONE_TABLE, answer: () => forbidden, forward: false });
    const journal = memoryJournal();
    const report = await check(values, { journal, profile: 'lake' });
    expect(report.ok).toBe(true);
    expect(report.diagnoses).toEqual([]);
    expect(step(report, 'write.cleanup')?.state).toBe('warning');
    const table = report.write?.leftovers.find((l) => l.kind === 'table');
    expect(table?.name).toBe(`test_olake.${report.write?.table}`);
    expect(table?.remove).toContain('floe test --cleanup --profile lake');
    expect(table?.remove).toMatch(/TABLE_DROP|grant/i);
    expect(report.warnings.join(' ')).toContain('WRITE_CLEANUP_INCOMPLETE');
    // The journal keeps the table; once the drop is allowed, --cleanup removes it and forgets it.
    expect([...journal.records.values()].map((r) => r.table)).toEqual([report.write?.table]);
    p.rules.length = 0;
    const again = await check(values, { journal, profile: 'lake', cleanupOnly: true });
    expect(again.steps.filter((x) => x.chain === 'write').map((x) => [x.id, x.state])).toEqual([
      ['write.cleanup', 'ok'],
    ]);
    expect(step(again, 'write.cleanup')?.detail).toContain(`earlier check test_olake.${report.write?.table}`);
    expect(journal.records.size).toBe(0);
  });

  it('a later --write run removes what an earlier run left, and says so', async () => {
    const { s, p, values, s3 } = await world();
    p.rules.push({
      method: 'DELETE',
      path: ONE_TABLE,
      answer: () => ({ status: 503, body: '{}' }),
      forward: false,
    });
    const journal = memoryJournal();
    const first = await check(values, { journal });
    expect(first.ok).toBe(true);
    expect(first.write?.leftovers.length).toBeGreaterThan(0);
    p.rules.length = 0;
    const second = await check(values, { journal });
    expect(second.write?.leftovers).toEqual([]);
    expect(step(second, 'write.cleanup')?.detail).toContain(`earlier check test_olake.${first.write?.table}`);
    expect(journal.records.size).toBe(0);
    expect((await keys(s3, s.s3.bucket)).filter((k) => !PRECIOUS.includes(k))).toEqual([]);
  });
});
