// Every catalog diagnosis, each produced by the real fault: refused ports, a `.invalid` name,
// self-signed certificates made with openssl, wrong signatures, skewed clocks, denied roles, …
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_DIAGNOSES, createCatalogChain } from '../../src/catalog/index.js';
import type { Diagnosis } from '../../src/check/types.js';
import {
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  startCatalogEmulator,
} from '../../src/sandbox/catalog/index.js';
import { refusedPort } from '../support/ports.js';
import { itWithService } from '../support/services.js';
import { only, type RunResult, runChain, values } from './helpers.js';

const seen = new Set<string>();
let emulator: CatalogEmulator | undefined;

afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(options: CatalogEmulatorOptions = {}): Promise<CatalogEmulator> {
  emulator = await startCatalogEmulator(options);
  return emulator;
}

function expectDiagnosis(result: RunResult, code: string, step: string): Diagnosis {
  const d = only(result);
  expect(d.code).toBe(code);
  expect(d.step).toBe(step);
  expect(result.step(step).state).toBe('failed');
  expect(d.what).not.toBe('');
  expect(d.cause).not.toBe('');
  expect(d.remedy).not.toBe('');
  seen.add(code);
  return d;
}

const SIGV4 = {
  auth: 'sigv4' as const,
  sigv4: {
    service: 'glue',
    region: 'us-east-1',
    keys: [
      {
        accessKeyId: 'AKIAFLOETEST',
        secretAccessKey: 'right-secret-key',
        arn: 'arn:aws:iam::123456789012:user/olake',
      },
    ],
  },
};
const sigv4Values = (url: string, fields: Record<string, string> = {}) =>
  values('sigv4', {
    catalogUrl: url,
    signingName: 'glue',
    signingRegion: 'us-east-1',
    accessKey: 'AKIAFLOETEST',
    secretKey: 'right-secret-key',
    ...fields,
  });

describe('network', () => {
  it.each([
    ['a line break', 'tok\r\nen'],
    ['an escape', 'tok\u001ben'],
    ['a character outside Latin-1', 'tok€en'],
  ])('CATALOG_SECRET_UNSENDABLE: a token with %s is named, not blamed on the network', async (_, token) => {
    const emu = await start({ auth: 'bearer', tokens: ['good-token'] });
    const d = expectDiagnosis(
      await runChain(values('token', { catalogUrl: emu.url, token })),
      'CATALOG_SECRET_UNSENDABLE',
      'catalog.config',
    );
    expect(d.what).toContain('the token or credential holds characters an HTTP header cannot carry');
    expect(d.remedy).toContain('without line breaks');
    expect(emu.requests).toEqual([]);
  });

  it('CATALOG_URL_INVALID: not an http(s) URL', async () => {
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: 'ftp://catalog' })),
      'CATALOG_URL_INVALID',
      'catalog.connect',
    );
    expect(d.what).toContain('ftp://catalog');
  });

  it('CATALOG_DNS: a name under .invalid', async () => {
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: 'http://catalog.floe-test.invalid:8181' })),
      'CATALOG_DNS',
      'catalog.connect',
    );
    expect(d.evidence.errorCode).toMatch(/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)$/);
  });

  it('CATALOG_CONNECTION_REFUSED: a port bound and then closed', async () => {
    const port = await refusedPort();
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: `http://127.0.0.1:${port}` })),
      'CATALOG_CONNECTION_REFUSED',
      'catalog.connect',
    );
    expect(d.evidence.errorCode).toBe('ECONNREFUSED');
  });

  /** Runs `body` with HTTP_PROXY set (the chain reads the environment), then restores it. */
  async function withProxy<T>(proxy: string, body: () => Promise<T>): Promise<T> {
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
    process.env.HTTP_PROXY = proxy;
    delete process.env.NO_PROXY;
    try {
      return await body();
    } finally {
      for (const [key, value] of Object.entries(saved))
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
    }
  }

  it('CATALOG_PROXY_UNREACHABLE: HTTP_PROXY names a port nothing listens on', async () => {
    const proxy = `http://127.0.0.1:${await refusedPort()}`;
    const d = expectDiagnosis(
      await withProxy(proxy, () => runChain(values('none', { catalogUrl: 'http://127.0.0.1:8181' }))),
      'CATALOG_PROXY_UNREACHABLE',
      'catalog.connect',
    );
    expect(d.what).toBe(`The proxy ${proxy} could not be reached`);
    expect(d.evidence.errorCode).toBe('ECONNREFUSED');
  });

  it('CATALOG_PROXY_CONNECT: the proxy answers CONNECT with 407', async () => {
    const server: Server = createTcpServer((socket) =>
      socket.once('data', () => socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n')),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const proxy = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const d = expectDiagnosis(
        await withProxy(proxy, () => runChain(values('none', { catalogUrl: 'http://127.0.0.1:8181' }))),
        'CATALOG_PROXY_CONNECT',
        'catalog.connect',
      );
      expect(d.what).toBe(`The proxy ${proxy} refused the tunnel to 127.0.0.1:8181`);
      expect(d.evidence.errorCode).toBe('PROXY_HTTP_407');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('CATALOG_NETWORK: a server that accepts and drops every connection', async () => {
    const server: Server = createTcpServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      expectDiagnosis(
        await runChain(values('none', { catalogUrl: `http://127.0.0.1:${port}` })),
        'CATALOG_NETWORK',
        'catalog.config',
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('CATALOG_TIMEOUT: a server that never answers', async () => {
    const emu = await start();
    emu.setFault({ kind: 'silent' }, 'config');
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url }), { timeoutMs: 300 }),
      'CATALOG_TIMEOUT',
      'catalog.config',
    );
    expect(d.what).toContain('300 ms');
    expect(d.evidence.errorCode).toBe('TIMEOUT');
  });
});

const opensslStatus = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return 'ready';
  } catch {
    return 'the openssl CLI is not installed';
  }
})();

describe('TLS', () => {
  let dir: string;
  const cert = (name: string, san: string) => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${name}`,
        '-addext',
        `subjectAltName=${san}`,
        '-keyout',
        join(dir, `${name}.key`),
        '-out',
        join(dir, `${name}.pem`),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, `${name}.key`), 'utf8'),
      cert: readFileSync(join(dir, `${name}.pem`), 'utf8'),
    };
  };
  let loopback: { key: string; cert: string };
  let other: { key: string; cert: string };

  beforeAll(() => {
    if (opensslStatus !== 'ready') return;
    dir = mkdtempSync(join(tmpdir(), 'floe-tls-'));
    loopback = cert('loopback', 'IP:127.0.0.1');
    other = cert('catalog.example', 'DNS:catalog.example');
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  itWithService(opensslStatus, 'openssl')('CATALOG_TLS_UNTRUSTED: a self-signed certificate', async () => {
    const emu = await start({ tls: loopback });
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url })),
      'CATALOG_TLS_UNTRUSTED',
      'catalog.connect',
    );
    expect(d.evidence.errorCode).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(d.remedy).toContain('NODE_EXTRA_CA_CERTS');
  });

  itWithService(opensslStatus, 'openssl')('the same certificate passes once its CA is trusted', async () => {
    const emu = await start({ tls: loopback });
    const result = await runChain(values('none', { catalogUrl: emu.url }), {
      chain: createCatalogChain({ ca: loopback.cert }),
    });
    expect(result.diagnoses).toEqual([]);
    expect(result.step('catalog.connect').detail).toMatch(/TLS \d+ ms \(TLSv1\.[23]\)/);
    expect(result.step('catalog.namespaces').state).toBe('ok');
  });

  itWithService(opensslStatus, 'openssl')(
    'CATALOG_URI_DOWNGRADE: overrides.uri moves the bearer token from https to http',
    async () => {
      const plain = await startCatalogEmulator({ host: '127.0.0.2', auth: 'bearer', tokens: ['tok-1234'] });
      try {
        const emu = await start({
          tls: loopback,
          auth: 'bearer',
          tokens: ['tok-1234'],
          overrides: { uri: plain.url },
        });
        const d = expectDiagnosis(
          await runChain(values('token', { catalogUrl: emu.url, token: 'tok-1234' }), {
            chain: createCatalogChain({ ca: loopback.cert }),
          }),
          'CATALOG_URI_DOWNGRADE',
          'catalog.config',
        );
        expect(d.evidence.extra).toEqual({ from: emu.origin, to: plain.origin });
        expect(d.remedy).toContain('--allow-insecure-uri-override');
        expect(plain.requests).toEqual([]);
      } finally {
        await plain.close();
      }
    },
  );

  itWithService(opensslStatus, 'openssl')(
    'CATALOG_TLS_HOSTNAME: a trusted certificate for another name',
    async () => {
      const emu = await start({ tls: other });
      const d = expectDiagnosis(
        await runChain(values('none', { catalogUrl: emu.url }), {
          chain: createCatalogChain({ ca: other.cert }),
        }),
        'CATALOG_TLS_HOSTNAME',
        'catalog.connect',
      );
      expect(d.evidence.errorCode).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
      expect(d.remedy).toContain('NODE_EXTRA_CA_CERTS');
    },
  );

  it('CATALOG_TLS: https:// against a plain-HTTP port', async () => {
    const emu = await start();
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url.replace('http:', 'https:') })),
      'CATALOG_TLS',
      'catalog.connect',
    );
    expect(d.evidence.errorCode).toMatch(/^ERR_SSL_/);
  });
});

describe('HTTP answers', () => {
  it('CATALOG_REDIRECT: a redirect to a login page is reported, not followed', async () => {
    const emu = await start();
    emu.setFault({ kind: 'redirect', status: 303 }, 'config');
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url })),
      'CATALOG_REDIRECT',
      'catalog.config',
    );
    expect(d.evidence.status).toBe(303);
    expect(d.evidence.extra?.location).toBe(`${emu.origin}/login?next=%2F`);
  });

  it('CATALOG_HTML_RESPONSE: a 200 HTML page', async () => {
    const emu = await start();
    emu.setFault({ kind: 'html' }, 'config');
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url })),
      'CATALOG_HTML_RESPONSE',
      'catalog.config',
    );
    expect(d.evidence.extra?.contentType).toContain('text/html');
  });

  it('CATALOG_NOT_JSON: a text/plain body', async () => {
    const emu = await start();
    emu.setFault({ kind: 'not-json' }, 'config');
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url })),
      'CATALOG_NOT_JSON',
      'catalog.config',
    );
    expect(d.evidence.extra?.bodyStart).toBe('OK');
  });

  it('CATALOG_BODY_TOO_LARGE: an 8 MiB body is cut off at 1 MiB', async () => {
    const emu = await start();
    emu.setFault({ kind: 'huge' }, 'config');
    expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url })),
      'CATALOG_BODY_TOO_LARGE',
      'catalog.config',
    );
  });

  it('CATALOG_CONFIG_NOT_FOUND: the base path is missing', async () => {
    const emu = await start({ basePath: '/api/catalog' });
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.origin })),
      'CATALOG_CONFIG_NOT_FOUND',
      'catalog.config',
    );
    expect(d.evidence).toMatchObject({ status: 404, errorCode: 'NotFoundException' });
    expect(d.evidence.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('CATALOG_WAREHOUSE_NOT_FOUND: the catalog does not serve this warehouse', async () => {
    const emu = await start({ warehouses: ['s3://lake'] });
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url, warehouse: 's3://other' })),
      'CATALOG_WAREHOUSE_NOT_FOUND',
      'catalog.config',
    );
    expect(d.evidence.errorCode).toBe('NoSuchWarehouseException');
    expect(d.remedy).toMatch(/^Set Warehouse to one that exists in the catalog, e\.g\. s3:\/\/warehouse/);
  });

  it('CATALOG_WAREHOUSE_NOT_FOUND: a 400 that names the warehouse, with a remedy in the preset’s terms', async () => {
    const emu = await start();
    emu.setFault(
      {
        kind: 'json',
        status: 400,
        body: { error: { code: 400, type: 'BadRequestException', message: 'Please specify a warehouse' } },
      },
      'config',
    );
    const d = expectDiagnosis(
      await runChain({
        ...values('none', { catalogUrl: emu.url, warehouse: 's3://lake' }),
        preset: 'polaris',
      }),
      'CATALOG_WAREHOUSE_NOT_FOUND',
      'catalog.config',
    );
    expect(d.what).toMatch(/answered 400 Bad Request: the warehouse was refused$/);
    expect(d.cause).toBe('Apache Polaris does not serve the Polaris Catalog Name “s3://lake”.');
    expect(d.remedy).toMatch(
      /^Set Polaris Catalog Name to one that exists in the catalog, e\.g\. olake_catalog/,
    );
  });

  it('CATALOG_SERVER_URI_UNREACHABLE: the config’s overrides.uri points where floe cannot connect', async () => {
    const refused = await refusedPort();
    const emu = await start({ overrides: { uri: `http://127.0.0.1:${refused}/catalog` } });
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url })),
      'CATALOG_SERVER_URI_UNREACHABLE',
      'catalog.namespaces',
    );
    expect(d.what).toContain(`(overrides.uri) instead of ${emu.url}`);
    expect(d.evidence.extra?.networkDiagnosis).toBe('CATALOG_CONNECTION_REFUSED');
    expect(d.remedy).toContain('LAKEKEEPER__BASE_URI');
  });

  it('CATALOG_PREFIX_NOT_FOUND: the config advertises a prefix the routes do not serve', async () => {
    const emu = await start();
    emu.setFault({ kind: 'wrong-prefix', prefix: 'stale' }, 'config');
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url })),
      'CATALOG_PREFIX_NOT_FOUND',
      'catalog.namespaces',
    );
    expect(d.evidence.url).toBe(`${emu.url}/v1/stale/namespaces?pageToken=&pageSize=1`);
  });

  it('CATALOG_BAD_CONFIG: config JSON without defaults and overrides', async () => {
    const emu = await start();
    emu.setFault({ kind: 'json', body: { catalog: { prefix: 'x' } } }, 'config');
    expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url })),
      'CATALOG_BAD_CONFIG',
      'catalog.config',
    );
  });

  it('CATALOG_BAD_RESPONSE: a namespace page of the wrong shape', async () => {
    const emu = await start();
    emu.setFault({ kind: 'json', body: { namespaces: 'default' } }, 'namespaces');
    expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url })),
      'CATALOG_BAD_RESPONSE',
      'catalog.namespaces',
    );
  });

  it('CATALOG_BAD_RESPONSE: a token response without access_token, or with token_type mac', async () => {
    const emu = await start({ auth: 'bearer' });
    const v = values('oauth2', { catalogUrl: emu.url, oauth2Uri: emu.tokenUrl, credential: 'a:b' });
    emu.setFault({ kind: 'json', body: { token_type: 'bearer' } }, 'token');
    const d = expectDiagnosis(await runChain(v), 'CATALOG_BAD_RESPONSE', 'catalog.token');
    expect(d.what).toContain('access_token');
    emu.setFault({ kind: 'json', body: { access_token: 'abc-token', token_type: 'mac' } }, 'token');
    expect(only(await runChain(v)).what).toContain('token_type "mac"');
  });

  it('CATALOG_HTTP_ERROR: another 4xx with an Iceberg error', async () => {
    const emu = await start();
    emu.setFault(
      {
        kind: 'json',
        status: 400,
        body: { error: { message: 'Malformed request', type: 'BadRequestException', code: 400 } },
      },
      'namespaces',
    );
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url })),
      'CATALOG_HTTP_ERROR',
      'catalog.namespaces',
    );
    expect(d.evidence).toMatchObject({
      status: 400,
      errorCode: 'BadRequestException',
      extra: { message: 'Malformed request' },
    });
  });

  it('CATALOG_UNAVAILABLE: 503 with Retry-After, still 503 after the one retry', async () => {
    const emu = await start();
    emu.setFault({ kind: 'unavailable', retryAfterSeconds: 0 }, 'config');
    const result = await runChain(values('none', { catalogUrl: emu.url }));
    const d = expectDiagnosis(result, 'CATALOG_UNAVAILABLE', 'catalog.config');
    expect(result.traces.map((t) => t.status)).toEqual([503, 503]);
    expect(d.evidence.extra?.retryAfter).toBe('0');
  });

  it('CATALOG_SERVER_ERROR: a proxy’s 502 HTML page', async () => {
    const emu = await start();
    emu.setFault({ kind: 'server-error', status: 502 }, 'namespaces');
    const d = expectDiagnosis(
      await runChain(values('none', { catalogUrl: emu.url })),
      'CATALOG_SERVER_ERROR',
      'catalog.namespaces',
    );
    expect(d.what).toContain('502 Bad Gateway (an HTML page)');
  });
});

describe('bearer and OAuth2', () => {
  const client = { id: 'olake', secret: 'right-secret', scopes: ['catalog'] };

  it('CATALOG_UNAUTHORIZED: an unknown bearer token (401)', async () => {
    const emu = await start({ auth: 'bearer', tokens: ['good-token'] });
    const d = expectDiagnosis(
      await runChain(values('token', { catalogUrl: emu.url, token: 'bad-token' })),
      'CATALOG_UNAUTHORIZED',
      'catalog.config',
    );
    expect(d.evidence).toMatchObject({ status: 401, errorCode: 'NotAuthorizedException' });
  });

  it('CATALOG_UNAUTHORIZED: an issued token that expired (419)', async () => {
    const emu = await start({
      auth: 'bearer',
      clients: [client],
      tokenTtlSeconds: 0,
      expiredTokenStatus: 419,
    });
    const d = expectDiagnosis(
      await runChain(
        values('oauth2', { catalogUrl: emu.url, oauth2Uri: emu.tokenUrl, credential: 'olake:right-secret' }),
      ),
      'CATALOG_UNAUTHORIZED',
      'catalog.config',
    );
    expect(d.evidence).toMatchObject({ status: 419, errorCode: 'AuthenticationTimeoutException' });
    expect(d.what).toContain('419 Authentication Timeout');
    expect(d.cause).toContain('expired');
  });

  it('CATALOG_FORBIDDEN: authenticated, but the principal may not list', async () => {
    const emu = await start({ auth: 'bearer', clients: [client], denied: ['olake'] });
    const d = expectDiagnosis(
      await runChain(
        values('oauth2', { catalogUrl: emu.url, oauth2Uri: emu.tokenUrl, credential: 'olake:right-secret' }),
      ),
      'CATALOG_FORBIDDEN',
      'catalog.namespaces',
    );
    expect(d.evidence.status).toBe(403);
  });

  it('CATALOG_OAUTH_INVALID_CLIENT: a wrong client secret', async () => {
    const emu = await start({ auth: 'bearer', clients: [client] });
    const d = expectDiagnosis(
      await runChain(
        values('oauth2', { catalogUrl: emu.url, oauth2Uri: emu.tokenUrl, credential: 'olake:wrong-secret' }),
      ),
      'CATALOG_OAUTH_INVALID_CLIENT',
      'catalog.token',
    );
    expect(d.evidence).toMatchObject({ status: 401, errorCode: 'invalid_client' });
    expect(d.remedy).toContain('GET <url>/v1/config');
    expect(d.remedy).toContain('Bearer');
  });

  it('CATALOG_OAUTH_UNAUTHORIZED_CLIENT: a client without the client_credentials grant', async () => {
    const emu = await start({ auth: 'bearer', clients: [{ ...client, grants: ['authorization_code'] }] });
    const d = expectDiagnosis(
      await runChain(
        values('oauth2', { catalogUrl: emu.url, oauth2Uri: emu.tokenUrl, credential: 'olake:right-secret' }),
      ),
      'CATALOG_OAUTH_UNAUTHORIZED_CLIENT',
      'catalog.token',
    );
    expect(d.what).toBe('The token endpoint answered unauthorized_client');
    expect(d.remedy).toMatch(/client_credentials grant \(enable service accounts\)/);
    expect(d.remedy).toContain('GET <url>/v1/config');
  });

  it('CATALOG_OAUTH_UNAUTHORIZED_CLIENT: Polaris answers a wrong secret with 401: "wrong client id or secret" first', async () => {
    const emu = await start({ auth: 'bearer', clients: [client] });
    emu.setFault(
      {
        kind: 'json',
        status: 401,
        body: { error: 'unauthorized_client', error_description: 'The client is not authorized' },
      },
      'token',
    );
    const d = expectDiagnosis(
      await runChain(
        values('oauth2', { catalogUrl: emu.url, oauth2Uri: emu.tokenUrl, credential: 'olake:wrong-secret' }),
      ),
      'CATALOG_OAUTH_UNAUTHORIZED_CLIENT',
      'catalog.token',
    );
    expect(d.what).toMatch(/401 Unauthorized unauthorized_client: wrong client id or secret$/);
    expect(d.cause).toMatch(/^Most likely a wrong client id or secret/);
    expect(d.remedy).toMatch(/^Check the client id and secret in REST Credential/);
  });

  it('CATALOG_TOKEN_URL_NOT_FOUND: Nessie answers its token route with 501 NotImplemented', async () => {
    const emu = await start({ auth: 'bearer', clients: [client] });
    emu.setFault(
      {
        kind: 'json',
        status: 501,
        body: { error: { code: 501, type: 'NotImplemented', message: 'Endpoint not implemented' } },
      },
      'token',
    );
    const d = expectDiagnosis(
      await runChain(
        values('oauth2', { catalogUrl: emu.url, oauth2Uri: emu.tokenUrl, credential: 'olake:right-secret' }),
      ),
      'CATALOG_TOKEN_URL_NOT_FOUND',
      'catalog.token',
    );
    expect(d.what).toMatch(/501 Not Implemented: this server has no token endpoint$/);
    expect(d.cause).toContain('Nessie');
    expect(d.remedy).toContain('identity provider');
  });

  it('CATALOG_OAUTH_INVALID_SCOPE: a scope the client may not request', async () => {
    const emu = await start({ auth: 'bearer', clients: [client] });
    const d = expectDiagnosis(
      await runChain(
        values('oauth2', {
          catalogUrl: emu.url,
          oauth2Uri: emu.tokenUrl,
          credential: 'olake:right-secret',
          scope: 'PRINCIPAL_ROLE:ALL',
        }),
      ),
      'CATALOG_OAUTH_INVALID_SCOPE',
      'catalog.token',
    );
    expect(d.evidence.extra?.message).toContain('PRINCIPAL_ROLE:ALL');
  });

  it('CATALOG_TOKEN_URL_NOT_FOUND: the deprecated <url>/v1/oauth/tokens is not served', async () => {
    const emu = await start({
      auth: 'bearer',
      clients: [client],
      legacyTokenEndpoint: false,
      tokenPath: '/idp/token',
    });
    const result = await runChain(
      values('oauth2', { catalogUrl: emu.url, credential: 'olake:right-secret' }),
    );
    const d = expectDiagnosis(result, 'CATALOG_TOKEN_URL_NOT_FOUND', 'catalog.token');
    expect(d.evidence).toMatchObject({ status: 404, url: `${emu.url}/v1/oauth/tokens` });
    expect(result.warnings[0]).toContain('deprecated');
  });

  it('CATALOG_TOKEN_URL_NOT_FOUND: a REST Auth URI that does not take POST (405)', async () => {
    const emu = await start({ auth: 'bearer', clients: [client] });
    const getOnly = createHttpServer((_req, res) => res.writeHead(405, { allow: 'GET, HEAD' }).end());
    await new Promise<void>((resolve) => getOnly.listen(0, '127.0.0.1', resolve));
    const { port } = getOnly.address() as AddressInfo;
    try {
      const result = await runChain(
        values('oauth2', {
          catalogUrl: emu.url,
          oauth2Uri: `http://127.0.0.1:${port}/realms/olake`,
          credential: 'olake:right-secret',
        }),
      );
      const d = expectDiagnosis(result, 'CATALOG_TOKEN_URL_NOT_FOUND', 'catalog.token');
      expect(d.evidence.status).toBe(405);
    } finally {
      getOnly.close();
    }
  });

  it('CATALOG_OAUTH_ERROR: Google rejects an assertion signed with another key (invalid_grant)', async () => {
    const known = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const email = 'olake@floe-test.iam.gserviceaccount.com';
    const emu = await start({
      auth: 'bearer',
      tokenPath: '/token',
      serviceAccounts: [
        { clientEmail: email, publicKey: known.publicKey.export({ type: 'spki', format: 'pem' }) as string },
      ],
    });
    const json = JSON.stringify({
      client_email: email,
      private_key: other.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      token_uri: emu.tokenUrl,
    });
    const d = expectDiagnosis(
      await runChain(values('google', { catalogUrl: emu.url, gcpServiceAccountJson: json })),
      'CATALOG_OAUTH_ERROR',
      'catalog.token',
    );
    expect(d.evidence).toMatchObject({
      errorCode: 'invalid_grant',
      extra: { message: 'Invalid JWT Signature.' },
    });
  });

  it.each([
    ['a line break', 'issued\r\nX-Injected: 1'],
    ['a control character', 'issued\u0007token'],
    ['a character outside Latin-1', 'issued\u2028token'],
  ])(
    'CATALOG_TOKEN_UNUSABLE: an access token the OAuth2 endpoint issued with %s names the endpoint, not the user',
    async (what, token) => {
      const emu = await start({ auth: 'bearer', clients: [client] });
      emu.setFault(
        { kind: 'json', status: 200, body: { access_token: token, token_type: 'bearer' } },
        'token',
      );
      const d = expectDiagnosis(
        await runChain(
          values('oauth2', {
            catalogUrl: emu.url,
            oauth2Uri: emu.tokenUrl,
            credential: 'olake:right-secret',
          }),
        ),
        'CATALOG_TOKEN_UNUSABLE',
        'catalog.token',
      );
      expect(d.what).toBe(
        `POST ${emu.tokenUrl} answered JSON that has an "access_token" an HTTP header cannot carry (it holds ${what})`,
      );
      expect(d.cause).toContain('not of anything stored here');
      expect(`${d.cause} ${d.remedy}`).not.toContain('pasted');
      expect(JSON.stringify(d)).not.toContain(token);
      // The token never went anywhere.
      expect(emu.requests.map((r) => r.url)).toEqual([new URL(emu.tokenUrl).pathname]);
    },
  );

  it("CATALOG_TOKEN_UNUSABLE: a Google token endpoint's unusable token names the key file's token_uri", async () => {
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const email = 'olake@floe-test.iam.gserviceaccount.com';
    const emu = await start({
      auth: 'bearer',
      tokenPath: '/google/token',
      serviceAccounts: [
        { clientEmail: email, publicKey: key.publicKey.export({ type: 'spki', format: 'pem' }) as string },
      ],
    });
    emu.setFault(
      { kind: 'json', status: 200, body: { access_token: 'ya29.\n', token_type: 'Bearer' } },
      'token',
    );
    const json = JSON.stringify({
      client_email: email,
      private_key: key.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      token_uri: emu.tokenUrl,
    });
    const d = expectDiagnosis(
      await runChain(values('google', { catalogUrl: emu.url, gcpServiceAccountJson: json })),
      'CATALOG_TOKEN_UNUSABLE',
      'catalog.token',
    );
    expect(d.what).toContain(`POST ${emu.tokenUrl} answered JSON that has an "access_token"`);
    expect(d.what).toContain('(it holds a line break)');
  });

  it('CATALOG_GOOGLE_KEY_INVALID: a file:// token_uri is refused naming the field, the rule and an example', async () => {
    const emu = await start({ auth: 'bearer' });
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const json = JSON.stringify({
      client_email: 'olake@floe-test.iam.gserviceaccount.com',
      private_key: key.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      token_uri: 'file:///etc/passwd',
    });
    const d = expectDiagnosis(
      await runChain(values('google', { catalogUrl: emu.url, gcpServiceAccountJson: json })),
      'CATALOG_GOOGLE_KEY_INVALID',
      'catalog.token',
    );
    expect(d.what).toBe(
      'The GCP Service Account JSON cannot be used: its "token_uri" ("file:///etc/passwd") must be an absolute http(s) URL of the token endpoint, e.g. https://oauth2.googleapis.com/token',
    );
    expect(emu.requests).toEqual([]);
  });

  it('CATALOG_GOOGLE_KEY_INVALID: a service-account JSON holding an EC key', async () => {
    const emu = await start({ auth: 'bearer' });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const json = JSON.stringify({
      client_email: 'olake@floe-test.iam.gserviceaccount.com',
      private_key: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    });
    const d = expectDiagnosis(
      await runChain(values('google', { catalogUrl: emu.url, gcpServiceAccountJson: json })),
      'CATALOG_GOOGLE_KEY_INVALID',
      'catalog.token',
    );
    expect(d.what).toContain('not an RSA key');
    expect(emu.requests).toEqual([]);
  });
});

describe('SigV4', () => {
  it('CATALOG_SIGV4_NOT_ENABLED: an AWS endpoint answers Missing Authentication Token', async () => {
    const emu = await start({ ...SIGV4, tokens: ['t0ken'] });
    const d = expectDiagnosis(
      await runChain(values('token', { catalogUrl: emu.url, token: 'a-bearer-token' })),
      'CATALOG_SIGV4_NOT_ENABLED',
      'catalog.config',
    );
    expect(d.evidence).toMatchObject({ status: 403, errorCode: 'MissingAuthenticationTokenException' });
  });

  it('CATALOG_SIGV4_PATH_NOT_FOUND: a signed request answered Missing Authentication Token is a wrong path', async () => {
    const emu = await start(SIGV4);
    emu.setFault({ kind: 'missing-auth-token' }, 'config');
    const d = expectDiagnosis(
      await runChain(sigv4Values(emu.url)),
      'CATALOG_SIGV4_PATH_NOT_FOUND',
      'catalog.config',
    );
    expect(d.cause).toContain('wrong base path');
    expect(d.evidence.extra?.credentialScope).toMatch(/\/us-east-1\/glue\/aws4_request$/);
  });

  it('CATALOG_SIGV4_SIGNATURE_MISMATCH: a wrong secret key, showing the credential scope used', async () => {
    const emu = await start(SIGV4);
    const d = expectDiagnosis(
      await runChain(sigv4Values(emu.url, { secretKey: 'wrong-secret-key' })),
      'CATALOG_SIGV4_SIGNATURE_MISMATCH',
      'catalog.config',
    );
    expect(d.evidence.extra?.credentialScope).toMatch(/^\d{8}\/us-east-1\/glue\/aws4_request$/);
  });

  it('CATALOG_SIGV4_SIGNATURE_MISMATCH: a wrong signing region', async () => {
    const emu = await start(SIGV4);
    const d = expectDiagnosis(
      await runChain(sigv4Values(emu.url, { signingRegion: 'eu-west-1' })),
      'CATALOG_SIGV4_SIGNATURE_MISMATCH',
      'catalog.config',
    );
    expect(d.evidence.extra?.credentialScope).toMatch(/\/eu-west-1\/glue\/aws4_request$/);
    expect(d.evidence.extra?.message).toContain("not 'eu-west-1'");
  });

  it('CATALOG_SIGV4_UNKNOWN_KEY: an access key the server does not know', async () => {
    const emu = await start(SIGV4);
    expectDiagnosis(
      await runChain(sigv4Values(emu.url, { accessKey: 'AKIAUNKNOWN' })),
      'CATALOG_SIGV4_UNKNOWN_KEY',
      'catalog.config',
    );
  });

  it('CATALOG_CLOCK_SKEW: the server’s clock is 10 minutes ahead', async () => {
    const emu = await start({ ...SIGV4, clockOffsetMs: 10 * 60 * 1000 });
    const d = expectDiagnosis(await runChain(sigv4Values(emu.url)), 'CATALOG_CLOCK_SKEW', 'catalog.config');
    expect(Number(d.evidence.extra?.skewSeconds)).toBeGreaterThanOrEqual(590);
    expect(d.evidence.extra?.serverDate).toBeDefined();
    expect(d.evidence.extra?.message).toContain('Signature expired');
  });
});

describe('AWS default credential chain', () => {
  const AWS_ENV = [
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_PROFILE',
    'AWS_CONFIG_FILE',
    'AWS_SHARED_CREDENTIALS_FILE',
    'AWS_ENDPOINT_URL_STS',
    'AWS_EC2_METADATA_DISABLED',
    'AWS_REGION',
    'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
    'AWS_CONTAINER_CREDENTIALS_FULL_URI',
    'AWS_WEB_IDENTITY_TOKEN_FILE',
  ];
  const saved = Object.fromEntries(AWS_ENV.map((k) => [k, process.env[k]]));
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'floe-aws-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  /** An environment with nothing but what the test sets: no files, no instance metadata. */
  function cleanEnv(name: string, files: { config?: string; credentials?: string } = {}) {
    for (const k of AWS_ENV) delete process.env[k];
    const config = join(dir, `${name}.config`);
    const credentials = join(dir, `${name}.credentials`);
    if (files.config) writeFileSync(config, files.config);
    if (files.credentials) writeFileSync(credentials, files.credentials);
    Object.assign(process.env, {
      AWS_CONFIG_FILE: config,
      AWS_SHARED_CREDENTIALS_FILE: credentials,
      AWS_EC2_METADATA_DISABLED: 'true',
    });
  }

  const chainValues = (url: string) =>
    values('sigv4', { catalogUrl: url, signingName: 'glue', signingRegion: 'us-east-1' });

  it('signs with AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY when the profile has no keys', async () => {
    const emu = await start(SIGV4);
    cleanEnv('env');
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'AKIAFLOETEST',
      AWS_SECRET_ACCESS_KEY: 'right-secret-key',
    });
    const result = await runChain(chainValues(emu.url));
    expect(result.diagnoses).toEqual([]);
    expect(result.step('catalog.namespaces').state).toBe('ok');
  });

  it('signs with a role assumed through STS (session token verified)', async () => {
    const emu = await start({
      ...SIGV4,
      sts: { allowedRoles: ['arn:aws:iam::123456789012:role/glue-reader'] },
    });
    cleanEnv('role-ok', {
      config:
        '[profile floe]\nrole_arn = arn:aws:iam::123456789012:role/glue-reader\nsource_profile = base\nregion = us-east-1\n',
      credentials: '[base]\naws_access_key_id = AKIAFLOETEST\naws_secret_access_key = right-secret-key\n',
    });
    Object.assign(process.env, { AWS_PROFILE: 'floe', AWS_ENDPOINT_URL_STS: emu.origin });
    const result = await runChain(chainValues(emu.url));
    expect(result.diagnoses).toEqual([]);
    expect(emu.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
      'POST /',
      'GET /v1/config',
      'GET /v1/main/namespaces',
    ]);
    expect(emu.requests[1]!.headers['x-amz-security-token']).toBeDefined();
  });

  it('CATALOG_ASSUME_ROLE_DENIED: STS refuses sts:AssumeRole', async () => {
    const emu = await start({ ...SIGV4, sts: { allowedRoles: [] } });
    cleanEnv('role-denied', {
      config:
        '[profile floe]\nrole_arn = arn:aws:iam::123456789012:role/glue-admin\nsource_profile = base\nregion = us-east-1\n',
      credentials: '[base]\naws_access_key_id = AKIAFLOETEST\naws_secret_access_key = right-secret-key\n',
    });
    Object.assign(process.env, { AWS_PROFILE: 'floe', AWS_ENDPOINT_URL_STS: emu.origin });
    const d = expectDiagnosis(
      await runChain(chainValues(emu.url)),
      'CATALOG_ASSUME_ROLE_DENIED',
      'catalog.config',
    );
    expect(d.evidence.extra?.message).toBe(
      'User: arn:aws:iam::123456789012:user/olake is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::123456789012:role/glue-admin',
    );
    expect(d.remedy).toMatch(/assign the correct role/i);
    expect(d.remedy).toContain('trust');
    expect(d.remedy).toContain('session name');
  });

  it('CATALOG_SIGV4_NO_CREDENTIALS: nothing in the profile or the environment', async () => {
    const emu = await start(SIGV4);
    cleanEnv('none');
    const d = expectDiagnosis(
      await runChain(chainValues(emu.url)),
      'CATALOG_SIGV4_NO_CREDENTIALS',
      'catalog.config',
    );
    expect(d.remedy).toContain('AWS_ACCESS_KEY_ID');
    expect(emu.requests).toEqual([]);
  });
});

it('every documented code was produced by a test above', () => {
  const needOpenssl = ['CATALOG_TLS_UNTRUSTED', 'CATALOG_TLS_HOSTNAME'];
  const expected = Object.keys(CATALOG_DIAGNOSES).filter(
    (code) => opensslStatus === 'ready' || !needOpenssl.includes(code),
  );
  expect(expected.filter((code) => !seen.has(code))).toEqual([]);
});
