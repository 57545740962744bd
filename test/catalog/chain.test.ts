// The catalog chain against the emulator: every auth type succeeds, and the URL, header, step and
// retry rules hold.
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CATALOG_STEPS } from '../../src/catalog/index.js';
import type { CheckEvent } from '../../src/check/types.js';
import {
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  startCatalogEmulator,
} from '../../src/sandbox/catalog/index.js';
import { runChain, values } from './helpers.js';

let emulator: CatalogEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(options: CatalogEmulatorOptions = {}): Promise<CatalogEmulator> {
  emulator = await startCatalogEmulator(options);
  return emulator;
}

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function allOk(result: Awaited<ReturnType<typeof runChain>>, skippedToken = true) {
  expect(result.diagnoses).toEqual([]);
  expect(result.step('catalog.connect').state).toBe('ok');
  expect(result.step('catalog.token').state).toBe(skippedToken ? 'skipped' : 'ok');
  expect(result.step('catalog.config').state).toBe('ok');
  expect(result.step('catalog.namespaces').state).toBe('ok');
}

const EMAIL = 'olake@floe-test.iam.gserviceaccount.com';

/** An RSA key pair: the public half for the emulator, `json(tokenUri)` for the profile. */
function serviceAccount() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    account: { clientEmail: EMAIL, publicKey: publicKey.export({ type: 'spki', format: 'pem' }) as string },
    json: (tokenUri: string) =>
      JSON.stringify({
        type: 'service_account',
        client_email: EMAIL,
        private_key_id: 'k1',
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
        token_uri: tokenUri,
      }),
  };
}

describe('auth types', () => {
  it('none: reads config and lists namespaces without credentials', async () => {
    const emu = await start();
    const result = await runChain(values('none', { catalogUrl: emu.url }));
    allOk(result);
    expect(result.step('catalog.token').detail).toBe('not needed for None');
    expect(emu.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it('token: sends Authorization: Bearer', async () => {
    const emu = await start({ auth: 'bearer', tokens: ['static-token-123'] });
    const result = await runChain(values('token', { catalogUrl: emu.url, token: 'static-token-123' }));
    allOk(result);
    expect(emu.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer static-token-123',
      'Bearer static-token-123',
    ]);
  });

  it('oauth2: client credentials form POST to the REST Auth URI, one token per run', async () => {
    const emu = await start({
      auth: 'bearer',
      basePath: '/api/catalog',
      tokenPath: '/realms/floe/protocol/openid-connect/token',
      legacyTokenEndpoint: false,
      clients: [{ id: 'olake', secret: 'pa:ss:word', scopes: ['PRINCIPAL_ROLE:ALL'] }],
    });
    const result = await runChain(
      values('oauth2', {
        catalogUrl: emu.url,
        oauth2Uri: emu.tokenUrl,
        credential: 'olake:pa:ss:word',
        scope: 'PRINCIPAL_ROLE:ALL',
      }),
    );
    allOk(result, false);
    expect(result.warnings).toEqual([]);
    expect(emu.issuedTokens()).toBe(1);
    const tokenRequest = emu.requests[0]!;
    expect(tokenRequest.method).toBe('POST');
    expect(tokenRequest.url).toBe('/realms/floe/protocol/openid-connect/token');
    expect(tokenRequest.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(tokenRequest.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'olake',
      client_secret: 'pa:ss:word',
      scope: 'PRINCIPAL_ROLE:ALL',
    });
    const bearer = emu.requests[1]!.headers.authorization;
    expect(bearer).toMatch(/^Bearer \S+$/);
    expect(emu.requests[2]!.headers.authorization).toBe(bearer);
  });

  it('oauth2: without a REST Auth URI falls back to <url>/v1/oauth/tokens with a deprecation warning', async () => {
    const emu = await start({
      auth: 'bearer',
      basePath: '/api/catalog',
      clients: [{ id: 'olake', secret: 's3cr3t' }],
    });
    const result = await runChain(
      values('oauth2', { catalogUrl: emu.url, credential: 'olake:s3cr3t', scope: 'catalog' }),
    );
    allOk(result, false);
    expect(emu.requests[0]!.url).toBe('/api/catalog/v1/oauth/tokens');
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain('deprecated');
    expect(result.warnings[0]).toContain('/api/catalog/v1/oauth/tokens');
  });

  it('oauth2: a credential without a colon is all secret, and token_type N_A is accepted', async () => {
    const emu = await start({ auth: 'bearer' });
    emu.setFault({ kind: 'json', body: { access_token: 'issued-by-fault', token_type: 'N_A' } }, 'token');
    const result = await runChain(
      values('oauth2', { catalogUrl: emu.url, oauth2Uri: emu.tokenUrl, credential: 'only-a-secret' }),
    );
    // The fault's token is unknown to the catalog: the token step passes, config answers 401.
    expect(result.step('catalog.token').state).toBe('ok');
    const form = Object.fromEntries(new URLSearchParams(emu.requests[0]!.body));
    expect(form).toEqual({
      grant_type: 'client_credentials',
      client_secret: 'only-a-secret',
      scope: 'catalog',
    });
    expect(result.warnings.some((w) => w.includes('no client id'))).toBe(true);
    expect(emu.requests[1]!.headers.authorization).toBe('Bearer issued-by-fault');
    expect(result.diagnoses.map((d) => [d.step, d.code])).toEqual([
      ['catalog.config', 'CATALOG_UNAUTHORIZED'],
    ]);
  });

  it('sigv4: signs every request with the profile keys and the empty-body hash', async () => {
    const emu = await start({
      auth: 'sigv4',
      sigv4: {
        service: 'glue',
        region: 'eu-west-1',
        keys: [{ accessKeyId: 'AKIAFLOETEST', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG' }],
      },
      prefix: 'catalogs/123456789012',
    });
    const result = await runChain(
      values('sigv4', {
        catalogUrl: emu.url,
        signingName: 'glue',
        signingRegion: 'eu-west-1',
        accessKey: 'AKIAFLOETEST',
        secretKey: 'wJalrXUtnFEMI/K7MDENG',
      }),
    );
    allOk(result);
    expect(emu.requests).toHaveLength(2);
    for (const r of emu.requests) {
      expect(r.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIAFLOETEST\/\d{8}\/eu-west-1\/glue\/aws4_request/,
      );
      expect(r.headers['x-amz-content-sha256']).toBe(EMPTY_SHA256);
    }
    expect(emu.requests[1]!.url).toBe('/v1/catalogs/123456789012/namespaces?pageToken=&pageSize=1');
  });

  it('sigv4: an S3 Tables bucket-ARN prefix, percent-encoded, is inserted as given and signed as sent', async () => {
    const arn = encodeURIComponent('arn:aws:s3tables:us-east-1:123456789012:bucket/lake');
    const emu = await start({
      auth: 'sigv4',
      sigv4: {
        service: 's3tables',
        region: 'us-east-1',
        keys: [{ accessKeyId: 'AKIAFLOETEST', secretAccessKey: 'secret-key-1' }],
      },
      prefix: arn,
    });
    const result = await runChain(
      values('sigv4', {
        catalogUrl: emu.url,
        signingName: 's3tables',
        signingRegion: 'us-east-1',
        accessKey: 'AKIAFLOETEST',
        secretKey: 'secret-key-1',
      }),
    );
    allOk(result);
    expect(emu.requests[1]!.url).toBe(`/v1/${arn}/namespaces?pageToken=&pageSize=1`);
  });

  it('sigv4: a bearer token also set moves to Original-Authorization', async () => {
    const emu = await start({
      auth: 'sigv4',
      sigv4: {
        service: 's3tables',
        region: 'us-east-1',
        keys: [{ accessKeyId: 'AKIAFLOETEST', secretAccessKey: 'secret-key-1' }],
      },
    });
    const result = await runChain(
      values('sigv4', {
        catalogUrl: emu.url,
        signingName: 's3tables',
        signingRegion: 'us-east-1',
        accessKey: 'AKIAFLOETEST',
        secretKey: 'secret-key-1',
        token: 'bearer-xyz',
      }),
    );
    allOk(result);
    expect(emu.requests[0]!.headers['original-authorization']).toBe('Bearer bearer-xyz');
    expect(emu.requests[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
  });

  it('google: signs a JWT assertion, exchanges it at token_uri and sends x-goog-user-project', async () => {
    const sa = serviceAccount();
    const emu = await start({ auth: 'bearer', tokenPath: '/token', serviceAccounts: [sa.account] });
    const result = await runChain(
      values('google', {
        catalogUrl: emu.url,
        gcpServiceAccountJson: sa.json(emu.tokenUrl),
        gcpProjectId: 'floe-test-1',
      }),
    );
    allOk(result, false);
    const form = new URLSearchParams(emu.requests[0]!.body);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const claims = JSON.parse(Buffer.from(form.get('assertion')!.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({
      iss: EMAIL,
      aud: emu.tokenUrl,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
    });
    expect(emu.requests[1]!.headers['x-goog-user-project']).toBe('floe-test-1');
    expect(emu.requests[1]!.headers.authorization).toMatch(/^Bearer /);
  });
});

describe('requests', () => {
  it('strips trailing slashes, keeps the base path, sends the warehouse and never prefixes /v1/config', async () => {
    const emu = await start({ basePath: '/api/catalog', prefix: 'wh-1' });
    const result = await runChain(
      values('none', { catalogUrl: `${emu.url}///`, warehouse: 's3://bucket/olake data' }),
    );
    allOk(result);
    expect(emu.requests.map((r) => r.url)).toEqual([
      '/api/catalog/v1/config?warehouse=s3%3A%2F%2Fbucket%2Folake%20data',
      '/api/catalog/v1/wh-1/namespaces?pageToken=&pageSize=1',
    ]);
    expect(result.step('catalog.config').detail).toContain('prefix “wh-1”');
  });

  it('sends User-Agent floe/<version> and Accept: application/json', async () => {
    const emu = await start();
    await runChain(values('none', { catalogUrl: emu.url }));
    for (const r of emu.requests) {
      expect(r.headers['user-agent']).toMatch(/^floe\/\S+$/);
      expect(r.headers.accept).toBe('application/json');
    }
  });

  it('lists /v1/namespaces without a prefix and reports more pages', async () => {
    const emu = await start({ prefix: null, namespaces: [['a'], ['b'], ['a', 'x']] });
    const result = await runChain(values('none', { catalogUrl: emu.url }));
    allOk(result);
    expect(emu.requests[1]!.url).toBe('/v1/namespaces?pageToken=&pageSize=1');
    expect(result.step('catalog.namespaces').detail).toBe(
      'read access confirmed: 1 namespace on the first page (more pages)',
    );
    expect(result.step('catalog.config').detail).toContain('no prefix');
  });

  it('probes namespaces when endpoints is absent, and skips with the reason when it is not advertised', async () => {
    const absent = await start({ endpoints: null });
    const probed = await runChain(values('none', { catalogUrl: absent.url }));
    allOk(probed);
    expect(probed.step('catalog.config').detail).toContain('default endpoints');
    await absent.close();

    emulator = await startCatalogEmulator({ endpoints: ['GET /v1/{prefix}/namespaces/{namespace}'] });
    const skipped = await runChain(values('none', { catalogUrl: emulator.url }));
    expect(skipped.step('catalog.namespaces')).toMatchObject({
      state: 'skipped',
      detail: 'the server does not advertise GET /v1/{prefix}/namespaces',
    });
    expect(emulator.requests).toHaveLength(1);
  });

  it('follows a uri override for later requests and shows what the server overrides', async () => {
    const target = await startCatalogEmulator({ basePath: '/real' });
    try {
      const emu = await start({
        overrides: { uri: `${target.url}/`, warehouse: 'wh' },
        defaults: { clients: '4' },
      });
      const result = await runChain(values('none', { catalogUrl: emu.url }));
      allOk(result);
      expect(result.step('catalog.config').detail).toBe(
        `prefix “main”; server overrides uri, warehouse, prefix; 1 default; 13 endpoints; uri → ${target.url}`,
      );
      expect(target.requests.map((r) => r.url)).toEqual(['/real/v1/main/namespaces?pageToken=&pageSize=1']);
    } finally {
      await target.close();
    }
  });

  it('retries a GET once after a 503 with Retry-After', async () => {
    const emu = await start();
    emu.setFault({ kind: 'unavailable', retryAfterSeconds: 0, times: 1 }, 'config');
    const result = await runChain(values('none', { catalogUrl: emu.url }));
    allOk(result);
    expect(result.traces.map((t) => t.status)).toEqual([503, 200, 200]);
  });

  it('an abort during the Retry-After wait cancels at once (the wait honours the signal)', async () => {
    const emu = await start();
    emu.setFault({ kind: 'unavailable', retryAfterSeconds: 3600 }, 'config');
    const controller = new AbortController();
    const result = await runChain(values('none', { catalogUrl: emu.url }), {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'trace' && e.entry.status === 503) controller.abort();
      },
    });
    expect(result.step('catalog.config').state).toBe('cancelled');
    expect(emu.requests).toHaveLength(1);
  });

  it('a slow answer within the timeout passes', async () => {
    const emu = await start();
    emu.setFault({ kind: 'slow', delayMs: 200 }, 'namespaces');
    allOk(await runChain(values('none', { catalogUrl: emu.url }), { timeoutMs: 10_000 }));
  });

  it('does not follow redirects', async () => {
    const emu = await start();
    emu.setFault({ kind: 'redirect', location: '/v1/config' }, 'config');
    const result = await runChain(values('none', { catalogUrl: emu.url }));
    expect(result.step('catalog.config').state).toBe('failed');
    expect(emu.requests).toHaveLength(1);
  });
});

describe('steps', () => {
  it('emits every step pending first, then each state change, and a trace per exchange', async () => {
    const emu = await start();
    const result = await runChain(values('none', { catalogUrl: emu.url }));
    const first = result.events.slice(0, 4) as Extract<CheckEvent, { type: 'step' }>[];
    expect(first.map((e) => [e.type, e.step.id, e.step.state])).toEqual(
      CATALOG_STEPS.map((s) => ['step', s.id, 'pending']),
    );
    expect(result.steps.map((s) => s.chain)).toEqual(['catalog', 'catalog', 'catalog', 'catalog']);
    expect(result.traces.map((t) => [t.method, new URL(t.url).pathname, t.status])).toEqual([
      ['GET', '/v1/config', 200],
      ['GET', '/v1/main/namespaces', 200],
    ]);
    expect(result.step('catalog.connect').detail).toMatch(/DNS \d+ ms, TCP \d+ ms$/);
  });

  it('on abort emits the unfinished steps as cancelled and no diagnosis', async () => {
    const emu = await start();
    emu.setFault({ kind: 'silent' }, 'config');
    const controller = new AbortController();
    const result = await runChain(values('none', { catalogUrl: emu.url }), {
      signal: controller.signal,
      timeoutMs: 30_000,
      onEvent: (e) => {
        if (e.type === 'step' && e.step.id === 'catalog.config' && e.step.state === 'running')
          controller.abort();
      },
    });
    expect(result.steps.map((s) => s.state)).toEqual(['ok', 'skipped', 'cancelled', 'cancelled']);
    expect(result.diagnoses).toEqual([]);
  });

  it('stops with skipped steps after a failure and never throws', async () => {
    const result = await runChain(values('none', { catalogUrl: 'not a url' }));
    expect(result.steps.map((s) => s.state)).toEqual(['failed', 'skipped', 'skipped', 'skipped']);
    expect(result.diagnoses.map((d) => d.code)).toEqual(['CATALOG_URL_INVALID']);
  });
});
