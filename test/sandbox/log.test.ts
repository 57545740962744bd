// Issue 28, item 3: the sandbox explains itself. Every request its emulators answer goes to its log
// with the status (and an error answer's message), every error they fail with too, and a 500 carries
// that message. The catalog's failure is the one the built sandbox had: its S3 client would not load.
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../src/lazy.js', async (original) => {
  const real = await original<typeof import('../../src/lazy.js')>();
  return {
    ...real,
    lazy: { ...real.lazy, s3: () => Promise.reject(new TypeError('r.S3Client is not a constructor')) },
  };
});

const { startCatalogEmulator } = await import('../../src/sandbox/catalog/index.js');
const { answerMessage, createSandboxLog, logRequests } = await import('../../src/sandbox/log.js');
const { startOlakeUiEmulator } = await import('../../src/sandbox/olake-ui/index.js');
const { startSandbox } = await import('../../src/sandbox/index.js');
const { send } = await import('./support.js');

const SCHEMA = { type: 'struct', fields: [{ id: 1, name: 'id', type: 'long', required: true }] };
const clock = () => new Date('2026-01-02T03:04:05.678Z');

describe('the catalog emulator failing', () => {
  it('answers 500 with its message, logs it, and closes without an unhandled rejection', async () => {
    const log = createSandboxLog(100, clock);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const emu = await startCatalogEmulator({
      namespaces: [['db']],
      log,
      objectStore: {
        endpoint: 'http://127.0.0.1:9',
        region: 'us-east-1',
        accessKeyId: 'a',
        secretAccessKey: 'b',
      },
    });
    try {
      const answer = await send('POST', `${emu.url}/v1/main/namespaces/db/tables`, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 't', schema: SCHEMA }),
      });
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({
        error: {
          message: 'the catalog emulator failed: r.S3Client is not a constructor',
          type: 'TypeError',
          code: 500,
        },
      });
      expect(log.lines()).toEqual([
        '03:04:05.678 catalog  POST /v1/main/namespaces/db/tables failed: TypeError: r.S3Client is not a constructor',
      ]);
    } finally {
      await emu.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      process.off('unhandledRejection', onUnhandled);
    }
    // Leaving the demo crashed on exactly this: the object store's close() left the failed load unhandled.
    expect(unhandled).toEqual([]);
  });
});

describe('the sandbox log', () => {
  it('a request line per answer with the status, an error answer with its message, no query string', async () => {
    const sandbox = await startSandbox({
      ports: { catalog: 0, olake: 0, s3: 0 },
      jobs: 1,
      catalog: 'polaris',
    });
    try {
      const lines: string[] = [];
      const stop = sandbox.log.follow((line) => lines.push(line));
      await send('GET', `${sandbox.catalog.url}/v1/config?warehouse=olake_catalog`);
      await send('GET', `${sandbox.s3.url}/warehouse/missing?X-Amz-Signature=abc`);
      await send('GET', `${sandbox.olake.url}/api/v1/project/123/jobs`);
      await vi.waitFor(() => expect(lines).toHaveLength(3));
      stop();
      expect(lines[0]).toMatch(
        /^\d\d:\d\d:\d\d\.\d{3} catalog {2}GET \/api\/catalog\/v1\/config\?… → 401 \(\d+ ms\): /,
      );
      expect(lines[1]).toMatch(
        /^\S+ s3 {7}GET \/warehouse\/missing\?… → 404 \(\d+ ms\): The specified key does not exist\.$/,
      );
      expect(lines[2]).toMatch(/^\S+ olake-ui GET \/api\/v1\/project\/123\/jobs → 401 \(\d+ ms\): /);
      expect(lines.join('\n')).not.toContain('abc');
      expect(sandbox.log.lines()).toEqual(lines);
    } finally {
      await sandbox.stop();
    }
  });

  it('keeps the latest lines only', () => {
    const log = createSandboxLog(2, clock);
    for (const n of [1, 2, 3]) log.add('gcs', `line ${n}`);
    expect(log.lines()).toEqual(['03:04:05.678 gcs      line 2', '03:04:05.678 gcs      line 3']);
  });

  it('the OLake UI emulator failing: a 500 with its message, and the log says so', async () => {
    const log = createSandboxLog(100, clock);
    const emu = await startOlakeUiEmulator({
      log,
      checkDestination: () => Promise.reject(new Error('olake check crashed')),
    });
    try {
      const json = { 'content-type': 'application/json' };
      const login = await fetch(`${emu.url}/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ username: 'admin', password: 'password' }),
      });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const response = await fetch(`${emu.url}/api/v1/project/123/destinations/test`, {
        method: 'POST',
        headers: { ...json, cookie },
        body: JSON.stringify({ type: 'iceberg', version: 'v0.2.0', config: '{}' }),
      });
      const answer = { status: response.status, text: await response.text() };
      expect(answer.status).toBe(500);
      expect(answer.text).toContain('olake check crashed');
      expect(log.lines()).toContain(
        '03:04:05.678 olake-ui POST /api/v1/project/123/destinations/test failed: Error: olake check crashed',
      );
      expect(log.lines().at(-1)).toMatch(
        /^03:04:05\.678 olake-ui POST \/api\/v1\/project\/123\/destinations\/test → 500 \(\d+ ms\): internal error: olake check crashed$/,
      );
    } finally {
      await emu.close();
    }
  });
});

describe('answerMessage', () => {
  it.each([
    [
      '{"error":{"message":"Namespace does not exist: x","type":"NoSuchNamespaceException","code":404}}',
      'NoSuchNamespaceException: Namespace does not exist: x',
    ],
    ['{"error":"invalid_client","error_description":"Bad client"}', 'invalid_client: Bad client'],
    ['{"success":false,"message":"not found"}', 'not found'],
    [
      '<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
      'The specified key does not exist.',
    ],
    ['<html>502 Bad Gateway</html>', undefined],
    ['null', undefined],
  ])('%s', (body, message) => {
    expect(answerMessage(body)).toBe(message);
  });

  // Its time is measured by `npm run bench` (no timed assertions in tests).
  it('reads a long unterminated XML answer to its end', () => {
    expect(answerMessage('<Message>'.repeat(100_000))).toBeUndefined();
  });
});

it('logRequests without a log leaves the server as it is', async () => {
  const { createServer } = await import('node:http');
  const server = createServer();
  logRequests(server, 'catalog', undefined);
  expect(server.listenerCount('request')).toBe(0);
});
