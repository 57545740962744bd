// The write check (floe test --write) through the orchestrator, in process, against the sandbox in
// every catalog flavour: it passes, reads its record back and leaves nothing behind; each fault the
// issue names gets its diagnosis, still with nothing left behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WriteOptions } from '../../src/check/chain.js';
import type { CheckReport } from '../../src/check/types.js';
import { runCheck } from '../../src/connection/run.js';
import type { Values } from '../../src/destination/fields.js';
import {
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  startCatalogEmulator,
} from '../../src/sandbox/catalog/index.js';
import {
  CATALOG_FLAVOURS,
  type CatalogFlavour,
  SANDBOX,
  type Sandbox,
  sandboxValues,
  startSandbox,
} from '../../src/sandbox/index.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { startS3Server } from '../../src/sandbox/s3.js';
import { STORAGE_EMULATOR_ENV } from '../../src/storage/gcs.js';

const WRITE: WriteOptions = { namespace: ['test_olake'], keep: false };
let sandbox: Sandbox | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await sandbox?.stop();
  sandbox = undefined;
});

async function world(flavour: CatalogFlavour): Promise<{ sandbox: Sandbox; values: Values }> {
  sandbox = await startSandbox({ catalog: flavour, jobs: 0, ports: { catalog: 0, olake: 0, s3: 0 } });
  // BigLake's storage is the sandbox's GCS emulator, reached as the floe sandbox process reaches it.
  if (sandbox.gcs) vi.stubEnv(STORAGE_EMULATOR_ENV, sandbox.gcs.url);
  return { sandbox, values: sandboxValues(sandbox) };
}

/** Every object key in the sandbox's bucket. */
async function objects(s: Sandbox): Promise<string[]> {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: s.s3.url,
    forcePathStyle: true,
    credentials: { accessKeyId: s.s3.accessKey, secretAccessKey: s.s3.secretKey },
  });
  try {
    const out = await client.send(new ListObjectsV2Command({ Bucket: s.s3.bucket }));
    return (out.Contents ?? []).map((o) => o.Key ?? '');
  } finally {
    client.destroy();
  }
}

const check = (values: Values, write: WriteOptions = WRITE, signal?: AbortSignal): Promise<CheckReport> =>
  runCheck(values, { timeoutMs: 5000, write, ...(signal ? { signal } : {}) });

let emulator: CatalogEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** A Polaris-flavoured catalog emulator of its own (options the sandbox does not take) over the sandbox's store. */
async function direct(
  options: Partial<CatalogEmulatorOptions>,
): Promise<{ values: Values; emulator: CatalogEmulator }> {
  const { sandbox: s } = await world('polaris');
  const facts = s.catalog.facts;
  emulator = await startCatalogEmulator({
    flavour: 'polaris',
    basePath: facts.basePath,
    warehouses: [facts.warehouse],
    dataLocation: facts.dataLocation,
    auth: 'bearer',
    clients: [{ id: SANDBOX.oauth.clientId, secret: SANDBOX.oauth.clientSecret }],
    objectStore: {
      endpoint: s.s3.url,
      region: 'us-east-1',
      accessKeyId: s.s3.accessKey,
      secretAccessKey: s.s3.secretKey,
    },
    ...options,
  });
  const values = sandboxProfile({
    flavour: 'polaris',
    facts,
    catalogUrl: emulator.url,
    tokenUrl: emulator.tokenUrl,
    s3: s.s3,
  });
  return { values, emulator };
}

const step = (report: CheckReport, id: string) => report.steps.find((s) => s.id === id);

/** The emulator the write requests reach (the `rest` sandbox fronts two; its OAuth2 profile uses the bearer one). */
const emulatorOf = (s: Sandbox) => s.catalog.bearer;

describe('floe test --write against the sandbox', () => {
  it.each(CATALOG_FLAVOURS)(
    '%s: creates, writes, commits, reads back and removes everything',
    async (flavour) => {
      const { sandbox: s, values } = await world(flavour);
      const before = await objects(s);
      const report = await check(values);
      expect(report.diagnoses).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.steps.filter((x) => x.chain === 'write').map((x) => [x.id, x.state])).toEqual([
        ['write.namespace', 'ok'],
        ['write.table', 'ok'],
        ['write.data', 'ok'],
        ['write.commit', 'ok'],
        ['write.verify', 'ok'],
        ['write.cleanup', 'ok'],
      ]);
      expect(report.write).toMatchObject({ namespace: 'test_olake', rows: 1, kept: false });
      expect(report.write?.table).toMatch(/^floe_check_\d{8}t\d{4}_[0-9a-f]{6}$/);
      expect(report.write?.snapshotId).toMatch(/^\d+$/);
      expect(step(report, 'write.namespace')?.detail).toBe('created test_olake');
      expect(step(report, 'write.cleanup')?.detail).toContain('dropped namespace test_olake');
      expect(await objects(s)).toEqual(before);
      // The namespace the run created is gone again; the sandbox's own ones stay.
      const requests = emulatorOf(s).requests.map((r) => `${r.method} ${r.url.split('?')[0]}`);
      expect(requests.some((r) => r.startsWith('DELETE') && r.endsWith('/namespaces/test_olake'))).toBe(true);
    },
  );

  it('--keep leaves the table with its committed metadata, and a second run uses the existing namespace', async () => {
    const { sandbox: s, values } = await world('polaris');
    const kept = await check(values, { ...WRITE, keep: true });
    expect(kept.ok).toBe(true);
    expect(kept.write).toMatchObject({ kept: true, rows: 1 });
    expect(kept.write?.metadataLocation).toMatch(
      /^s3:\/\/warehouse\/test_olake\/floe_check_.*\/metadata\/00001-.*\.metadata\.json$/,
    );
    expect(step(kept, 'write.cleanup')).toMatchObject({ state: 'skipped' });
    expect(step(kept, 'write.cleanup')?.detail).toContain(`kept test_olake.${kept.write?.table}`);
    const keys = await objects(s);
    expect(keys.some((k) => k.endsWith('.parquet'))).toBe(true);
    expect(keys.some((k) => /\/metadata\/snap-\d+-1-.*\.avro$/.test(k))).toBe(true);
    const again = await check(values);
    expect(again.ok).toBe(true);
    expect(step(again, 'write.namespace')?.detail).toBe('test_olake exists');
    // The kept table is untouched: a run never touches a table it did not create.
    expect(await objects(s)).toEqual(keys);
  });

  it('--namespace puts the table in another namespace, created and dropped again', async () => {
    const { values } = await world('lakekeeper');
    const report = await check(values, { namespace: ['floe', 'checks'], keep: false });
    expect(report.ok).toBe(true);
    expect(report.write?.namespace).toBe('floe.checks');
    expect(step(report, 'write.namespace')?.detail).toBe('created floe, floe.checks');
    expect(step(report, 'write.cleanup')?.detail).toContain(
      'dropped namespace floe.checks; dropped namespace floe',
    );
  });
});

describe('faults of the write path, each diagnosed, nothing left behind', () => {
  const denied = [
    [
      'polaris',
      'create-table',
      'write.table',
      { operation: 'CREATE_TABLE_DIRECT', privilege: 'TABLE_CREATE' },
    ],
    [
      'polaris',
      'create-namespace',
      'write.namespace',
      { operation: 'CREATE_NAMESPACE', privilege: 'NAMESPACE_CREATE' },
    ],
    ['polaris', 'write-data', 'write.commit', { operation: 'UPDATE_TABLE' }],
    ['glue', 'create-table', 'write.table', { action: 'glue:CreateTable' }],
    ['s3tables', 'create-table', 'write.table', { action: 's3tables:CreateTable' }],
    ['unity', 'create-table', 'write.table', {}],
    ['lakekeeper', 'write-data', 'write.commit', { action: 'commit' }],
    ['nessie', 'create-table', 'write.table', {}],
    ['rest', 'create-table', 'write.table', {}],
  ] as const;
  it.each(denied)('%s without %s: WRITE_PRIVILEGE_DENIED at %s', async (flavour, privilege, at, extra) => {
    const { sandbox: s, values } = await world(flavour);
    const before = await objects(s);
    s.catalog.bearer.setDeny([privilege]);
    s.catalog.sigv4.setDeny([privilege]);
    const report = await check(values);
    expect(report.ok).toBe(false);
    const d = report.diagnoses.find((x) => x.code === 'WRITE_PRIVILEGE_DENIED');
    expect(d?.step).toBe(at);
    expect(d?.evidence.status).toBe(403);
    expect(d?.evidence.extra).toMatchObject(extra);
    if (flavour === 'unity') expect(d?.cause).toContain('EXTERNAL USE SCHEMA');
    expect(step(report, 'write.cleanup')?.state).toBe(privilege === 'create-namespace' ? 'skipped' : 'ok');
    expect(report.diagnoses.map((x) => x.code)).toEqual(['WRITE_PRIVILEGE_DENIED']);
    expect(await objects(s)).toEqual(before);
  });

  it('a commit conflict twice is retried after reloading the table; past the retries it is WRITE_COMMIT_CONFLICT', async () => {
    const { sandbox: s, values } = await world('polaris');
    s.catalog.bearer.setFault({ kind: 'commit-conflict', times: 2 }, 'commit');
    const retried = await check(values);
    expect(retried.ok).toBe(true);
    expect(step(retried, 'write.commit')?.detail).toContain('after 2 retries');
    s.catalog.bearer.setFault({ kind: 'commit-conflict', times: 50 }, 'commit');
    const before = await objects(s);
    const stuck = await check(values);
    expect(stuck.diagnoses.map((x) => x.code)).toEqual(['WRITE_COMMIT_CONFLICT']);
    expect(stuck.diagnoses[0]?.what).toContain('on each of 5 attempts');
    expect(step(stuck, 'write.cleanup')?.state).toBe('ok');
    expect(await objects(s)).toEqual(before);
  });

  it('a table location in a bucket the profile’s store does not have: WRITE_LOCATION_BUCKET_MISSING naming both locations', async () => {
    // The catalog keeps its tables in a bucket of another store (its own, here a second s3rver).
    const directory = mkdtempSync(join(tmpdir(), 'floe-other-store-'));
    const other = await startS3Server({ port: 0, bucket: 'elsewhere', directory });
    try {
      const { values } = await direct({
        tableLocationBase: 's3://elsewhere/tables',
        objectStore: {
          endpoint: other.url,
          region: 'us-east-1',
          accessKeyId: other.accessKey,
          secretAccessKey: other.secretKey,
        },
      });
      const report = await check(values);
      const d = report.diagnoses.find((x) => x.code === 'WRITE_LOCATION_BUCKET_MISSING');
      expect(d?.step).toBe('write.data');
      expect(d?.what).toContain('s3://elsewhere/tables/test_olake/');
      expect(d?.what).toContain('while the storage check wrote under s3://warehouse');
      expect(d?.evidence.extra).toMatchObject({ probeLocation: 's3://warehouse' });
      expect(report.diagnoses.map((x) => x.code)).toEqual(['WRITE_LOCATION_BUCKET_MISSING']);
      expect(step(report, 'write.cleanup')?.state).toBe('ok');
    } finally {
      await other.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('a catalog that cannot write the table’s metadata itself: WRITE_TABLE_REFUSED says it is the catalog’s storage', async () => {
    const { values } = await direct({ tableLocationBase: 's3://no-such-bucket/tables' });
    const report = await check(values);
    expect(report.diagnoses.map((x) => [x.code, x.step])).toEqual([['WRITE_TABLE_REFUSED', 'write.table']]);
    expect(report.diagnoses[0]?.cause).toContain('catalog’s own storage settings');
    expect(report.diagnoses[0]?.evidence.extra?.message).toContain('NoSuchBucket');
  });

  it('a catalog answering the commit with 500: WRITE_COMMIT_STATE_UNKNOWN, and the table is still dropped', async () => {
    const { sandbox: s, values } = await world('nessie');
    s.catalog.bearer.setFault({ kind: 'server-error' }, 'commit');
    const before = await objects(s);
    const report = await check(values);
    expect(report.diagnoses.map((x) => x.code)).toEqual(['WRITE_COMMIT_STATE_UNKNOWN']);
    expect(step(report, 'write.cleanup')?.state).toBe('ok');
    expect(await objects(s)).toEqual(before);
  });

  it('a commit answered 400 with the catalog’s message: WRITE_COMMIT_REJECTED quotes it', async () => {
    const { sandbox: s, values } = await world('polaris');
    s.catalog.bearer.setFault(
      {
        kind: 'json',
        status: 400,
        body: {
          error: {
            message: 'Cannot add snapshot: manifest list is missing',
            type: 'BadRequestException',
            code: 400,
          },
        },
      },
      'commit',
    );
    const report = await check(values);
    expect(report.diagnoses.map((x) => [x.code, x.step])).toEqual([
      ['WRITE_COMMIT_REJECTED', 'write.commit'],
    ]);
    expect(report.diagnoses[0]?.what).toContain('Cannot add snapshot: manifest list is missing');
    expect(step(report, 'write.cleanup')?.state).toBe('ok');
  });

  it('a table route that never answers: CATALOG_TIMEOUT on that step, then the cleanup', async () => {
    const { sandbox: s, values } = await world('polaris');
    s.catalog.bearer.setFault({ kind: 'silent' }, 'tables');
    const report = await runCheck(values, { timeoutMs: 500, write: WRITE });
    expect(report.diagnoses.map((x) => [x.code, x.step])).toContainEqual(['CATALOG_TIMEOUT', 'write.table']);
    expect(report.diagnoses[0]?.what).toContain('got no answer in 500 ms');
    s.catalog.bearer.setFault(null, 'tables');
  });

  it('a catalog that refuses to create the namespace (not a privilege): WRITE_NAMESPACE_REFUSED with its message', async () => {
    const { values, emulator: e } = await direct({
      endpoints: [
        'GET /v1/{prefix}/namespaces',
        'POST /v1/{prefix}/namespaces',
        'POST /v1/{prefix}/namespaces/{namespace}/tables',
      ],
    });
    // The read chain lists namespaces; the refusal starts with the write chain.
    const refusal = {
      kind: 'json' as const,
      status: 406,
      body: {
        error: {
          message: 'Namespaces are managed in the console',
          type: 'UnsupportedOperationException',
          code: 406,
        },
      },
    };
    const report = await runCheck(values, {
      timeoutMs: 5000,
      write: WRITE,
      onEvent: (event) => {
        if (event.type === 'step' && event.step.id === 'write.namespace' && event.step.state === 'pending')
          e.setFault(refusal, 'namespaces');
      },
    });
    const d = report.diagnoses.find((x) => x.code === 'WRITE_NAMESPACE_REFUSED');
    expect(d?.step).toBe('write.namespace');
    expect(d?.evidence.extra?.message).toBe('Namespaces are managed in the console');
    expect(d?.remedy).toContain('--namespace NAME');
  });

  it('cancelled mid-write (the commit hangs), the cleanup still runs and removes what was made', async () => {
    const { sandbox: s, values } = await world('polaris');
    s.catalog.bearer.setFault({ kind: 'silent' }, 'commit');
    const before = await objects(s);
    const controller = new AbortController();
    const running = runCheck(values, {
      timeoutMs: 5000,
      write: WRITE,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'step' && event.step.id === 'write.commit' && event.step.state === 'running')
          setTimeout(() => controller.abort(), 50);
      },
    });
    const report = await running;
    expect(step(report, 'write.commit')?.state).toBe('cancelled');
    expect(step(report, 'write.verify')?.state).toBe('cancelled');
    expect(step(report, 'write.cleanup')).toMatchObject({ state: 'ok' });
    expect(step(report, 'write.cleanup')?.detail).toContain('dropped namespace test_olake');
    expect(report.write?.kept).toBe(false);
    expect(await objects(s)).toEqual(before);
  });

  it('without the write routes advertised: WRITE_ENDPOINT_MISSING before anything is made', async () => {
    const { values, emulator } = await direct({
      endpoints: ['GET /v1/{prefix}/namespaces', 'GET /v1/{prefix}/namespaces/{namespace}'],
    });
    const report = await check(values);
    expect(report.diagnoses.map((x) => [x.code, x.step])).toEqual([
      ['WRITE_ENDPOINT_MISSING', 'write.namespace'],
    ]);
    expect(report.diagnoses[0]?.what).toContain('POST /v1/{prefix}/namespaces');
    expect(step(report, 'write.cleanup')).toMatchObject({ state: 'skipped', detail: 'nothing to clean up' });
    expect(emulator.requests.filter((r) => r.method !== 'GET' && !r.url.includes('/oauth/tokens'))).toEqual(
      [],
    );
  });
});
