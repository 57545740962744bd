// Proxies from the environment, against a small CONNECT proxy on loopback started here: the catalog
// and object-store checks and the OLake UI client go through it, the connect step and the trace say
// so, and a proxy that refuses the tunnel or is not there gets its own diagnosis. `floe test` is the built
// CLI (floeSpawned): a spawned floe's io.env is the process's environment, which is what this file checks
// a floe inherits (test/net/command-env.test.ts runs floe in process with proxies only in its Io's env).
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReportSchema } from '../../src/check/types.js';
import { ConfigStore } from '../../src/config/store.js';
import { traceLines } from '../../src/connection/text.js';
import { ManagementClient } from '../../src/management/client.js';
import { proxyFor, proxyLabel } from '../../src/net/proxy.js';
import { SANDBOX, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { queryString } from '../../src/storage/proxy-handler.js';
import { floeSpawned, tempConfigDir } from '../management/support.js';
import { ConnectProxy } from '../support/connect-proxy.js';
import { refusedPort } from '../support/ports.js';

describe('reading the proxy variables', () => {
  const url = new URL('https://catalog.example.com/api/catalog');
  it('takes HTTPS_PROXY for https, HTTP_PROXY for http, lower-case first', () => {
    expect(proxyFor(url, { HTTPS_PROXY: 'http://p:3128' })?.host).toBe('p:3128');
    expect(proxyFor(url, { HTTP_PROXY: 'http://h:1' })?.host).toBe('h:1');
    expect(proxyFor(url, { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' })?.host).toBe(
      'lower:1',
    );
    expect(proxyFor(new URL('http://a.example.com'), { HTTPS_PROXY: 'http://p:1' })).toBeUndefined();
    expect(proxyFor(url, { HTTPS_PROXY: 'proxy.corp:8080' })?.href).toBe('http://proxy.corp:8080/');
  });

  it('honours NO_PROXY: *, a host, a .domain, host:port', () => {
    const env = { HTTPS_PROXY: 'http://p:3128' };
    expect(proxyFor(url, { ...env, NO_PROXY: '*' })).toBeUndefined();
    expect(proxyFor(url, { ...env, NO_PROXY: 'localhost, catalog.example.com' })).toBeUndefined();
    expect(proxyFor(url, { ...env, no_proxy: '.example.com' })).toBeUndefined();
    expect(proxyFor(url, { ...env, NO_PROXY: 'example.com:443' })).toBeUndefined();
    expect(proxyFor(url, { ...env, NO_PROXY: 'example.com:8443' })).toBeDefined();
    expect(proxyFor(url, { ...env, NO_PROXY: 'other.com' })).toBeDefined();
  });

  it('never shows the proxy credentials', () => {
    expect(proxyLabel(new URL('http://user:s3cret@proxy:3128'))).toBe('http://proxy:3128');
    const line = traceLines({
      method: 'GET',
      url: 'https://c/v1/config',
      status: 200,
      durationMs: 3,
      requestHeaders: {},
      responseHeaders: {},
      proxy: 'http://proxy:3128',
    })[0];
    expect(line).toBe('GET https://c/v1/config (through proxy http://proxy:3128) → 200 · 3 ms');
  });

  it('builds the S3 query string as the SDK signs it', () => {
    expect(queryString({ 'list-type': '2', prefix: 'a b/(c)*', 'max-keys': '1', versioning: null })).toBe(
      'list-type=2&prefix=a%20b%2F%28c%29%2A&max-keys=1&versioning',
    );
  });
});

describe('through a CONNECT proxy on loopback', () => {
  let sandbox: Sandbox;
  let proxy: ConnectProxy;
  let proxyUrl: string;
  let configDir: string;
  const secrets = () => ({
    FLOE_TOKEN: SANDBOX.token,
    FLOE_ACCESS_KEY: sandbox.s3.accessKey,
    FLOE_SECRET_KEY: sandbox.s3.secretKey,
  });
  const through = (url: string) => ({
    HTTPS_PROXY: url,
    HTTP_PROXY: url,
    NO_PROXY: undefined,
    no_proxy: undefined,
  });

  beforeAll(async () => {
    sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 3 });
    proxy = new ConnectProxy();
    proxyUrl = await proxy.listen();
    configDir = tempConfigDir();
    new ConfigStore(configDir).saveProfile(
      'sandbox',
      {
        preset: 'rest',
        authType: 'token',
        storage: 's3-compatible',
        targetVersion: 'latest',
        fields: {
          catalogUrl: sandbox.catalog.url,
          warehouse: `s3://${SANDBOX.bucket}`,
          region: 'us-east-1',
          s3Endpoint: sandbox.s3.url,
        },
      },
      'env',
      [],
    );
  });

  afterAll(async () => {
    await proxy?.close();
    await sandbox?.stop();
  });

  it('floe test passes with the catalog and the object store reached through the proxy', async () => {
    proxy.targets.length = 0;
    const run = await floeSpawned(['test', '--json', '--profile', 'sandbox'], {
      configDir,
      env: { ...secrets(), ...through(proxyUrl) },
    });
    expect(run.code, run.stderr).toBe(0);
    const report = checkReportSchema.parse(JSON.parse(run.stdout));
    expect(report.ok).toBe(true);
    expect(report.steps.some((s) => s.id === 'storage.put' && s.state === 'ok')).toBe(true);
    const connect = report.steps.find((s) => s.id === 'catalog.connect');
    expect(connect?.detail).toContain(`through proxy ${proxyUrl}: DNS`);
    expect(connect?.detail).toContain('CONNECT');
    const catalogHost = new URL(sandbox.catalog.url).host;
    const s3Host = new URL(sandbox.s3.url).host;
    expect(proxy.targets).toContain(catalogHost);
    expect(proxy.targets).toContain(s3Host);
  });

  it('NO_PROXY sends the requests direct', async () => {
    proxy.targets.length = 0;
    const run = await floeSpawned(['test', '--json', '--profile', 'sandbox'], {
      configDir,
      env: { ...secrets(), ...through(proxyUrl), NO_PROXY: '127.0.0.1' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.targets).toEqual([]);
  });

  it('a proxy that refuses CONNECT gets its diagnosis, naming the proxy', async () => {
    proxy.deny = true;
    try {
      const run = await floeSpawned(['test', '--json', '--profile', 'sandbox'], {
        configDir,
        env: { ...secrets(), ...through(proxyUrl) },
      });
      expect(run.code).toBe(1);
      const report = checkReportSchema.parse(JSON.parse(run.stdout));
      const diagnosis = report.diagnoses.find((d) => d.step === 'catalog.connect');
      expect(diagnosis?.code).toBe('CATALOG_PROXY_CONNECT');
      expect(diagnosis?.what).toBe(
        `The proxy ${proxyUrl} refused the tunnel to ${new URL(sandbox.catalog.url).host}`,
      );
      expect(JSON.stringify(diagnosis?.evidence)).toContain('HTTP 403');
    } finally {
      proxy.deny = false;
    }
  });

  it('a proxy that refuses the tunnel to the object store: its storage diagnosis names the proxy', async () => {
    const s3Host = new URL(sandbox.s3.url).host;
    proxy.denied.add(s3Host);
    try {
      const run = await floeSpawned(['test', '--json', '--profile', 'sandbox'], {
        configDir,
        env: { ...secrets(), ...through(proxyUrl) },
      });
      expect(run.code).toBe(1);
      const report = checkReportSchema.parse(JSON.parse(run.stdout));
      expect(report.steps.find((s) => s.id === 'catalog.namespaces')?.state).toBe('ok');
      const diagnosis = report.diagnoses.find((d) => d.step === 'storage.head');
      expect(diagnosis?.code).toBe('S3_PROXY_CONNECT');
      expect(diagnosis?.what).toContain(`the proxy ${proxyUrl} refused the tunnel to ${s3Host} (HTTP 403)`);
      expect(diagnosis?.evidence.extra?.proxy).toBe(proxyUrl);
    } finally {
      proxy.denied.clear();
    }
  });

  it('a proxy that is not there gets its diagnosis', async () => {
    const dead = `http://127.0.0.1:${await refusedPort()}`;
    const run = await floeSpawned(['test', '--json', '--profile', 'sandbox'], {
      configDir,
      env: { ...secrets(), ...through(dead) },
    });
    expect(run.code).toBe(1);
    const report = checkReportSchema.parse(JSON.parse(run.stdout));
    const diagnosis = report.diagnoses.find((d) => d.step === 'catalog.connect');
    expect(diagnosis?.code).toBe('CATALOG_PROXY_UNREACHABLE');
    expect(diagnosis?.what).toBe(`The proxy ${dead} could not be reached`);
    expect(report.diagnoses.find((d) => d.step === 'storage.head')?.what).toContain(
      `(through proxy ${dead})`,
    );
  });

  it('the OLake UI client goes through the proxy', async () => {
    proxy.targets.length = 0;
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
    process.env.HTTP_PROXY = proxyUrl;
    delete process.env.NO_PROXY;
    const client = new ManagementClient({ url: sandbox.olake.url });
    try {
      await client.login(SANDBOX.olake.username, SANDBOX.olake.password);
      expect(proxy.targets).toContain(new URL(sandbox.olake.url).host);
    } finally {
      await client.close();
      for (const [key, value] of Object.entries(saved))
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
    }
  });

  /** Runs `fn` with HTTP_PROXY set to `url` (and no NO_PROXY), restoring both after. */
  async function viaProxy<T>(url: string, fn: () => Promise<T>): Promise<T> {
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
    process.env.HTTP_PROXY = url;
    delete process.env.NO_PROXY;
    try {
      return await fn();
    } finally {
      for (const [key, value] of Object.entries(saved))
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
    }
  }

  it('the OLake UI client keeps its time-out through a proxy that never answers', async () => {
    // undici's CONNECT ignores the request's signal; floe's own race must end it.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const client = await viaProxy(
      `http://127.0.0.1:${port}`,
      async () => new ManagementClient({ url: sandbox.olake.url, timeoutMs: 300 }),
    );
    try {
      await expect(client.login(SANDBOX.olake.username, SANDBOX.olake.password)).rejects.toThrow(
        `${sandbox.olake.url} did not answer within 0 s`,
      );
    } finally {
      await client.close().catch(() => undefined);
      silent.close();
    }
  });

  it('a proxy that wants credentials (407) is named as such, not as a cancellation', async () => {
    const asking = createServer((socket) =>
      socket.once('data', () =>
        socket.end('HTTP/1.1 407 Proxy Authentication Required\r\ncontent-length: 0\r\n\r\n'),
      ),
    );
    await new Promise<void>((resolve) => asking.listen(0, '127.0.0.1', resolve));
    const { port } = asking.address() as { port: number };
    const client = await viaProxy(
      `http://127.0.0.1:${port}`,
      async () => new ManagementClient({ url: sandbox.olake.url }),
    );
    try {
      const error = await viaProxy(`http://127.0.0.1:${port}`, () =>
        client.login(SANDBOX.olake.username, SANDBOX.olake.password).then(
          () => undefined,
          (e: Error & { kind?: string }) => e,
        ),
      );
      expect(error?.kind).toBe('network');
      expect(error?.message).toContain(
        `The proxy http://127.0.0.1:${port} wants credentials to reach ${sandbox.olake.url}`,
      );
      expect(error?.message).toContain('HTTP 407 Proxy Authentication Required');
    } finally {
      await client.close().catch(() => undefined);
      asking.close();
    }
  });
});
