// The emulator's answers validated against the Iceberg REST catalog OpenAPI spec's schemas.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { parse } from 'yaml';
import {
  type CatalogEmulator,
  type CatalogFault,
  type FaultRoute,
  startCatalogEmulator,
} from '../../src/sandbox/catalog/index.js';
import { itWithService } from '../support/services.js';

/** shared/spec/ beside the checkout (../shared), found from any worktree depth below it. */
function findSpec(): string {
  const relative = join('shared', 'spec', 'iceberg-rest-catalog-open-api.yaml');
  const root = fileURLToPath(new URL('../..', import.meta.url));
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    if (existsSync(join(dir, relative))) return join(dir, relative);
    if (dirname(dir) === dir) return join(dirname(root), relative);
  }
}

const SPEC = findSpec();
const specStatus = existsSync(SPEC) ? 'ready' : `the spec is missing at ${SPEC}`;
const it = itWithService(specStatus, 'the Iceberg REST OpenAPI spec');

let ajv: Ajv2020;
let emulator: CatalogEmulator;

beforeAll(async () => {
  if (specStatus === 'ready') {
    ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true, logger: false });
    ajv.addSchema(parse(readFileSync(SPEC, 'utf8')) as object, 'spec');
  }
  emulator = await startCatalogEmulator({
    auth: 'bearer',
    tokens: ['reader', 'expired-soon'],
    clients: [{ id: 'olake', secret: 's3cr3t', scopes: ['catalog'] }],
    denied: ['expired-soon'],
    warehouses: ['s3://lake'],
    defaults: { clients: '4' },
    overrides: { warehouse: 's3://lake' },
    namespaces: [['accounting'], ['accounting', 'tax'], ['sales'], ['ops']],
  });
});
afterAll(() => emulator.close());

function validate(schema: string, body: unknown): void {
  const check = ajv.getSchema(`spec#/components/schemas/${schema}`);
  if (!check) throw new Error(`no schema ${schema}`);
  const valid = check(body);
  expect(check.errors ?? [], `${schema}: ${JSON.stringify(body)}`).toEqual([]);
  expect(valid).toBe(true);
}

async function get(path: string, headers: Record<string, string> = { authorization: 'Bearer reader' }) {
  const res = await fetch(`${emulator.url}${path}`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
}

async function token(form: Record<string, string>) {
  const res = await fetch(emulator.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: await res.json() };
}

async function withFault<T>(fault: CatalogFault, route: FaultRoute, fn: () => Promise<T>): Promise<T> {
  emulator.setFault(fault, route);
  try {
    return await fn();
  } finally {
    emulator.setFault(null, route);
  }
}

describe('emulator responses match the OpenAPI spec', () => {
  it('GET /v1/config is a CatalogConfig', async () => {
    const res = await get('/v1/config?warehouse=s3%3A%2F%2Flake');
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json');
    validate('CatalogConfig', res.body);
    expect(res.body.overrides).toEqual({ warehouse: 's3://lake', prefix: 'main' });
  });

  it('namespace pages are ListNamespacesResponse, paginated when pageToken is sent', async () => {
    const first = await get('/v1/main/namespaces?pageToken=&pageSize=2');
    validate('ListNamespacesResponse', first.body);
    expect(first.body.namespaces).toEqual([['accounting'], ['sales']]);
    expect(typeof first.body['next-page-token']).toBe('string');
    const second = await get(`/v1/main/namespaces?pageToken=${first.body['next-page-token']}&pageSize=2`);
    validate('ListNamespacesResponse', second.body);
    expect(second.body).toEqual({ namespaces: [['ops']], 'next-page-token': null });
    const all = await get('/v1/main/namespaces');
    validate('ListNamespacesResponse', all.body);
    expect(all.body).toEqual({ namespaces: [['accounting'], ['sales'], ['ops']], 'next-page-token': null });
    const children = await get('/v1/main/namespaces?parent=accounting');
    expect(children.body.namespaces).toEqual([['accounting', 'tax']]);
  });

  it('GET and HEAD of a namespace', async () => {
    const ns = await get('/v1/main/namespaces/accounting%1Ftax');
    validate('GetNamespaceResponse', ns.body);
    expect(ns.body.namespace).toEqual(['accounting', 'tax']);
    const head = await fetch(`${emulator.url}/v1/main/namespaces/sales`, {
      method: 'HEAD',
      headers: { authorization: 'Bearer reader' },
    });
    expect(head.status).toBe(204);
    const missing = await get('/v1/main/namespaces/nope');
    expect(missing.status).toBe(404);
    validate('IcebergErrorResponse', missing.body);
    expect(missing.body.error.type).toBe('NoSuchNamespaceException');
  });

  it('errors are IcebergErrorResponse: 401, 403, 404 warehouse, 503, 500', async () => {
    const cases = [
      await get('/v1/config', {}),
      await get('/v1/main/namespaces', { authorization: 'Bearer expired-soon' }),
      await get('/v1/config?warehouse=s3%3A%2F%2Fother'),
      await withFault({ kind: 'unavailable', retryAfterSeconds: 3 }, 'config', () => get('/v1/config')),
      await withFault({ kind: 'server-error' }, 'config', () => get('/v1/config')),
    ];
    expect(cases.map((c) => c.status)).toEqual([401, 403, 404, 503, 500]);
    for (const c of cases) {
      validate('IcebergErrorResponse', c.body);
      expect(c.body.error.code).toBe(c.status);
    }
  });

  it('the client-credentials token response is an OAuthTokenResponse', async () => {
    const res = await token({
      grant_type: 'client_credentials',
      client_id: 'olake',
      client_secret: 's3cr3t',
      scope: 'catalog',
    });
    expect(res.status).toBe(200);
    validate('OAuthTokenResponse', res.body);
    expect(res.body.token_type).toBe('bearer');
  });

  it('token errors are OAuthError bodies', async () => {
    const cases = [
      await token({ grant_type: 'client_credentials', client_id: 'olake', client_secret: 'wrong' }),
      await token({
        grant_type: 'client_credentials',
        client_id: 'olake',
        client_secret: 's3cr3t',
        scope: 'admin',
      }),
      await token({ grant_type: 'password', username: 'u', password: 'p' }),
    ];
    expect(cases.map((c) => [c.status, c.body.error])).toEqual([
      [401, 'invalid_client'],
      [400, 'invalid_scope'],
      [400, 'unsupported_grant_type'],
    ]);
    for (const c of cases) validate('OAuthError', c.body);
  });
});
