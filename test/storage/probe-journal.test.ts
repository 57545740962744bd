// The storage check's probe object is journaled in `floe test --write` (the two checks run side by
// side, so a kill may come between its write and its delete): recorded before the PutObject, forgotten
// after the DeleteObject; an earlier run's record is removed by the next write check; a record of the
// same run is left to the storage chain that made it.
import { hostname } from 'node:os';
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Chain } from '../../src/check/chain.js';
import { memoryJournal, type WriteRecord, writeScope } from '../../src/check/journal.js';
import { loadChains, runCheck } from '../../src/connection/run.js';
import type { Values } from '../../src/destination/fields.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';

let sandbox: Sandbox;
let values: Values;
let s3: S3Client;
beforeAll(async () => {
  sandbox = await startSandbox({ catalog: 'polaris', jobs: 0, ports: { catalog: 0, olake: 0, s3: 0 } });
  const { catalog } = sandbox;
  values = sandboxProfile({
    flavour: 'polaris',
    facts: catalog.facts,
    catalogUrl: catalog.url,
    tokenUrl: catalog.tokenUrl,
    s3: sandbox.s3,
  });
  s3 = new S3Client({
    region: 'us-east-1',
    endpoint: sandbox.s3.url,
    forcePathStyle: true,
    credentials: { accessKeyId: sandbox.s3.accessKey, secretAccessKey: sandbox.s3.secretKey },
  });
});
afterAll(async () => {
  s3?.destroy();
  await sandbox?.stop();
});

async function keys(): Promise<string[]> {
  const out = await s3.send(new ListObjectsV2Command({ Bucket: sandbox.s3.bucket }));
  return (out.Contents ?? []).map((o) => o.Key ?? '').sort();
}

/** A probe record as a storage chain makes it, for `key` in the sandbox's bucket. */
function probeRecord(key: string, extra: Partial<WriteRecord>): WriteRecord {
  const bucket = sandbox.s3.bucket;
  return {
    id: `probe-${key}`,
    profile: 'sandbox',
    host: hostname(),
    pid: process.pid,
    scope: writeScope(values),
    startedAt: new Date().toISOString(),
    namespace: [],
    createdNamespaces: [],
    table: null,
    location: `s3://${bucket}/.floe-probe`,
    tableUuid: null,
    catalogFiles: [],
    objects: [`s3://${bucket}/${key}`],
    commit: 'none',
    kept: false,
    ...extra,
  };
}

it('records the probe before writing it and forgets it once deleted', async () => {
  const journal = memoryJournal();
  const seen: string[][] = [];
  const save = journal.save;
  journal.save = async (record) => {
    if (record.table === null && record.namespace.length === 0) {
      // Recorded before the PutObject: the object is not in the bucket yet.
      const key = record.objects[0]!.replace(`s3://${sandbox.s3.bucket}/`, '');
      expect(await keys()).not.toContain(key);
      seen.push(record.objects);
    }
    await save(record);
  };
  const report = await runCheck(values, {
    timeoutMs: 10_000,
    write: { namespace: ['test_olake'], keep: false, journal, profile: 'sandbox' },
  });
  expect(report.ok, JSON.stringify(report.diagnoses)).toBe(true);
  expect(seen).toHaveLength(1);
  expect(seen[0]![0]).toMatch(/^s3:\/\/warehouse\/\.floe-probe\/[0-9a-f-]{36}$/);
  expect([...journal.records.values()]).toEqual([]);
  expect((await keys()).filter((k) => k.startsWith('.floe-probe/'))).toEqual([]);
});

it('an earlier run’s probe (its floe gone) is deleted by the next write check, by its exact key', async () => {
  const key = '.floe-probe/00000000-0000-4000-8000-000000000001';
  await s3.send(new PutObjectCommand({ Bucket: sandbox.s3.bucket, Key: key, Body: 'probe' }));
  const journal = memoryJournal();
  await journal.save(probeRecord(key, { host: 'another-host', run: 'an-earlier-run' }));
  const report = await runCheck(values, {
    timeoutMs: 10_000,
    write: { namespace: ['test_olake'], keep: false, journal, profile: 'sandbox' },
  });
  expect(report.ok, JSON.stringify(report.diagnoses)).toBe(true);
  expect(report.steps.find((s) => s.id === 'write.cleanup')?.detail).toContain('earlier check storage probe');
  expect(await keys()).not.toContain(key);
  expect([...journal.records.values()]).toEqual([]);
});

it('a probe record of the same run is left to the storage chain that made it', async () => {
  const key = '.floe-probe/00000000-0000-4000-8000-000000000002';
  await s3.send(new PutObjectCommand({ Bucket: sandbox.s3.bucket, Key: key, Body: 'probe' }));
  const journal = memoryJournal();
  const real = await loadChains(true);
  // A storage chain that has written its probe (and recorded it) while the write chain cleans up.
  const storage: Chain = async (v, opts) => {
    await journal.save(probeRecord(key, { run: opts.shared?.runId }));
    await real.storage(v, opts);
  };
  try {
    const report = await runCheck(values, {
      timeoutMs: 10_000,
      chains: { ...real, storage },
      write: { namespace: ['test_olake'], keep: false, journal, profile: 'sandbox' },
    });
    expect(report.ok, JSON.stringify(report.diagnoses)).toBe(true);
    expect(await keys()).toContain(key);
    expect([...journal.records.keys()]).toEqual([`probe-${key}`]);
  } finally {
    await s3.send(new DeleteObjectCommand({ Bucket: sandbox.s3.bucket, Key: key }));
  }
});
