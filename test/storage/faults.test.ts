// The storage probe against endpoints that misbehave (HTML, redirects, silence, huge or garbled
// bodies, TLS mismatch, altered objects) and against credential failures: real SDK errors from
// real HTTP exchanges on loopback.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/check/scrub.js';
import { EMPTY_LIST, type FakeS3, fakeS3, type Handler, s3Error, xml } from './fake-s3.js';
import { runStorage, storageValues } from './harness.js';

const KEYS = { accessKey: 'AKIAFAKEFAKEFAKE0001', secretKey: 'SENTINEL-fake-secret-0000000000000000000' };
let server: FakeS3 | undefined;

async function probe(
  handler: Handler,
  over: Parameters<typeof storageValues>[0] | object = {},
  timeoutMs = 5000,
) {
  server = await fakeS3(handler);
  return runStorage(
    storageValues({ warehouse: 's3://bucket/olake', s3Endpoint: server.endpoint, ...KEYS, ...over }),
    {
      timeoutMs,
    },
  );
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('storage probe against misbehaving endpoints', () => {
  it('an HTML page (a console, a proxy) is not S3', async () => {
    const run = await probe((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><body>MinIO Console</body></html>');
    });
    expect(run.states['storage.head']).toBe('failed');
    expect(run.diagnoses.map((d) => [d.code, d.evidence.status])).toEqual([['S3_NOT_S3', 200]]);
    expect(run.diagnoses[0]?.remedy).toContain('S3 API');
  });

  it('a redirect is reported with its target, credentials removed', async () => {
    const run = await probe((_req, res) => {
      res.writeHead(302, { location: 'http://user:pw@127.0.0.1:1/login?next=%2F' });
      res.end();
    });
    const [d] = run.diagnoses;
    expect(d?.code).toBe('S3_REDIRECT');
    expect(d?.evidence.status).toBe(302);
    expect(d?.evidence.extra?.location).toBe('http://127.0.0.1:1/login?next=%2F');
  });

  it('301 with x-amz-bucket-region names the bucket’s real region', async () => {
    const run = await probe((req, res) =>
      xml(
        res,
        301,
        req.method === 'HEAD'
          ? ''
          : s3Error('PermanentRedirect', 'The bucket must be addressed using the specified endpoint.'),
        { 'x-amz-bucket-region': 'eu-west-2' },
      ),
    );
    const [d] = run.diagnoses;
    expect(d?.code).toBe('S3_WRONG_REGION');
    expect(d?.what).toContain('eu-west-2');
    expect(d?.remedy).toBe('Set Region to eu-west-2');
    expect(d?.evidence).toMatchObject({
      status: 301,
      requestId: 'FAKE-REQ-1',
      extra: { bucketRegion: 'eu-west-2' },
    });
  });

  it('silence is a timeout, not a hang', async () => {
    const run = await probe(() => undefined, {}, 300);
    const [d] = run.diagnoses;
    expect(d?.code).toBe('S3_TIMEOUT');
    expect(d?.what).toContain('300 ms');
    expect(run.states['storage.list']).toBe('skipped');
  });

  it('a 5xx is a server error with its request id', async () => {
    const run = await probe((_req, res) =>
      xml(res, 503, s3Error('SlowDown', 'Please reduce your request rate.')),
    );
    expect(run.diagnoses.map((d) => [d.code, d.evidence.status, d.evidence.requestId])).toEqual([
      ['S3_SERVER_ERROR', 503, 'FAKE-REQ-1'],
    ]);
  });

  it('a huge listing is refused (no content-length)', async () => {
    const run = await probe((req, res) => {
      if (req.method === 'HEAD') return xml(res, 200, '');
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write('<?xml version="1.0"?><ListBucketResult>');
      for (let i = 0; i < 40; i++) res.write(`<Contents><Key>${'k'.repeat(65_536)}</Key></Contents>`);
      res.end('</ListBucketResult>');
    });
    expect(run.states).toMatchObject({ 'storage.head': 'ok', 'storage.list': 'failed' });
    expect(run.diagnoses.map((d) => d.code)).toEqual(['S3_RESPONSE_TOO_LARGE']);
  });

  it('a huge listing is refused (content-length)', async () => {
    const big = Buffer.alloc(2 << 20, 'a');
    const run = await probe((req, res) => {
      if (req.method === 'HEAD') return xml(res, 200, '');
      res.writeHead(200, { 'content-type': 'application/xml', 'content-length': String(big.length) });
      res.end(big);
    });
    expect(run.diagnoses.map((d) => d.code)).toEqual(['S3_RESPONSE_TOO_LARGE']);
  });

  it('a garbled listing is not S3', async () => {
    const run = await probe((req, res) =>
      xml(res, 200, req.method === 'HEAD' ? '' : '\u0000\u0001garbage{{'),
    );
    expect(run.diagnoses.map((d) => [d.step, d.code])).toEqual([['storage.list', 'S3_NOT_S3']]);
  });

  it('https to a plain-http port is a TLS failure that suggests http://', async () => {
    server = await fakeS3((_req, res) => xml(res, 200, ''));
    const run = await runStorage(
      storageValues({ warehouse: 's3://bucket', s3Endpoint: `https://127.0.0.1:${server.port}`, ...KEYS }),
    );
    const [d] = run.diagnoses;
    expect(d?.code).toBe('S3_TLS');
    expect(d?.remedy).toContain('http://');
  });

  it('a closed port is connection refused', async () => {
    server = await fakeS3(() => undefined);
    const endpoint = server.endpoint;
    await server.close();
    server = undefined;
    const run = await runStorage(storageValues({ warehouse: 's3://bucket', s3Endpoint: endpoint, ...KEYS }));
    expect(run.diagnoses.map((d) => [d.code, d.evidence.errorCode])).toEqual([
      ['S3_CONNECTION_REFUSED', 'ECONNREFUSED'],
    ]);
  });

  it('an object read back altered is a mismatch, and the probe is still deleted', async () => {
    const run = await probe((req, res) => {
      if (req.method === 'GET' && req.url?.includes('list-type=2')) return xml(res, 200, EMPTY_LIST);
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('something else');
      }
      res.writeHead(req.method === 'DELETE' ? 204 : 200, { etag: '"0"' });
      res.end();
    });
    expect(run.states).toEqual({
      'storage.head': 'ok',
      'storage.list': 'ok',
      'storage.put': 'ok',
      'storage.get': 'failed',
      'storage.delete': 'ok',
    });
    expect(run.diagnoses.map((d) => d.code)).toEqual(['S3_PROBE_MISMATCH']);
    expect(server?.requests.filter((r) => r.startsWith('DELETE /bucket/olake/.floe-probe/'))).toHaveLength(1);
  });

  it('a server echoing the keys back does not get them into the report', async () => {
    const run = await probe((req, res) =>
      xml(
        res,
        req.method === 'HEAD' ? 200 : 400,
        req.method === 'HEAD'
          ? ''
          : `<Error><Message>bad pair ${KEYS.accessKey}:${KEYS.secretKey}</Message></Error>`,
      ),
    );
    const [d] = run.diagnoses;
    expect(d?.code).toBe('S3_REQUEST_FAILED');
    expect(d?.what).toContain('bad pair ••••0001:••••0000');
    expect(JSON.stringify(run.events)).not.toContain(KEYS.secretKey);
    expect(JSON.stringify(run.events)).not.toContain(KEYS.accessKey);
  });

  it('an already aborted signal cancels every step without a request', async () => {
    server = await fakeS3((_req, res) => xml(res, 200, ''));
    const controller = new AbortController();
    controller.abort();
    const run = await runStorage(
      storageValues({ warehouse: 's3://bucket', s3Endpoint: server.endpoint, ...KEYS }),
      {
        signal: controller.signal,
      },
    );
    expect(Object.values(run.states)).toEqual(Array(5).fill('cancelled'));
    expect(server.requests).toEqual([]);
  });

  it('trace entries never carry the Authorization header', async () => {
    const run = await probe((_req, res) => xml(res, 404, ''));
    const traces = run.events.flatMap((e) => (e.type === 'trace' ? [e.entry] : []));
    expect(traces.length).toBeGreaterThan(0);
    for (const t of traces) expect(t.requestHeaders.authorization).toBe(REDACTED);
    expect(JSON.stringify(run.events)).not.toContain(KEYS.secretKey);
    expect(JSON.stringify(run.events)).not.toContain(KEYS.accessKey);
  });
});

describe('storage probe credential failures (default credential chain)', () => {
  const saved = { ...process.env };
  let dir = '';

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'floe-aws-'));
    for (const name of Object.keys(process.env)) if (name.startsWith('AWS_')) delete process.env[name];
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    process.env.AWS_EC2_METADATA_DISABLED = 'true';
    process.env.AWS_CONFIG_FILE = join(dir, 'config');
    process.env.AWS_SHARED_CREDENTIALS_FILE = join(dir, 'credentials');
  });

  afterEach(() => {
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });

  it('no keys and none in the environment is S3_NO_CREDENTIALS, before any request', async () => {
    server = await fakeS3((_req, res) => xml(res, 200, ''));
    const run = await runStorage(storageValues({ warehouse: 's3://bucket', s3Endpoint: server.endpoint }));
    expect(run.diagnoses.map((d) => [d.step, d.code])).toEqual([['storage.head', 'S3_NO_CREDENTIALS']]);
    expect(run.diagnoses[0]?.remedy).toContain('AWS_ACCESS_KEY_ID');
    expect(server.requests).toEqual([]);
  });

  it('a role the identity may not assume is S3_ASSUME_ROLE_DENIED with the assume-role command', async () => {
    const principal = 'arn:aws:iam::123456789012:user/olake';
    const role = 'arn:aws:iam::123456789012:role/olake-writer';
    server = await fakeS3((_req, res) => {
      res.writeHead(403, { 'content-type': 'text/xml', 'x-amzn-requestid': 'STS-REQ-1' });
      res.end(
        `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>User: ${principal} is not authorized to perform: sts:AssumeRole on resource: ${role}</Message></Error><RequestId>STS-REQ-1</RequestId></ErrorResponse>`,
      );
    });
    writeFileSync(
      join(dir, 'config'),
      `[profile writer]\nrole_arn = ${role}\nsource_profile = base\nregion = us-east-1\n[profile base]\nregion = us-east-1\n`,
    );
    writeFileSync(
      join(dir, 'credentials'),
      `[base]\naws_access_key_id = AKIABASEBASEBASE0001\naws_secret_access_key = SENTINEL-base-secret-000000000000000000\n`,
    );
    process.env.AWS_PROFILE = 'writer';
    process.env.AWS_ENDPOINT_URL_STS = server.endpoint;
    const run = await runStorage(storageValues({ warehouse: 's3://bucket', s3Endpoint: server.endpoint }));
    const [d] = run.diagnoses;
    expect(d?.code).toBe('S3_ASSUME_ROLE_DENIED');
    expect(d?.what).toBe(`${principal} is not authorized to perform sts:AssumeRole on ${role}`);
    expect(d?.remedy).toContain(`aws sts assume-role --role-arn ${role} --role-session-name test-session`);
    expect(d?.evidence.extra).toEqual({ principal, role });
    expect(server.requests.every((r) => r.startsWith('POST'))).toBe(true);
    expect(JSON.stringify(run.events)).not.toContain('SENTINEL');
  });
});
