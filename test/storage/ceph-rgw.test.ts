// The storage probe against a real Ceph RADOS Gateway (started by test/setup/ceph.ts).
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
  PutBucketPolicyCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { diagnosisSchema } from '../../src/check/types.js';
import { diagnoseStorageError } from '../../src/storage/diagnoses.js';
import { cephFromEnv } from '../support/ceph.js';
import { itWithService } from '../support/services.js';
import { runStorage, storageValues } from './harness.js';

const { status, info } = cephFromEnv();
const it = itWithService(status, 'Ceph RGW');
const ALL_OK = {
  'storage.head': 'ok',
  'storage.list': 'ok',
  'storage.put': 'ok',
  'storage.get': 'ok',
  'storage.delete': 'ok',
};

describe('storage probe against Ceph RGW', () => {
  let owner: S3Client;

  const asOwner = (warehouse: string) =>
    storageValues({
      warehouse,
      s3Endpoint: info?.endpoint,
      accessKey: info?.users.owner.accessKey,
      secretKey: info?.users.owner.secretKey,
    });

  const probeKeys = async (bucket: string, prefix: string) =>
    (await owner.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}.floe-probe/` })))
      .Contents ?? [];

  beforeAll(async () => {
    if (!info) return;
    owner = new S3Client({
      region: info.region,
      endpoint: info.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: info.users.owner.accessKey, secretAccessKey: info.users.owner.secretKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    for (const bucket of ['floe-ok', 'floe-shared'])
      await owner.send(new CreateBucketCommand({ Bucket: bucket })).catch((e: { name?: string }) => {
        if (e.name !== 'BucketAlreadyOwnedByYou' && e.name !== 'BucketAlreadyExists') throw e;
      });
    const policy = {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { AWS: [`arn:aws:iam:::user/${info.users.reader.uid}`] },
          Action: ['s3:ListBucket', 's3:GetObject'],
          Resource: ['arn:aws:s3:::floe-shared', 'arn:aws:s3:::floe-shared/*'],
        },
      ],
    };
    await owner.send(new PutBucketPolicyCommand({ Bucket: 'floe-shared', Policy: JSON.stringify(policy) }));
  });

  afterAll(() => owner?.destroy());

  it('passes all five steps and deletes its probe object', async () => {
    const run = await runStorage(asOwner('s3://floe-ok/olake/raw'));
    expect(run.states).toEqual(ALL_OK);
    expect(run.diagnoses).toEqual([]);
    expect(run.steps['storage.put']?.detail).toMatch(
      /^wrote olake\/raw\/\.floe-probe\/[0-9a-f-]{36} \(\d+ bytes\)$/,
    );
    expect(run.steps['storage.get']?.detail).toMatch(/identical/);
    expect(await probeKeys('floe-ok', 'olake/raw/')).toEqual([]);
  });

  it('emits every step as pending first, in order', async () => {
    const run = await runStorage(asOwner('s3://floe-ok'));
    const first = run.events
      .slice(0, 5)
      .map((e) => (e.type === 'step' ? `${e.step.id}:${e.step.state}` : e.type));
    expect(first).toEqual([
      'storage.head:pending',
      'storage.list:pending',
      'storage.put:pending',
      'storage.get:pending',
      'storage.delete:pending',
    ]);
    expect(run.states).toEqual(ALL_OK);
  });

  it('read-only skips put, get and delete', async () => {
    const run = await runStorage(asOwner('s3://floe-ok/olake'), { readOnly: true });
    expect(run.states).toEqual({
      ...ALL_OK,
      'storage.put': 'skipped',
      'storage.get': 'skipped',
      'storage.delete': 'skipped',
    });
    expect(run.steps['storage.put']?.detail).toBe('read-only');
    expect(
      run.events.filter((e) => e.type === 'trace').map((e) => e.type === 'trace' && e.entry.method),
    ).toEqual(['HEAD', 'GET']);
  });

  it('a wrong secret is SignatureDoesNotMatch, and no secret leaks', async () => {
    const secret = 'SENTINEL-secret-0123456789abcdef0123456789';
    const run = await runStorage({
      ...asOwner('s3://floe-ok'),
      fields: { ...asOwner('s3://floe-ok').fields, secretKey: secret },
    });
    expect(run.states['storage.head']).toBe('failed');
    expect(run.states['storage.list']).toBe('skipped');
    const [d] = run.diagnoses;
    expect(d?.code).toBe('S3_SIGNATURE_MISMATCH');
    expect(d?.evidence).toMatchObject({ status: 403, errorCode: 'SignatureDoesNotMatch' });
    expect(d?.evidence.requestId).toMatch(/^tx/);
    const all = JSON.stringify(run.events);
    expect(all).not.toContain(secret);
    expect(all).not.toContain(info?.users.owner.accessKey);
    expect(d?.evidence.extra?.accessKey).toBe(`••••${info?.users.owner.accessKey.slice(-4)}`);
  });

  it('an unknown access key is InvalidAccessKeyId', async () => {
    const accessKey = 'SENTINELACCESSKEY0042';
    const run = await runStorage({
      ...asOwner('s3://floe-ok'),
      fields: { ...asOwner('s3://floe-ok').fields, accessKey },
    });
    expect(run.diagnoses.map((d) => [d.code, d.step, d.evidence.errorCode])).toEqual([
      ['S3_INVALID_ACCESS_KEY', 'storage.head', 'InvalidAccessKeyId'],
    ]);
    expect(JSON.stringify(run.events)).not.toContain(accessKey);
  });

  it('a missing bucket is NoSuchBucket, with the request URL as evidence', async () => {
    const run = await runStorage(asOwner('s3://floe-missing/x'));
    const [d] = run.diagnoses;
    expect(d?.code).toBe('S3_NO_SUCH_BUCKET');
    expect(d?.evidence).toMatchObject({ status: 404, errorCode: 'NoSuchBucket' });
    expect(d?.evidence.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${info?.port}/floe-missing`));
    expect(d?.what).toContain('"floe-missing"');
    expect(() => diagnosisSchema.parse(d)).not.toThrow();
  });

  it('a too-short bucket name: RGW reads it as missing, and its InvalidBucketName error is diagnosed', async () => {
    const run = await runStorage(asOwner('s3://ab'));
    expect(run.diagnoses.map((d) => [d.code, d.evidence.status])).toEqual([['S3_NO_SUCH_BUCKET', 404]]);
    const error = await owner.send(new CreateBucketCommand({ Bucket: 'ab' })).catch((e: unknown) => e);
    const d = diagnoseStorageError(error, {
      step: 'storage.head',
      bucket: 'ab',
      region: 'us-east-1',
      storage: 's3-compatible',
      endpoint: info?.endpoint,
      pathStyle: true,
      timeoutMs: 1000,
      timedOut: false,
      credentials: 'profile',
    });
    expect(d.code).toBe('S3_INVALID_BUCKET_NAME');
    expect(d.evidence).toMatchObject({ status: 400, errorCode: 'InvalidBucketName' });
    expect(d.evidence.requestId).toMatch(/^tx/);
  });

  it('a user who may read but not write fails on storage.put with write AccessDenied', async () => {
    const run = await runStorage(
      storageValues({
        warehouse: 's3://floe-shared/olake',
        s3Endpoint: info?.endpoint,
        accessKey: info?.users.reader.accessKey,
        secretKey: info?.users.reader.secretKey,
      }),
    );
    expect(run.states).toEqual({
      'storage.head': 'ok',
      'storage.list': 'ok',
      'storage.put': 'failed',
      'storage.get': 'skipped',
      'storage.delete': 'skipped',
    });
    const [d] = run.diagnoses;
    expect(d).toMatchObject({ code: 'S3_ACCESS_DENIED_WRITE', step: 'storage.put' });
    expect(d?.evidence).toMatchObject({ status: 403, errorCode: 'AccessDenied' });
    expect(d?.what).toContain('(write)');
    expect(d?.remedy).toContain('s3:PutObject');
  });

  it('the aws kind with a localhost endpoint uses virtual-host style: ENOTFOUND, with a path-style remedy', async () => {
    const values = storageValues({
      warehouse: 's3://floe-ok',
      storage: 'aws',
      s3Endpoint: `http://localhost:${info?.port}`,
      accessKey: info?.users.owner.accessKey,
      secretKey: info?.users.owner.secretKey,
    });
    const run = await runStorage(values);
    const [d] = run.diagnoses;
    expect(d?.code).toBe('S3_VIRTUAL_HOST_DNS');
    expect(d?.evidence.errorCode).toBe('ENOTFOUND');
    expect(d?.what).toContain('floe-ok.localhost');
    expect(d?.remedy).toMatch(/path style/);
  });

  it('aborting while listing cancels the running and the remaining steps', async () => {
    const controller = new AbortController();
    const run = await runStorage(asOwner('s3://floe-ok'), {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'step' && e.step.id === 'storage.list' && e.step.state === 'running')
          controller.abort();
      },
    });
    expect(run.states).toEqual({
      'storage.head': 'ok',
      'storage.list': 'cancelled',
      'storage.put': 'cancelled',
      'storage.get': 'cancelled',
      'storage.delete': 'cancelled',
    });
    expect(run.diagnoses).toEqual([]);
  });

  it('aborting after the write warns that the probe object remains (and it does)', async () => {
    const controller = new AbortController();
    const run = await runStorage(asOwner('s3://floe-ok/aborted'), {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'step' && e.step.id === 'storage.get' && e.step.state === 'running')
          controller.abort();
      },
    });
    expect(run.states).toMatchObject({
      'storage.put': 'ok',
      'storage.get': 'cancelled',
      'storage.delete': 'cancelled',
    });
    const left = await probeKeys('floe-ok', 'aborted/');
    expect(left).toHaveLength(1);
    expect(run.warnings).toEqual([expect.stringContaining(`s3://floe-ok/${left[0]?.Key}`)]);
    await owner.send(new DeleteObjectCommand({ Bucket: 'floe-ok', Key: left[0]?.Key }));
  });
});
