// Secrets only where they belong: warnings for plain http to a token URL or a catalog that gets a
// secret, an https → http overrides.uri refused with the bearer token, a host change followed with a
// warning, and hostile token endpoints (echoing the form, a token as text/plain) never leak a secret.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogChain } from '../../src/catalog/index.js';
import { cleartextWarning, cleartextWarnings, judgeUriOverride } from '../../src/catalog/transport.js';
import type { Chain } from '../../src/check/chain.js';
import {
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  startCatalogEmulator,
} from '../../src/sandbox/catalog/index.js';
import { itWithService } from '../support/services.js';
import { runChain, values } from './helpers.js';

const TOKEN = 'static-token-sentinel-5f1e';
/** `~` is form-encoded as %7E, so the plain and the encodeURIComponent form differ from what is sent. */
const SECRET = 'Abc8Q~dEfg-sentinel-secret';

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.close();
});

async function emulator(options: CatalogEmulatorOptions): Promise<CatalogEmulator> {
  const emu = await startCatalogEmulator(options);
  started.push(emu);
  return emu;
}

/** A plain node server answering every request with `answer(body)`. */
async function hostile(
  host: string,
  answer: (body: string) => { status: number; type: string; body: string },
): Promise<string> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const a = answer(body);
      res.writeHead(a.status, { 'content-type': a.type });
      res.end(a.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  started.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

const everything = (r: Awaited<ReturnType<typeof runChain>>) =>
  JSON.stringify({ events: r.events, diagnoses: r.diagnoses, warnings: r.warnings });

describe('which transports carry secrets', () => {
  it('warns for plain http to another host, not for https or the loopback names', () => {
    expect(cleartextWarning('http://catalog.internal:8181/api', 'The bearer token')).toBe(
      'The bearer token is sent to http://catalog.internal:8181 over plain http:// (unencrypted, readable on the network); use https://',
    );
    for (const url of [
      'https://catalog.internal',
      'http://localhost:8181',
      'http://127.0.0.1:1',
      'http://[::1]:1',
    ])
      expect(cleartextWarning(url, 'x')).toBeUndefined();
  });

  it('lists the review warnings by auth type', () => {
    const oauth2 = values('oauth2', {
      catalogUrl: 'http://lake.corp:8181',
      oauth2Uri: 'http://idp.corp/token',
      credential: `id:${SECRET}`,
    });
    expect(cleartextWarnings(oauth2)).toEqual([
      expect.stringMatching(/^The OAuth2 client secret is sent to http:\/\/idp\.corp /),
      expect.stringMatching(/^The bearer token is sent to http:\/\/lake\.corp:8181 /),
    ]);
    expect(cleartextWarnings(values('none', { catalogUrl: 'http://lake.corp:8181' }))).toEqual([]);
    expect(cleartextWarnings(values('sigv4', { catalogUrl: 'http://lake.corp:8181' }))).toEqual([]);
  });

  it('judges overrides.uri: refuses https → http with a secret, follows a host change with a warning', () => {
    expect(judgeUriOverride('https://a.example/api', 'http://b.example/api', true, false)).toEqual({
      follow: false,
      from: 'https://a.example',
      to: 'http://b.example',
    });
    expect(judgeUriOverride('https://a.example/api', 'http://b.example/api', false, false).follow).toBe(true);
    expect(judgeUriOverride('https://a.example/api', 'http://b.example/api', true, true)).toEqual({
      follow: true,
      warning: expect.stringContaining('allowed by --allow-insecure-uri-override'),
    });
    expect(judgeUriOverride('https://a.example/api', 'https://b.example/v2', true, false)).toEqual({
      follow: true,
      warning: 'the catalog moved requests from a.example to b.example (overrides.uri)',
    });
    expect(judgeUriOverride('https://a.example/api', 'https://a.example/v2', true, false)).toEqual({
      follow: true,
    });
  });

  it('refuses https → http to a loopback host from a remote catalog; loopback to loopback is followed', () => {
    expect(judgeUriOverride('https://a.example/api', 'http://127.0.0.1:8181/api', true, false)).toEqual({
      follow: false,
      from: 'https://a.example',
      to: 'http://127.0.0.1:8181',
    });
    expect(
      judgeUriOverride('https://localhost:8443/api', 'http://127.0.0.1:8181/api', true, false).follow,
    ).toBe(true);
  });
});

describe('the catalog test', () => {
  it('warns when the bearer token goes to a plain-http catalog (127.0.0.2 is not exempt)', async () => {
    const emu = await emulator({ host: '127.0.0.2', auth: 'bearer', tokens: [TOKEN] });
    const r = await runChain(values('token', { catalogUrl: emu.url, token: TOKEN }));
    expect(r.step('catalog.namespaces').state).toBe('ok');
    expect(r.warnings).toEqual([
      expect.stringMatching(/^The bearer token is sent to http:\/\/127\.0\.0\.2:\d+ over plain http/),
    ]);
  });

  it('warns when the OAuth2 client secret is posted to a plain-http token URL', async () => {
    const emu = await emulator({
      host: '127.0.0.2',
      auth: 'bearer',
      clients: [{ id: 'olake', secret: SECRET }],
      tokenPath: '/idp/token',
    });
    const r = await runChain(
      values('oauth2', {
        catalogUrl: emu.url,
        oauth2Uri: emu.tokenUrl,
        credential: `olake:${SECRET}`,
        scope: 'catalog',
      }),
    );
    expect(r.step('catalog.token').state).toBe('ok');
    expect(r.warnings.some((w) => w.startsWith('The OAuth2 client secret is sent to http://127.0.0.2'))).toBe(
      true,
    );
    expect(r.warnings.some((w) => w.startsWith('The bearer token is sent to http://127.0.0.2'))).toBe(true);
  });

  it('masks the form-encoded client secret a token endpoint echoes back', async () => {
    const idp = await hostile('127.0.0.1', (body) => ({
      status: 401,
      type: 'application/json',
      body: JSON.stringify({ error: 'invalid_client', error_description: `bad request: ${body}` }),
    }));
    const r = await runChain(
      values('oauth2', {
        catalogUrl: idp,
        oauth2Uri: `${idp}/token`,
        credential: `olake:${SECRET}`,
        scope: 'catalog',
      }),
    );
    expect(r.step('catalog.token').state).toBe('failed');
    const out = everything(r);
    expect(out).toContain('client_secret=');
    expect(out).not.toContain('Abc8Q');
    expect(out).not.toContain('sentinel-secret');
  });

  it('keeps a token answered as text/plain out of the evidence', async () => {
    const issued = 'eyJhbGciOiJIUzI1NiJ9.issued-token-sentinel-0123456789abcdef0123456789abcdef';
    const idp = await hostile('127.0.0.1', () => ({
      status: 200,
      type: 'text/plain',
      body: JSON.stringify({ access_token: issued, token_type: 'bearer', expires_in: 3600 }),
    }));
    const r = await runChain(
      values('oauth2', {
        catalogUrl: idp,
        oauth2Uri: `${idp}/token`,
        credential: `olake:${SECRET}`,
        scope: 'catalog',
      }),
    );
    expect(r.step('catalog.token').state).toBe('failed');
    expect(r.diagnoses).toHaveLength(1);
    const out = everything(r);
    expect(out).not.toContain('issued-token');
    expect(out).not.toContain('eyJhbGciOiJIUzI1NiJ9');
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
const withOpenssl = itWithService(opensslStatus, 'openssl');

describe('overrides.uri from an https catalog', () => {
  let tls: { key: string; cert: string };
  beforeAll(() => {
    if (opensslStatus !== 'ready') return;
    const dir = mkdtempSync(join(tmpdir(), 'floe-tls-'));
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
        '/CN=loopback',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        join(dir, 'k.pem'),
        '-out',
        join(dir, 'c.pem'),
      ],
      { stdio: 'ignore' },
    );
    tls = { key: readFileSync(join(dir, 'k.pem'), 'utf8'), cert: readFileSync(join(dir, 'c.pem'), 'utf8') };
  });

  const chain =
    (allow: boolean): Chain =>
    (v, o) =>
      createCatalogChain({ ca: tls.cert })(v, { ...o, allowInsecureUriOverride: allow });

  withOpenssl('does not follow https → http with the bearer token, naming both URLs', async () => {
    const plain = await emulator({ host: '127.0.0.2', auth: 'bearer', tokens: [TOKEN] });
    const secure = await emulator({ tls, auth: 'bearer', tokens: [TOKEN], overrides: { uri: plain.url } });
    const r = await runChain(values('token', { catalogUrl: secure.url, token: TOKEN }), {
      chain: chain(false),
    });
    expect(r.step('catalog.config').state).toBe('failed');
    expect(r.diagnoses.map((d) => d.code)).toEqual(['CATALOG_URI_DOWNGRADE']);
    expect(r.diagnoses[0]!.what).toContain(plain.origin);
    expect(r.diagnoses[0]!.what).toContain(secure.origin);
    expect(plain.requests).toEqual([]);
  });

  withOpenssl('follows it when allowed, with a warning', async () => {
    const plain = await emulator({ host: '127.0.0.2', auth: 'bearer', tokens: [TOKEN] });
    const secure = await emulator({ tls, auth: 'bearer', tokens: [TOKEN], overrides: { uri: plain.url } });
    const r = await runChain(values('token', { catalogUrl: secure.url, token: TOKEN }), {
      chain: chain(true),
    });
    expect(r.step('catalog.namespaces').state).toBe('ok');
    expect(plain.requests.length).toBeGreaterThan(0);
    expect(r.warnings.join('\n')).toContain('allowed by --allow-insecure-uri-override');
  });

  withOpenssl('follows a change of host with a warning naming both', async () => {
    const secure = await emulator({ tls, auth: 'bearer', tokens: [TOKEN] });
    const moved = secure.url.replace('127.0.0.1', 'localhost');
    const withOverride = await emulator({ tls, auth: 'bearer', tokens: [TOKEN], overrides: { uri: moved } });
    const r = await runChain(values('token', { catalogUrl: withOverride.url, token: TOKEN }), {
      chain: chain(false),
    });
    expect(r.step('catalog.namespaces').state).toBe('ok');
    expect(r.warnings).toContain(
      `the catalog moved requests from ${new URL(withOverride.url).host} to ${new URL(moved).host} (overrides.uri)`,
    );
  });
});
