// The catalog emulator in each real server's flavour answers as strictly as that server's source:
// right and wrong credentials, a missing or unknown warehouse, where the prefix comes from, an
// unauthenticated unknown path (401, not 404) and routes it does not implement (406/501, not 404).
import { afterAll, describe, expect, it } from 'vitest';
import {
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  javaUrlEncode,
  lakekeeperWarehouseId,
  startCatalogEmulator,
} from '../../src/sandbox/catalog/index.js';
import { errorOf, type SigningKey, send } from './support.js';

const started: CatalogEmulator[] = [];
afterAll(() => Promise.all(started.map((e) => e.close())));

async function start(options: CatalogEmulatorOptions): Promise<CatalogEmulator> {
  const emulator = await startCatalogEmulator({ namespaces: [['default'], ['olake']], ...options });
  started.push(emulator);
  return emulator;
}

const CLIENT = { id: 'olake-client', secret: 'right-secret' };
const KEY = { accessKeyId: 'AKIAFLOETEST', secretAccessKey: 'right-secret-key' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function tokenAt(url: string, form: Record<string, string>): Promise<string> {
  const answer = await send('POST', url, { form });
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { access_token: string }).access_token;
}

describe('polaris', () => {
  const options: CatalogEmulatorOptions = {
    flavour: 'polaris',
    basePath: '/api/catalog',
    auth: 'bearer',
    clients: [{ ...CLIENT }],
    warehouses: ['olake_catalog'],
    dataLocation: 's3://lake/polaris',
  };
  const grant = (extra: Record<string, string>) => ({ grant_type: 'client_credentials', ...extra });
  const right = grant({ client_id: CLIENT.id, client_secret: CLIENT.secret, scope: 'PRINCIPAL_ROLE:ALL' });

  it('issues a token for the right client and scope; its catalog is found by name', async () => {
    const emu = await start(options);
    expect(emu.tokenUrl).toBe(`${emu.url}/v1/oauth/tokens`);
    const token = await tokenAt(emu.tokenUrl, right);
    const config = await send('GET', `${emu.url}/v1/config?warehouse=olake_catalog`, {
      headers: bearer(token),
    });
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      defaults: { 'default-base-location': 's3://lake/polaris' },
      overrides: { prefix: 'olake_catalog', 'namespace-separator': '%1F' },
    });
    const list = await send('GET', `${emu.url}/v1/olake_catalog/namespaces`, { headers: bearer(token) });
    expect(list.body).toEqual({ namespaces: [['default'], ['olake']], 'next-page-token': null });
  });

  it('token errors are TokenRequestValidator/JWTBroker/OAuthUtils ones', async () => {
    const emu = await start(options);
    const cases: [Record<string, string>, number, string][] = [
      [{ ...right, client_secret: 'wrong' }, 401, 'unauthorized_client'],
      [{ ...right, client_id: 'nobody' }, 401, 'unauthorized_client'],
      [grant({ client_secret: CLIENT.secret, scope: 'PRINCIPAL_ROLE:ALL' }), 400, 'invalid_client'],
      [grant({ client_id: CLIENT.id, scope: 'PRINCIPAL_ROLE:ALL' }), 400, 'invalid_client'],
      [grant({ client_id: CLIENT.id, client_secret: CLIENT.secret }), 400, 'invalid_scope'],
      [{ ...right, scope: 'catalog' }, 400, 'invalid_scope'],
      [{ ...right, scope: 'PRINCIPAL_ROLE:' }, 400, 'invalid_scope'],
      [{ ...right, grant_type: 'password' }, 400, 'unsupported_grant_type'],
    ];
    for (const [form, status, error] of cases) {
      const answer = await send('POST', emu.tokenUrl, { form });
      expect([answer.status, errorOf(answer).type], JSON.stringify(form)).toEqual([status, error]);
    }
    const exchange = await send('POST', emu.tokenUrl, {
      form: { ...right, grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange' },
    });
    expect(exchange.status, 'a token-exchange request with client secrets is a new token').toBe(200);
    const wrong = await send('POST', emu.tokenUrl, { form: { ...right, client_secret: 'wrong' } });
    expect(wrong.body).toEqual({
      error: 'unauthorized_client',
      error_description: 'The client is not authorized',
    });
  });

  it('warehouse: 400 without one, 404 for an unknown one (an s3:// location is not a catalog name)', async () => {
    const emu = await start(options);
    const token = await tokenAt(emu.tokenUrl, right);
    const missing = await send('GET', `${emu.url}/v1/config`, { headers: bearer(token) });
    expect(errorOf(missing)).toEqual({
      status: 400,
      type: 'BadRequestException',
      message: 'Please specify a warehouse',
    });
    const unknown = await send('GET', `${emu.url}/v1/config?warehouse=s3%3A%2F%2Fwarehouse`, {
      headers: bearer(token),
    });
    expect(errorOf(unknown)).toEqual({
      status: 404,
      type: 'NotFoundException',
      message: 'Unable to find warehouse s3://warehouse',
    });
  });

  it('authenticates before routing, and answers unimplemented routes 406', async () => {
    const emu = await start(options);
    for (const path of ['/api/catalog/v1/nope', '/nope', '/api/catalog/v1/olake_catalog/namespaces'])
      expect((await send('GET', `${emu.origin}${path}`)).status, path).toBe(401);
    const token = await tokenAt(emu.tokenUrl, right);
    const transaction = await send('POST', `${emu.url}/v1/olake_catalog/transactions/commit`, {
      headers: bearer(token),
    });
    expect(errorOf(transaction).status).toBe(406);
    expect(errorOf(transaction).type).toBe('UnsupportedOperationException');
    const register = await send('POST', `${emu.url}/v1/olake_catalog/namespaces/default/register`, {
      headers: bearer(token),
    });
    expect(register.status).toBe(406);
    const nowhere = await send('GET', `${emu.url}/v1/nope`, { headers: bearer(token) });
    expect(errorOf(nowhere)).toMatchObject({ status: 404, type: 'NotFoundException' });
  });
});

describe('lakekeeper', () => {
  const idp = '/realms/iceberg/protocol/openid-connect/token';
  const options: CatalogEmulatorOptions = {
    flavour: 'lakekeeper',
    basePath: '/catalog',
    auth: 'bearer',
    clients: [{ ...CLIENT, scopes: ['lakekeeper'] }],
    tokenPath: idp,
    warehouses: ['demo'],
  };
  const form = { grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret };

  it('prefix (the warehouse id) in defaults, overrides.uri from the Host or X-Forwarded-* headers', async () => {
    const emu = await start(options);
    expect(emu.tokenUrl).toBe(`${emu.origin}${idp}`);
    const token = await tokenAt(emu.tokenUrl, { ...form, scope: 'lakekeeper' });
    const id = lakekeeperWarehouseId('demo');
    for (const warehouse of ['demo', '00000000-0000-0000-0000-000000000000/demo']) {
      const config = await send('GET', `${emu.url}/v1/config?warehouse=${encodeURIComponent(warehouse)}`, {
        headers: bearer(token),
      });
      expect(config.body).toMatchObject({
        defaults: { prefix: id, 'rest-page-size': '100' },
        overrides: { uri: emu.url },
      });
      expect((config.body as { overrides: object }).overrides).not.toHaveProperty('prefix');
    }
    const proxied = await send('GET', `${emu.url}/v1/config?warehouse=demo`, {
      headers: { ...bearer(token), 'x-forwarded-proto': 'https', 'x-forwarded-host': 'lakekeeper.internal' },
    });
    expect(proxied.body).toMatchObject({ overrides: { uri: 'https://lakekeeper.internal/catalog' } });
    const list = await send('GET', `${emu.url}/v1/${id}/namespaces`, { headers: bearer(token) });
    expect(list.status).toBe(200);
  });

  it('LAKEKEEPER__BASE_URI: overrides.uri is the configured base, reachable or not', async () => {
    const emu = await start({ ...options, auth: 'none', baseUri: 'http://lakekeeper:8181' });
    const config = await send('GET', `${emu.url}/v1/config?warehouse=demo`);
    expect(config.body).toMatchObject({ overrides: { uri: 'http://lakekeeper:8181/catalog' } });
  });

  it('no warehouse: 400 GetConfigNoWarehouseProvided; unknown: 404 NoSuchWarehouseException', async () => {
    const emu = await start(options);
    const token = await tokenAt(emu.tokenUrl, { ...form, scope: 'lakekeeper' });
    const missing = await send('GET', `${emu.url}/v1/config`, { headers: bearer(token) });
    expect(errorOf(missing)).toMatchObject({ status: 400, type: 'GetConfigNoWarehouseProvided' });
    const unknown = await send('GET', `${emu.url}/v1/config?warehouse=s3%3A%2F%2Fwarehouse`, {
      headers: bearer(token),
    });
    expect(errorOf(unknown)).toEqual({
      status: 404,
      type: 'NoSuchWarehouseException',
      message: "A warehouse 's3://warehouse' does not exist",
    });
  });

  it('the identity provider refuses a wrong secret; there is no /v1/oauth/tokens', async () => {
    const emu = await start(options);
    const wrong = await send('POST', emu.tokenUrl, { form: { ...form, client_secret: 'wrong' } });
    expect(errorOf(wrong)).toMatchObject({ status: 401, type: 'invalid_client' });
    const legacy = await send('POST', `${emu.url}/v1/oauth/tokens`, { form });
    expect(legacy.status).toBe(401);
    expect((await send('GET', `${emu.url}/v2/anything`)).status).toBe(401);
  });
});

describe('nessie', () => {
  const options: CatalogEmulatorOptions = {
    flavour: 'nessie',
    basePath: '/iceberg',
    warehouses: ['warehouse'],
    dataLocation: 's3://warehouse',
  };

  it('prefix main|<warehouse as given>, URL-encoded, in defaults; the location as defaults.warehouse', async () => {
    const emu = await start(options);
    const cases: [string, string][] = [
      ['?warehouse=s3%3A%2F%2Fwarehouse%2F', 'main%7Cs3%3A%2F%2Fwarehouse%2F'],
      ['?warehouse=warehouse', 'main%7Cwarehouse'],
      ['', 'main'],
    ];
    for (const [query, prefix] of cases) {
      const config = await send('GET', `${emu.url}/v1/config${query}`);
      expect(config.body, query).toMatchObject({
        defaults: { prefix, warehouse: 's3://warehouse', 'rest-page-size': '200' },
        overrides: { uri: `${emu.url}/`, 'nessie.is-nessie-catalog': 'true' },
      });
      const list = await send('GET', `${emu.url}/v1/${prefix}/namespaces`);
      expect(list.status, prefix).toBe(200);
    }
    expect(javaUrlEncode('main|s3://a b')).toBe('main%7Cs3%3A%2F%2Fa+b');
  });

  it('an unknown warehouse is an IllegalStateException (500), in config and in a prefix', async () => {
    const emu = await start(options);
    const config = await send('GET', `${emu.url}/v1/config?warehouse=s3%3A%2F%2Fother`);
    expect(errorOf(config)).toEqual({
      status: 500,
      type: 'IllegalStateException',
      message: "Warehouse 's3://other' is not known",
    });
    const list = await send('GET', `${emu.url}/v1/main%7Cother/namespaces`);
    expect(errorOf(list)).toMatchObject({ status: 500, type: 'IllegalStateException' });
  });

  it('/v1/oauth/tokens answers 501 NotImplemented, with or without credentials', async () => {
    const emu = await start({ ...options, auth: 'bearer', tokens: ['t'] });
    expect(emu.tokenUrl).toBe(`${emu.url}/v1/oauth/tokens`);
    const answer = await send('POST', emu.tokenUrl, {
      form: { grant_type: 'client_credentials', client_id: 'a', client_secret: 'b' },
    });
    expect(answer.status).toBe(501);
    expect(answer.body).toEqual({
      error: 'NotImplemented',
      error_description:
        'Endpoint not implemented: please configure the catalog client with the oauth2-server-uri property.',
    });
    expect((await send('GET', `${emu.url}/v1/nope`)).status).toBe(401);
    expect(
      (await send('POST', `${emu.url}/v1/main/namespaces/default/register`, { headers: bearer('t') })).status,
    ).toBe(406);
  });
});

describe('unity', () => {
  const options: CatalogEmulatorOptions = {
    flavour: 'unity',
    basePath: '/api/2.1/unity-catalog/iceberg',
    auth: 'bearer',
    tokens: ['dapi-token'],
    warehouses: ['unity'],
  };

  it('any warehouse gets 200 and prefix catalogs/<name>; an unknown one fails at the namespaces', async () => {
    const emu = await start(options);
    for (const name of ['unity', 'no_such_catalog']) {
      const config = await send('GET', `${emu.url}/v1/config?warehouse=${name}`, {
        headers: bearer('dapi-token'),
      });
      expect(config.status).toBe(200);
      expect(config.body).toMatchObject({ overrides: { prefix: `catalogs/${name}` } });
    }
    const ok = await send('GET', `${emu.url}/v1/catalogs/unity/namespaces`, {
      headers: bearer('dapi-token'),
    });
    expect(ok.status).toBe(200);
    const unknown = await send('GET', `${emu.url}/v1/catalogs/no_such_catalog/namespaces`, {
      headers: bearer('dapi-token'),
    });
    expect(errorOf(unknown)).toMatchObject({ status: 404, message: 'Catalog not found: no_such_catalog' });
  });

  it('no warehouse: 400; a wrong token: 401; no token on an unknown path: 401', async () => {
    const emu = await start(options);
    const missing = await send('GET', `${emu.url}/v1/config`, { headers: bearer('dapi-token') });
    expect(errorOf(missing)).toMatchObject({ status: 400, type: 'BadRequestException' });
    const wrong = await send('GET', `${emu.url}/v1/config?warehouse=unity`, { headers: bearer('wrong') });
    expect(errorOf(wrong)).toMatchObject({ status: 401, type: 'NotAuthorizedException' });
    expect((await send('POST', `${emu.url}/v1/oauth/tokens`)).status).toBe(401);
  });
});

describe('glue and s3tables (SigV4)', () => {
  const glueKey: SigningKey = { ...KEY, service: 'glue', region: 'us-east-1' };
  const arn = 'arn:aws:s3tables:us-east-1:123456789012:bucket/warehouse';

  async function glue() {
    return start({
      flavour: 'glue',
      basePath: '/iceberg',
      auth: 'sigv4',
      sigv4: {
        service: 'glue',
        region: 'us-east-1',
        keys: [{ ...KEY, arn: 'arn:aws:iam::123456789012:user/olake' }],
      },
      warehouses: ['123456789012'],
    });
  }

  it('glue: the account id is the warehouse, prefix catalogs/<id>; without one, the caller account', async () => {
    const emu = await glue();
    for (const query of ['?warehouse=123456789012', '']) {
      const config = await send('GET', `${emu.url}/v1/config${query}`, { sign: glueKey });
      expect(config.status, config.text).toBe(200);
      expect(config.body).toMatchObject({ overrides: { prefix: 'catalogs/123456789012' } });
    }
    const other = await send('GET', `${emu.url}/v1/config?warehouse=s3%3A%2F%2Fwarehouse`, { sign: glueKey });
    expect(errorOf(other).status).toBe(404);
    const list = await send('GET', `${emu.url}/v1/catalogs/123456789012/namespaces`, { sign: glueKey });
    expect(list.status, list.text).toBe(200);
    const views = await send('GET', `${emu.url}/v1/catalogs/123456789012/namespaces/default/views`, {
      sign: glueKey,
    });
    expect(views.status).toBe(406);
  });

  it('glue: unsigned → 403 MissingAuthenticationToken (any path), a wrong secret or service → 403', async () => {
    const emu = await glue();
    for (const path of ['/iceberg/v1/config', '/nope'])
      expect(errorOf(await send('GET', `${emu.origin}${path}`))).toMatchObject({
        status: 403,
        type: 'MissingAuthenticationTokenException',
      });
    const wrong = await send('GET', `${emu.url}/v1/config`, {
      sign: { ...glueKey, secretAccessKey: 'wrong' },
    });
    expect(errorOf(wrong)).toMatchObject({ status: 403, type: 'InvalidSignatureException' });
    const service = await send('GET', `${emu.url}/v1/config`, {
      sign: { ...glueKey, service: 'execute-api' },
    });
    expect(errorOf(service)).toMatchObject({ status: 403, type: 'InvalidSignatureException' });
  });

  it('s3tables: the bucket ARN is the warehouse, its percent-encoded prefix is in defaults', async () => {
    const key: SigningKey = { ...KEY, service: 's3tables', region: 'us-east-1' };
    const emu = await start({
      flavour: 's3tables',
      basePath: '/iceberg',
      auth: 'sigv4',
      sigv4: { service: 's3tables', region: 'us-east-1', keys: [KEY] },
      warehouses: [arn],
    });
    const config = await send('GET', `${emu.url}/v1/config?warehouse=${encodeURIComponent(arn)}`, {
      sign: key,
    });
    expect(config.body).toMatchObject({ defaults: { prefix: encodeURIComponent(arn) }, overrides: {} });
    const list = await send('GET', `${emu.url}/v1/${encodeURIComponent(arn)}/namespaces`, { sign: key });
    expect(list.status, list.text).toBe(200);
    const missing = await send('GET', `${emu.url}/v1/config`, { sign: key });
    expect(errorOf(missing).status).toBe(400);
    const unknown = await send('GET', `${emu.url}/v1/config?warehouse=s3%3A%2F%2Fwarehouse`, { sign: key });
    expect(errorOf(unknown)).toMatchObject({ status: 404, type: 'NoSuchWarehouseException' });
  });
});

describe('rest (the generic fixture) is no kinder than real servers', () => {
  it('401 before 404 for an unknown path; 406 for routes it does not implement', async () => {
    const emu = await start({ auth: 'bearer', tokens: ['t'] });
    expect((await send('GET', `${emu.url}/v1/nope`)).status).toBe(401);
    expect((await send('GET', `${emu.url}/v1/nope`, { headers: bearer('t') })).status).toBe(404);
    for (const [method, path] of [
      ['POST', '/v1/main/namespaces/default/register'],
      ['GET', '/v1/main/namespaces/default/views'],
      ['POST', '/v1/main/transactions/commit'],
    ] as const) {
      const answer = await send(method, `${emu.url}${path}`, { headers: bearer('t') });
      expect(errorOf(answer), `${method} ${path}`).toMatchObject({
        status: 406,
        type: 'UnsupportedOperationException',
      });
    }
  });

  it('pageSize must be at least 1, with or without a pageToken', async () => {
    const emu = await start({});
    for (const query of ['?pageSize=0', '?pageToken=&pageSize=0', '?pageSize=x'])
      expect((await send('GET', `${emu.url}/v1/main/namespaces${query}`)).status, query).toBe(400);
  });

  it('decodes the path segment by segment: %2F stays inside a namespace name', async () => {
    const emu = await start({ namespaces: [['a/b'], ['a'], ['a', 'b']] });
    const slash = await send('GET', `${emu.url}/v1/main/namespaces/a%2Fb`);
    expect(slash.body).toEqual({ namespace: ['a/b'], properties: {} });
    const nested = await send('GET', `${emu.url}/v1/main/namespaces/a%1Fb`);
    expect(nested.body).toEqual({ namespace: ['a', 'b'], properties: {} });
  });

  it('client credentials sent in Basic and in the body at once: 400 invalid_request (RFC 6749 §2.3)', async () => {
    const emu = await start({ auth: 'bearer', clients: [{ ...CLIENT }] });
    const basic = Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64');
    const both = await send('POST', emu.tokenUrl, {
      headers: { authorization: `Basic ${basic}` },
      form: { grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret },
    });
    expect(errorOf(both)).toMatchObject({ status: 400, type: 'invalid_request' });
    const one = await send('POST', emu.tokenUrl, {
      headers: { authorization: `Basic ${basic}` },
      form: { grant_type: 'client_credentials' },
    });
    expect(one.status).toBe(200);
  });

  it("Google's jwt-bearer grant is only the identity provider's, not the Iceberg token route's", async () => {
    const emu = await start({ auth: 'bearer', tokenPath: '/token', serviceAccounts: [] });
    const form = { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'a.b.c' };
    const iceberg = await send('POST', `${emu.url}/v1/oauth/tokens`, { form });
    expect(errorOf(iceberg)).toMatchObject({ status: 400, type: 'unsupported_grant_type' });
    const idp = await send('POST', emu.tokenUrl, { form });
    expect(errorOf(idp)).toMatchObject({ status: 400, type: 'invalid_grant' });
  });
});
