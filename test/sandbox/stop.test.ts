// Stopping the sandbox's servers while requests are still running: after close() nothing writes to
// the store or its folder, and nothing prints.
// (Quitting the demo while its tables were seeded printed s3rver's "[winston] Attempt to write logs
// with no transports" after "Sandbox stopped".)
import { rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { PassThrough } from 'node:stream';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, expect, it, vi } from 'vitest';
import { startCatalogEmulator } from '../../src/sandbox/catalog/index.js';
import { s3rverWithClient } from '../support/s3rver.js';

afterEach(() => vi.restoreAllMocks());

it('s3rver: close() resolves with a PUT still receiving its body, and nothing is logged after it', async () => {
  const errors = vi.spyOn(console, 'error');
  const warnings = vi.spyOn(console, 'warn');
  const { directory, server, client } = await s3rverWithClient('floe-s3-stop-');
  // Half of a 1000-byte body: s3rver's handler is running, waiting for the rest.
  const body = new PassThrough();
  body.write('x'.repeat(500));
  const put = client
    .send(new PutObjectCommand({ Bucket: 'warehouse', Key: 'key', Body: body, ContentLength: 1000 }))
    .catch((error: unknown) => error);
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Neither the missing half nor a handler that waits for it forever holds close() (the test's timeout).
  await server.close();
  rmSync(directory, { recursive: true, force: true });
  expect(await put).toBeInstanceOf(Error);
  // A request in flight at close() answered and logged before the logger closed, or never.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const printed = [...errors.mock.calls, ...warnings.mock.calls].flat().join('\n');
  expect(printed).not.toContain('winston');
  client.destroy();
});

it('s3rver: a response still being sent at close() is logged before the logger closes, or never', async () => {
  // Koa's handler settles once it has handed the body to the response; koa-logger logs later, when the
  // response finishes or closes (the CI failure: "[winston] Attempt to write logs with no transports"
  // after "Sandbox stopped"). A client that does not read a large object holds its response open.
  const errors = vi.spyOn(console, 'error');
  const { directory, server, client } = await s3rverWithClient('floe-s3-stop-');
  await client.send(
    new PutObjectCommand({ Bucket: 'warehouse', Key: 'big', Body: Buffer.alloc(32 * 1024 * 1024) }),
  );
  const got = await client.send(new GetObjectCommand({ Bucket: 'warehouse', Key: 'big' }));
  // The headers arrived, the body is not read: the server's write waits on the socket.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await server.close();
  rmSync(directory, { recursive: true, force: true });
  (got.Body as NodeJS.ReadableStream & { destroy(): void }).destroy();
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(errors.mock.calls.flat().join('\n')).not.toContain('winston');
  client.destroy();
});

it('catalog emulator: nothing reaches the object store after close(), which a slow fault does not hold', async () => {
  // A store that takes each PUT at once and each DELETE after 200 ms, noting when it saw each.
  const seen: { method: string; at: number }[] = [];
  const store = createHttpServer((req, res) => {
    seen.push({ method: req.method ?? '', at: Date.now() });
    req.resume();
    if (req.method === 'DELETE') setTimeout(() => res.writeHead(204).end(), 200);
    else res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  const port = (store.address() as { port: number }).port;
  const emulator = await startCatalogEmulator({
    namespaces: [['db']],
    tableLocationBase: 's3://warehouse',
    objectStore: {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      accessKeyId: 'a',
      secretAccessKey: 'b',
    },
  });
  const table = `${emulator.url}/v1/main/namespaces/db/tables/t`;
  const post = (url: string, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  try {
    expect(
      (await post(`${emulator.url}/v1/main/namespaces/db/tables`, { name: 't', schema: SCHEMA })).status,
    ).toBe(200);
    // Two commits: the purge below removes five objects, one by one (three metadata files, two manifest lists).
    for (const id of [1, 2])
      expect((await post(table, { requirements: [], updates: [snapshot(id, id), setMain(id)] })).status).toBe(
        200,
      );
    const drop = fetch(`${table}?purgeRequested=true`, { method: 'DELETE' }).catch((error: unknown) => error);
    while (!seen.some((s) => s.method === 'DELETE')) await new Promise((resolve) => setTimeout(resolve, 10));
    emulator.setFault({ kind: 'slow', delayMs: 600_000 }, 'any');
    const slow = fetch(`${emulator.url}/v1/config`).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Neither the store's answers nor the fault's ten minutes are waited for (the test's timeout is shorter).
    await emulator.close();
    const closed = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(seen.filter((s) => s.at > closed)).toEqual([]);
    expect(seen.filter((s) => s.method === 'DELETE').length).toBeLessThan(5);
    expect(await drop).toBeInstanceOf(Error);
    expect(await slow).toBeInstanceOf(Error);
  } finally {
    store.closeAllConnections();
    store.close();
  }
});

const SCHEMA = { type: 'struct', fields: [{ id: 1, name: 'id', type: 'long', required: true }] };
const snapshot = (id: number, sequence: number) => ({
  action: 'add-snapshot',
  snapshot: {
    'snapshot-id': id,
    'sequence-number': sequence,
    'timestamp-ms': 1_700_000_000_000,
    'manifest-list': `s3://warehouse/db/t/metadata/snap-${id}.avro`,
    summary: { operation: 'append' },
    'schema-id': 0,
  },
});
const setMain = (id: number) => ({
  action: 'set-snapshot-ref',
  'ref-name': 'main',
  type: 'branch',
  'snapshot-id': id,
});
