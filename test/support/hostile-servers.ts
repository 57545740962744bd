// Hostile servers on loopback for the hostile walk (test/e2e/hostile-walk.test.ts): an OLake UI that
// answers every route of src/management/routes.ts with an instance generated from the route's schema,
// an Iceberg REST catalog that answers every operation of the official OpenAPI spec with an instance of
// its response schema, an S3 endpoint and a GCS JSON API whose every answer is an error. In `error`
// mode the OLake UI and the catalog answer every call with an error whose text is hostile.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import * as z from 'zod';
import { type ManagementRoute, ROUTES } from '../../src/management/routes.js';
import { HostileGenerator, type JsonSchema } from './hostile-schema.js';

export type Mode = 'data' | 'error';

export interface Listening {
  url: string;
  close(): Promise<void>;
  /** `METHOD path` of every request, in order. */
  readonly requests: string[];
}

async function listen(handle: (req: IncomingMessage, body: string, res: ServerResponse) => void) {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      try {
        handle(req, Buffer.concat(chunks).toString('utf8'), res);
      } catch (error) {
        res.writeHead(599, { 'content-type': 'text/plain' });
        res.end(`hostile server failed: ${(error as Error).stack}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  } satisfies Listening;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** `/a/:x/b` as a pattern: `:id` a number, any other parameter one path segment. */
function routePattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) =>
      part === ':id' ? '\\d+' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}

// ---------------------------------------------------------------------------------------------------
// OLake UI

export interface HostileOlake extends Listening {
  mode: Mode;
  /** The status of `error` answers (default 400). */
  errorStatus: number;
  /** The routes answered so far (keys of ROUTES). */
  readonly answered: Set<string>;
}

export interface HostileOlakeOptions {
  /**
   * The `config` strings (destination.json / source config as a JSON string): what the client parses
   * as a document of its own. Default: a hostile string like every other.
   */
  config?: () => string;
}

/** The JSON Schema of a route's `data`, as the client accepts it (defaults and transforms on input). */
export function routeSchema(route: ManagementRoute): JsonSchema {
  return z.toJSONSchema(route.data, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

export async function startHostileOlake(options: HostileOlakeOptions = {}): Promise<HostileOlake> {
  const gen = new HostileGenerator({
    override: (path, _schema, _generate) =>
      path.at(-1) === 'config' && options.config ? options.config() : undefined,
    // check-unique: the name is free, so push goes on to create the destination.
    boolean: (path) => path.at(-1) === 'unique',
  });
  const routes = Object.entries(ROUTES).map(([name, route]) => ({
    name,
    route: route as ManagementRoute,
    pattern: routePattern(route.path),
    schema: routeSchema(route),
  }));
  const answered = new Set<string>();
  // The switches the walk sets between runs: the returned server is this object.
  const state = { mode: 'data' as Mode, errorStatus: 400, answered };
  const listening = await listen((req, _body, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const hit = routes.find((r) => r.route.method === req.method && r.pattern.test(path));
    if (!hit) return json(res, 404, { success: false, message: `no route ${req.method} ${path}` });
    answered.add(hit.name);
    const cookie: Record<string, string> =
      hit.name === 'login' ? { 'set-cookie': 'olake-session=hostile-walk; Path=/; HttpOnly' } : {};
    if (state.mode === 'error')
      return json(
        res,
        state.errorStatus,
        { success: false, message: gen.string(), data: gen.string() },
        cookie,
      );
    json(res, 200, { success: true, message: gen.string(), data: gen.instance(hit.schema) }, cookie);
  });
  return Object.assign(state, listening);
}

// ---------------------------------------------------------------------------------------------------
// Iceberg REST catalog

/** The Iceberg REST catalog OpenAPI spec, vendored in test/fixtures/spec/. */
export const ICEBERG_SPEC = fileURLToPath(
  new URL('../fixtures/spec/iceberg-rest-catalog-open-api.yaml', import.meta.url),
);

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document
type Spec = Record<string, any>;

export function loadIcebergSpec(path = ICEBERG_SPEC): Spec {
  return parse(readFileSync(path, 'utf8')) as Spec;
}

const METHODS = ['get', 'post', 'put', 'delete', 'head'] as const;

export interface CatalogOperation {
  /** `GET /v1/{prefix}/namespaces`, as /v1/config lists endpoints. */
  endpoint: string;
  method: string;
  pattern: RegExp;
  /** The first 2xx answer: its status and the schema of its JSON body (none for 204). */
  status: number;
  schema?: JsonSchema;
  /** Error schemas by status (`default` too), resolved from components/responses. */
  errors: Record<string, JsonSchema | undefined>;
}

function responseSchema(spec: Spec, response: Spec | undefined): JsonSchema | undefined {
  let r = response;
  for (let i = 0; r?.$ref && i < 10; i++) {
    const name = String(r.$ref).split('/').at(-1)!;
    r = spec.components.responses[name];
  }
  return r?.content?.['application/json']?.schema;
}

/** Every operation of the spec, with a pattern for its path ({prefix} may be empty). */
export function catalogOperations(spec: Spec): CatalogOperation[] {
  const ops: CatalogOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths as Record<string, Spec>))
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const source = path
        .split('/')
        .map((part) =>
          part === '{prefix}'
            ? '\u0000'
            : /^\{.+\}$/.test(part)
              ? '[^/]+'
              : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/')
        .replace('/\u0000/', '/(?:[^/]+/)?');
      const statuses = Object.keys(op.responses ?? {});
      const ok = statuses.find((s) => /^2\d\d$/.test(s)) ?? '200';
      const errors: Record<string, JsonSchema | undefined> = {};
      for (const s of statuses) if (!/^2/.test(s)) errors[s] = responseSchema(spec, op.responses[s]);
      ops.push({
        endpoint: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        pattern: new RegExp(`^${source}$`),
        status: Number(ok),
        schema: responseSchema(spec, op.responses?.[ok]),
        errors,
      });
    }
  // Literal segments before parameters: /tables/rename is not the table "rename".
  return ops.sort((a, b) => literalWeight(b.endpoint) - literalWeight(a.endpoint));
}

function literalWeight(endpoint: string): number {
  return endpoint.split('/').filter((p) => p && !p.startsWith('{')).length * 10 - endpoint.split('{').length;
}

export interface HostileCatalog extends Listening {
  mode: Mode;
  /** The status of `error` answers of operations other than the token endpoint (default 403). */
  errorStatus: number;
  /** The endpoints answered so far. */
  readonly answered: Set<string>;
  readonly operations: CatalogOperation[];
}

export async function startHostileCatalog(spec: Spec): Promise<HostileCatalog> {
  const operations = catalogOperations(spec);
  const gen = new HostileGenerator({ root: spec });
  const answered = new Set<string>();
  const state = { mode: 'data' as Mode, errorStatus: 403, answered, operations };
  const schemas = spec.components.schemas as Record<string, JsonSchema>;
  const listening = await listen((req, _body, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const op = operations.find((o) => o.method === req.method && o.pattern.test(path));
    if (!op) return json(res, 404, gen.instance(schemas.IcebergErrorResponse!));
    answered.add(op.endpoint);
    const token = op.endpoint === 'POST /v1/oauth/tokens';
    if (state.mode === 'error') {
      const status = token ? 401 : state.errorStatus;
      if (req.method === 'HEAD') return void res.writeHead(status).end();
      const schema = op.errors[String(status)] ?? (token ? schemas.OAuthError : schemas.IcebergErrorResponse);
      return json(res, status, gen.instance(schema!));
    }
    if (req.method === 'HEAD' || !op.schema) return void res.writeHead(op.status).end();
    const body = gen.instance(op.schema) as Record<string, unknown>;
    // The catalog config's endpoint list is data the client reads: every operation of the spec is
    // there (so the chains go on to call them), plus the hostile strings generated.
    if (op.endpoint === 'GET /v1/config' && Array.isArray(body.endpoints))
      body.endpoints = [...operations.map((o) => o.endpoint), ...body.endpoints];
    json(res, op.status, body);
  });
  return Object.assign(state, listening);
}

// ---------------------------------------------------------------------------------------------------
// Object stores

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An S3 endpoint that refuses everything: 403 with an S3 error document whose every text is hostile. */
export async function startHostileS3(): Promise<Listening> {
  const gen = new HostileGenerator();
  return listen((req, _body, res) => {
    if (req.method === 'HEAD') return void res.writeHead(403).end();
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${xml(gen.string())}</Code><Message>${xml(gen.string())}</Message><Resource>${xml(gen.string())}</Resource><RequestId>${xml(gen.string())}</RequestId><HostId>${xml(gen.string())}</HostId></Error>`;
    res.writeHead(403, { 'content-type': 'application/xml' });
    res.end(body);
  });
}

export interface HostileGcs extends Listening {
  /** A service-account key whose token_uri is this server's (its texts hostile, its key real). */
  serviceAccountJson(): string;
  /** `token`: the token endpoint refuses with a hostile OAuth error; `api` (default): the JSON API does. */
  failAt: 'token' | 'api';
}

function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A GCS JSON API (STORAGE_EMULATOR_HOST) and token endpoint answering hostile errors. */
export async function startHostileGcs(): Promise<HostileGcs> {
  const gen = new HostileGenerator();
  const state = { failAt: 'api' as 'token' | 'api' };
  const listening = await listen((req, _body, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/token') {
      if (state.failAt === 'token')
        return json(res, 400, {
          error: gen.string(),
          error_description: gen.string(),
          error_uri: gen.string(),
        });
      return json(res, 200, { access_token: 'hostile-walk-token', token_type: 'Bearer', expires_in: 3600 });
    }
    if (req.method === 'HEAD') return void res.writeHead(403).end();
    json(res, 403, {
      error: {
        code: 403,
        message: gen.string(),
        errors: [{ message: gen.string(), domain: gen.string(), reason: gen.string() }],
      },
    });
  });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return Object.assign(state, listening, {
    // Every character beyond ASCII \u-escaped: the key file is valid JSON free of raw controls, its
    // texts hostile once parsed.
    serviceAccountJson: () =>
      asciiJson({
        type: 'service_account',
        project_id: gen.string(),
        private_key_id: gen.string(),
        private_key: pem,
        client_email: `walk@${gen.string()}`,
        client_id: gen.string(),
        token_uri: `${listening.url}/token`,
      }),
  });
}
