// How the catalog emulator answers a request: faults and token endpoints first (no credentials), then
// authentication, /v1/config, the prefix, and the namespace and table routes (tables.ts).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { applyFault, type CatalogFault, type FaultRoute, spend } from './faults.js';
import { type FlavourContext, isRouteHead } from './flavours/index.js';
import { flat, icebergError, json, readBody } from './http.js';
import { DEFAULT_ENDPOINTS } from './options.js';
import type { CatalogState } from './state.js';
import { moreRouteOf, routeOf } from './tables.js';

function flavourContext(s: CatalogState, req: IncomingMessage): FlavourContext {
  const { options, basePath, origin, baseCtx } = s;
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

function config(s: CatalogState, req: IncomingMessage, res: ServerResponse, url: URL) {
  const { options, prefix, model, faults } = s;
  const warehouse = url.searchParams.get('warehouse');
  const wrong = faults.get('config') ?? faults.get('any');
  const advertised =
    options.endpoints === undefined
      ? DEFAULT_ENDPOINTS.filter((e) => !model?.unserved?.includes(e))
      : options.endpoints;
  let answer: { defaults: Record<string, string>; overrides: Record<string, string> };
  if (model) {
    const result = model.config(warehouse, flavourContext(s, req));
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
function matchPrefix(s: CatalogState, req: IncomingMessage, segments: string[]) {
  const { prefix, prefixSegments, model } = s;
  if (model) return model.matchPrefix(segments, flavourContext(s, req));
  const consumed = prefixSegments.length;
  if (!prefixSegments.every((part, i) => segments[i] === part) || !isRouteHead(segments[consumed]))
    return null;
  return { consumed, warehouse: prefix ?? '' };
}

/** The fault route of a catalog path: config, a commit, another table route, or the namespaces. */
function faultRoutes(s: CatalogState, path: string, method: string, segments: string[]): FaultRoute[] {
  const { basePath } = s;
  if (path === `${basePath}/v1/config`) return ['config', 'any'];
  const tablesAt = segments.indexOf('tables');
  if (tablesAt > 0 && segments[tablesAt - 2] === 'namespaces') {
    const commit = method === 'POST' && segments.length === tablesAt + 2;
    return commit ? ['commit', 'tables', 'any'] : ['tables', 'any'];
  }
  return ['namespaces', 'any'];
}

export async function handle(s: CatalogState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { options, basePath, faults, origin, closing, endpoints, requests, now, legacyTokenRoute } = s;
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
    isIdp || legacy !== 'absent' ? ['token', 'any'] : faultRoutes(s, path, method, segments);
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
  return serveApi(s, { req, res, url, method, path, segments, body }, { fault, faultKey });
}

/** What handle() read of a request. */
interface Request {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  path: string;
  segments: string[];
  body: Buffer;
}

/** The authenticated catalog API: /v1/config, then the prefix, the principal's refusal, the routes. */
async function serveApi(
  s: CatalogState,
  { req, res, url, method, path, segments, body }: Request,
  { fault, faultKey }: { fault: CatalogFault | undefined; faultKey: FaultRoute | undefined },
): Promise<void> {
  const {
    options,
    basePath,
    model,
    faults,
    authenticate,
    denied,
    authMode,
    keys,
    staticTokens,
    callerAccount,
    routes,
  } = s;
  const principal = await authenticate(req, res, body);
  if (principal === null) return;
  const base = basePath ? basePath.split('/').length : 1;
  const v1 = path.startsWith(`${basePath}/v1/`) ? segments.slice(base + 1) : null;
  if (v1 === null) return icebergError(res, 404, 'NotFoundException', `No route for ${method} ${path}`);
  if (v1.length === 1 && v1[0] === 'config') {
    if (method === 'GET') return config(s, req, res, url);
    res.writeHead(405, { allow: 'GET' });
    return void res.end();
  }
  const match = matchPrefix(s, req, v1);
  if (match === null) return icebergError(res, 404, 'NotFoundException', `No route for ${method} ${path}`);
  if ('error' in match) return icebergError(res, match.error.status, match.error.type, match.error.message);
  if (denied.has(principal))
    return icebergError(res, 403, 'NotAuthorizedException', `Principal ${principal} may not list namespaces`);
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
