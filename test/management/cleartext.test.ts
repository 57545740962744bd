// floe login over plain http to another host warns, as catalog secrets do, before the password leaves.
// The host is reached only through a loopback proxy that refuses everything: nothing leaves the machine.
// The built CLI (floeSpawned): a spawned floe takes HTTP_PROXY from the environment it inherits.
import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { floeSpawned, tempConfigDir } from './support.js';

let proxyUrl: string;
const proxy = createServer((socket) =>
  socket.once('data', () => socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n')),
);
beforeAll(async () => {
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
});
afterAll(() => proxy.close());

it('floe login to http://olake.example warns that the password and the cookie travel in clear', async () => {
  const r = await floeSpawned(
    ['login', '--url', 'http://olake.example:8000', '--password-stdin', '--insecure-storage'],
    {
      configDir: tempConfigDir(),
      input: 'SENTINEL-password-cleartext',
      env: { HTTP_PROXY: proxyUrl, NO_PROXY: '' },
    },
  );
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    '! The password (and then the session cookie) is sent to http://olake.example:8000 over plain http:// (unencrypted, readable on the network); use https://',
  );
  expect(r.stderr).toContain(
    `The proxy ${proxyUrl} could not open a connection to http://olake.example:8000 (HTTP 502)`,
  );
  expect(r.stderr + r.stdout).not.toContain('SENTINEL-password-cleartext');
});
