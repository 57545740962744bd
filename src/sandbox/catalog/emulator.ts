// A loopback Iceberg REST catalog for tests and `floe sandbox`: /v1/config, the namespace and table
// routes (tables.ts; metadata files in an object store, store.ts), an OAuth2 token endpoint
// (tokens.ts), bearer or SigV4 checks on catalog routes, an STS AssumeRole stand-in, privilege
// refusals (`deny`) and a switch for every fault floe diagnoses (faults.ts). node:http only.
//
// Like real servers it authenticates before routing (401, not 404, for an unknown path without
// credentials) and answers the spec's routes it does not implement with 406
// UnsupportedOperationException (the status apache/iceberg's RESTCatalogAdapter and polaris
// IcebergExceptionMapper give UnsupportedOperationException), never 404. A flavour (flavours/)
// models one real server's /v1/config, warehouse, prefix, token endpoint, table locations and
// refusals.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { logFailure } from '../log.js';
import { authenticator, type IssuedToken } from './auth.js';
import { applyFault, type CatalogFault, type FaultRoute, spend } from './faults.js';
import {
  DEFAULT_WAREHOUSES,
  FLAVOURS,
  type FlavourContext,
  isRouteHead,
  type Privilege,
  REST_RULES,
} from './flavours/index.js';
import { flat, icebergError, json, readBody } from './http.js';
import {
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  DEFAULT_ENDPOINTS,
  type RecordedRequest,
} from './options.js';
import {
  gcsObjectStore,
  memoryObjectStore,
  type NamespaceEntry,
  nsKey,
  s3ObjectStore,
  type TableEntry,
} from './store.js';
import { moreRouteOf, routeOf, tableRoutes } from './tables.js';
import { tokenEndpoints } from './tokens.js';

export type { CatalogFault, FaultRoute } from './faults.js';
export type { CatalogFlavour, Privilege } from './flavours/index.js';
export {
  type CatalogAuthMode,
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  DEFAULT_ENDPOINTS,
  type RecordedRequest,
} from './options.js';
export type { GcsStoreOptions, ObjectStoreOptions } from './store.js';
export type { OAuthClient } from './tokens.js';
export type { AccessKey, ServiceAccount } from './verify.js';

const DEFAULT_ACCOUNT = '123456789012';
const DEFAULT_GCP_PROJECT = 'floe-emulator';

export async function startCatalogEmulator(options: CatalogEmulatorOptions = {}): Promise<CatalogEmulator> {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const prefix = options.prefix === undefined ? 'main' : options.prefix;
  // The prefix is inserted into paths as advertised (maybe percent-encoded); routes compare decoded segments.
  const prefixSegments = prefix ? prefix.split('/').map((part) => decodeURIComponent(part)) : [];
  const flavour = options.flavour ?? 'rest';
  const model = flavour === 'rest' ? undefined : FLAVOURS[flavour];
  const warehouses = options.warehouses ?? (flavour === 'rest' ? [] : [DEFAULT_WAREHOUSES[flavour]]);
  const dataLocation = options.dataLocation ?? 's3://warehouse';
  const callerAccount =
    /^arn:aws:iam::(\d{12}):/.exec(options.sigv4?.keys[0]?.arn ?? '')?.[1] ?? DEFAULT_ACCOUNT;
  const authMode = options.auth ?? 'none';
  const ttl = options.tokenTtlSeconds ?? 3600;
  const tokens = new Map<string, IssuedToken>();
  const staticTokens = new Set(options.tokens ?? []);
  const denied = new Set(options.denied ?? []);
  let deniedPrivileges = new Set<Privilege>(options.deny ?? []);
  const keys = new Map((options.sigv4?.keys ?? []).map((k) => [k.accessKeyId, k]));
  const namespaces = new Map<string, NamespaceEntry>(
    (options.namespaces ?? [['default']]).map((levels) => [
      nsKey(levels),
      { levels, properties: {}, uuid: randomUUID() },
    ]),
  );
  const tables = new Map<string, TableEntry>();
  const objectStore =
    options.objectStore === undefined
      ? memoryObjectStore()
      : 'kind' in options.objectStore
        ? gcsObjectStore(options.objectStore)
        : s3ObjectStore(options.objectStore);
  const faults = new Map<FaultRoute, CatalogFault>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  // Closing aborts the waits of slow faults; close() awaits every handler still running, so none
  // writes to the object store after the emulator said it stopped.
  const closing = new AbortController();
  const running = new Set<Promise<void>>();
  let issued = 0;
  let origin = '';
  const now = () => Date.now() + (options.clockOffsetMs ?? 0);
  const issue = (principal: string) => {
    const token = randomBytes(24).toString('base64url');
    tokens.set(token, { principal, expiresAt: now() + ttl * 1000 });
    issued++;
    return token;
  };
  const endpoints = tokenEndpoints({
    clients: options.clients ?? [],
    serviceAccounts: options.serviceAccounts ?? [],
    ttl,
    now,
    issue,
    keys,
    stsRoles: options.sts?.allowedRoles ?? [],
  });
  const baseCtx = {
    warehouses,
    dataLocation,
    callerAccount,
    catalogProperties: options.catalogProperties ?? {},
    project: options.gcpProject ?? DEFAULT_GCP_PROJECT,
  };
  const routes = tableRoutes({
    rules: model ?? REST_RULES,
    ctx: { ...baseCtx, baseUrl: '' },
    store: objectStore,
    namespaces,
    tables,
    denied: () => deniedPrivileges,
    base: options.tableLocationBase ?? dataLocation,
    now,
  });

  const authenticate = authenticator({
    mode: authMode,
    sigv4: {
      service: options.sigv4?.service ?? 'execute-api',
      region: options.sigv4?.region ?? 'us-east-1',
      keys,
    },
    staticTokens,
    tokens,
    ...(options.trustedTokens ? { trusted: options.trustedTokens } : {}),
    now,
    expiredTokenStatus: options.expiredTokenStatus ?? 401,
  });

  /**
   * What answers `{basePath}/v1/oauth/tokens`. `absent`: no route in this server, so it authenticates
   * first, like any unknown path. `unserved`: a token route switched off (legacyTokenEndpoint false)
   * stays outside the authenticated API, like the spec's getToken (no required security): 404.
   */
  const legacyTokenRoute =
    model?.legacyToken === 'not-implemented'
      ? 'nessie'
      : model?.legacyToken === 'absent'
        ? 'absent'
        : options.legacyTokenEndpoint === false
          ? 'unserved'
          : model
            ? 'polaris'
            : 'idp';

  function flavourContext(req: IncomingMessage): FlavourContext {
    const forwardedHost = req.headers['x-forwarded-host'];
    const proto = req.headers['x-forwarded-proto'] ?? (options.tls ? 'https' : 'http');
    const port = req.headers['x-forwarded-port'];
    const host =
      typeof forwardedHost === 'string'
        ? `${forwardedHost}${typeof port === 'string' ? `:${port}` : ''}`
        : (req.headers.host ?? origin.replace(/^\w+:\/\//, ''));
    const base = options.baseUri ? options.baseUri.replace(/\/+$/, '') : `${proto}://${host}`;
    return { ...baseCtx, baseUrl: `${base}${basePath}` };
  }

  function config(req: IncomingMessage, res: ServerResponse, url: URL) {
    const warehouse = url.searchParams.get('warehouse');
    const wrong = faults.get('config') ?? faults.get('any');
    const advertised =
      options.endpoints === undefined
        ? DEFAULT_ENDPOINTS.filter((e) => !model?.unserved?.includes(e))
        : options.endpoints;
    let answer: { defaults: Record<string, string>; overrides: Record<string, string> };
    if (model) {
      const result = model.config(warehouse, flavourContext(req));
      if ('status' in result) return icebergError(res, result.status, result.type, result.message);
      answer = result;
      if (wrong?.kind === 'wrong-prefix') {
        delete answer.defaults.prefix;
        answer.overrides.prefix = wrong.prefix ?? 'no-such-prefix';
      }
    } else {
      if (options.warehouses && warehouse !== null && !options.warehouses.includes(warehouse))
        return icebergError(res, 404, 'NoSuchWarehouseException', `Warehouse ${warehouse} not found`);
      const shown = wrong?.kind === 'wrong-prefix' ? (wrong.prefix ?? 'no-such-prefix') : prefix;
      answer = { defaults: {}, overrides: shown ? { prefix: shown } : {} };
    }
    json(res, 200, {
      defaults: { ...answer.defaults, ...(options.defaults ?? {}) },
      overrides: { ...(options.overrides ?? {}), ...answer.overrides },
      ...(advertised ? { endpoints: advertised } : {}),
    });
  }

  /** The prefix at the start of `segments` (decoded, after `/v1/`): how many it takes, or an answer. */
  function matchPrefix(req: IncomingMessage, segments: string[]) {
    if (model) return model.matchPrefix(segments, flavourContext(req));
    const consumed = prefixSegments.length;
    if (!prefixSegments.every((part, i) => segments[i] === part) || !isRouteHead(segments[consumed]))
      return null;
    return { consumed, warehouse: prefix ?? '' };
  }

  /** The fault route of a catalog path: config, a commit, another table route, or the namespaces. */
  function faultRoutes(path: string, method: string, segments: string[]): FaultRoute[] {
    if (path === `${basePath}/v1/config`) return ['config', 'any'];
    const tablesAt = segments.indexOf('tables');
    if (tablesAt > 0 && segments[tablesAt - 2] === 'namespaces') {
      const commit = method === 'POST' && segments.length === tablesAt + 2;
      return commit ? ['commit', 'tables', 'any'] : ['tables', 'any'];
    }
    return ['namespaces', 'any'];
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('date', new Date(now()).toUTCString());
    res.setHeader('x-request-id', randomUUID());
    const body = await readBody(req);
    requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: flat(req.headers),
      body: body.toString('utf8'),
    });
    const url = new URL(req.url ?? '/', 'http://emulator');
    const method = req.method ?? 'GET';
    // Segment by segment, so a %2F inside a namespace name stays part of that name.
    let segments: string[];
    try {
      segments = url.pathname.split('/').map((segment) => decodeURIComponent(segment));
    } catch {
      return icebergError(res, 400, 'BadRequestException', 'Malformed path');
    }
    const path = segments.join('/');
    if (options.sts && method === 'POST' && path === '/') return endpoints.sts(res, body, req);
    const legacy = path === `${basePath}/v1/oauth/tokens` ? legacyTokenRoute : 'absent';
    // A flavour's own token route wins over the identity-provider behaviour of tokenPath.
    const isIdp =
      options.tokenPath !== undefined &&
      path === options.tokenPath &&
      legacy !== 'polaris' &&
      legacy !== 'nessie';
    const candidates: FaultRoute[] =
      isIdp || legacy !== 'absent' ? ['token', 'any'] : faultRoutes(path, method, segments);
    const faultKey = candidates.find((route) => faults.has(route));
    const fault = faultKey === undefined ? undefined : faults.get(faultKey);
    if (fault?.kind === 'slow') {
      await delay(fault.delayMs, undefined, { signal: closing.signal });
    }
    if (fault && faultKey && applyFault(fault, faultKey, res, faults, origin)) return;
    // Token endpoints take no bearer token (the spec's getToken has no required security).
    if (isIdp) return endpoints.idp(req, res, body, `${origin}${path}`);
    if (legacy === 'idp') return endpoints.idp(req, res, body, null);
    if (legacy === 'polaris') return endpoints.polaris(req, res, body);
    if (legacy === 'nessie') return endpoints.nessie(res);
    if (legacy === 'unserved')
      return icebergError(res, 404, 'NotFoundException', `No route for ${method} ${path}`);
    const principal = await authenticate(req, res, body);
    if (principal === null) return;
    const base = basePath ? basePath.split('/').length : 1;
    const v1 = path.startsWith(`${basePath}/v1/`) ? segments.slice(base + 1) : null;
    if (v1 === null) return icebergError(res, 404, 'NotFoundException', `No route for ${method} ${path}`);
    if (v1.length === 1 && v1[0] === 'config') {
      if (method === 'GET') return config(req, res, url);
      res.writeHead(405, { allow: 'GET' });
      return void res.end();
    }
    const match = matchPrefix(req, v1);
    if (match === null) return icebergError(res, 404, 'NotFoundException', `No route for ${method} ${path}`);
    if ('error' in match) return icebergError(res, match.error.status, match.error.type, match.error.message);
    if (denied.has(principal))
      return icebergError(
        res,
        403,
        'NotAuthorizedException',
        `Principal ${principal} may not list namespaces`,
      );
    const key = authMode === 'sigv4' ? keys.get(principal) : undefined;
    const caller = {
      // A static token is a secret: a refusal names the root principal instead (Polaris's bootstrap one).
      principal: staticTokens.has(principal) ? 'root' : principal,
      warehouse: match.warehouse,
      callerArn: key?.arn ?? `arn:aws:iam::${callerAccount}:user/${principal}`,
      region: options.sigv4?.region ?? 'us-east-1',
      account: callerAccount,
      delegation: req.headers['x-iceberg-access-delegation'] !== undefined,
    };
    const more = moreRouteOf(method, v1.slice(match.consumed));
    if (more && !model?.unserved?.includes(more.endpoint)) return routes.serveMore(res, more, body, caller);
    const route = routeOf(method, v1.slice(match.consumed));
    if (route === null)
      return icebergError(
        res,
        406,
        'UnsupportedOperationException',
        `Unsupported operation: ${method} ${path}`,
      );
    const conflict = fault?.kind === 'commit-conflict' && route.operation === 'update-table';
    if (conflict && faultKey) spend(faults, faultKey, fault);
    return routes.serve(req, res, url, route, body, caller, conflict);
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const run = handle(req, res).catch((error: unknown) => {
      if (closing.signal.aborted) return void res.destroy();
      logFailure(options.log, 'catalog', req, error);
      // As Iceberg's REST servers map an unexpected exception: its class as the type, its message.
      if (!res.headersSent)
        icebergError(
          res,
          500,
          error instanceof Error ? error.name : 'InternalServerError',
          `the catalog emulator failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      else res.destroy();
    });
    running.add(run);
    void run.finally(() => running.delete(run));
  };
  const server: Server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, listener)
    : createHttpServer(listener);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    flavour,
    url: `${origin}${basePath}`,
    origin,
    port,
    tokenUrl: options.tokenPath ? `${origin}${options.tokenPath}` : `${origin}${basePath}/v1/oauth/tokens`,
    requests,
    issuedTokens: () => issued,
    setFault(fault, route = 'any') {
      if (fault) faults.set(route, fault);
      else faults.delete(route);
    },
    setDeny(privileges) {
      deniedPrivileges = new Set(privileges);
    },
    async close() {
      closing.abort();
      for (const socket of sockets) socket.destroy();
      if ('close' in objectStore) objectStore.close();
      await Promise.allSettled(running);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
