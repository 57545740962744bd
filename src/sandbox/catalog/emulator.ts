// A loopback Iceberg REST catalog for tests and `floe sandbox`: /v1/config, namespace listing and
// lookup, an OAuth2 token endpoint (client credentials and Google's jwt-bearer grant), bearer or
// SigV4 checks on catalog routes, an STS AssumeRole stand-in, and a switch for every fault floe
// diagnoses. node:http only.
//
// Like real servers it authenticates before routing (401, not 404, for an unknown path without
// credentials) and answers the spec's routes it does not implement with 406
// UnsupportedOperationException (the status apache/iceberg's RESTCatalogAdapter and polaris
// IcebergExceptionMapper give UnsupportedOperationException), never 404. A flavour (flavours.ts)
// models one real server's /v1/config, warehouse, prefix and token endpoint.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { answerText, hostileAnswers } from '../hostile.js';
import {
  type CatalogFlavour,
  DEFAULT_WAREHOUSES,
  FLAVOURS,
  type FlavourContext,
  type FlavourError,
  isRouteHead,
} from './flavours.js';
import {
  type AccessKey,
  type AwsRejection,
  type ServiceAccount,
  verifyJwtAssertion,
  verifySigV4,
} from './verify.js';

export type { CatalogFlavour } from './flavours.js';
export type { AccessKey, ServiceAccount } from './verify.js';

export interface OAuthClient {
  id: string;
  secret: string;
  /** Scopes the client may request; any scope when absent. */
  scopes?: string[];
  /** Grants the client may use; default ['client_credentials']. */
  grants?: string[];
}

/** What catalog routes require. */
export type CatalogAuthMode = 'none' | 'bearer' | 'sigv4';

export interface CatalogEmulatorOptions {
  /**
   * The real server to model (flavours.ts); default `rest`, the generic fixture driven by `prefix`,
   * `warehouses`, `defaults` and `overrides`. Other flavours compute the config themselves and
   * ignore `prefix`; `defaults` and `overrides` are added to theirs.
   */
  flavour?: CatalogFlavour;
  /** The storage location a flavour reports (Polaris default-base-location, Nessie warehouse); default s3://warehouse. */
  dataLocation?: string;
  /**
   * The external base URL (scheme and host, no path) the server puts in overrides.uri, like
   * LAKEKEEPER__BASE_URI; default: derived from X-Forwarded-* or Host, as lakekeeper request_metadata.rs.
   */
  baseUri?: string;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Base path of the REST API, e.g. `/api/catalog`; default none. */
  basePath?: string;
  /** Serve https with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
  auth?: CatalogAuthMode;
  /** Static bearer tokens. */
  tokens?: string[];
  clients?: OAuthClient[];
  /** Google service accounts accepted by the jwt-bearer grant. */
  serviceAccounts?: ServiceAccount[];
  /**
   * An extra token endpoint at this absolute path, like an external identity provider's (Keycloak
   * behaviour); the only one that takes Google's jwt-bearer grant.
   */
  tokenPath?: string;
  /**
   * Serve the deprecated `{basePath}/v1/oauth/tokens` (flavours `rest` and `polaris`); default true.
   * Nessie always answers it 501; Lakekeeper, Unity, Glue and S3 Tables have no such route.
   */
  legacyTokenEndpoint?: boolean;
  tokenTtlSeconds?: number;
  /** Status for an expired issued token: 401 (default) or 419. */
  expiredTokenStatus?: 401 | 419;
  sigv4?: { service: string; region: string; keys: AccessKey[] };
  /** Principals (token, client id, service-account email or access key id) that may not read: 403. */
  denied?: string[];
  /**
   * Known warehouses. `rest`: when set, any other `?warehouse=` gets 404 NoSuchWarehouseException.
   * Flavours: catalog names (Polaris, Unity), warehouse names (Lakekeeper, Nessie), account ids
   * (Glue), table-bucket ARNs (S3 Tables); default the flavour's one (DEFAULT_WAREHOUSES).
   */
  warehouses?: string[];
  /** The prefix returned in overrides; null for none. Default `main`. */
  prefix?: string | null;
  defaults?: Record<string, string>;
  overrides?: Record<string, string>;
  /** Advertised endpoints; null omits the field. Default: the routes served here. */
  endpoints?: string[] | null;
  namespaces?: string[][];
  /** The server's clock runs this far ahead (negative: behind); it shows in `Date` and in checks. */
  clockOffsetMs?: number;
  /** Answer STS AssumeRole at `POST /` (for AWS_ENDPOINT_URL_STS): only these role ARNs may be assumed. */
  sts?: { allowedRoles: string[] };
}

export type CatalogFault =
  /** An HTML page (a web UI, a login page or a proxy error), default status 200. */
  | { kind: 'html'; status?: number }
  /** 200 with a text/plain body. */
  | { kind: 'not-json' }
  /** 200 application/json streaming `bytes` (default 8 MiB). */
  | { kind: 'huge'; bytes?: number }
  /** A redirect to a login page. */
  | { kind: 'redirect'; status?: 301 | 302 | 303 | 307 | 308; location?: string }
  /** 503 with Retry-After, `times` times (default: until cleared). */
  | { kind: 'unavailable'; retryAfterSeconds?: number; times?: number }
  /** 500 as an Iceberg error, or 502/504 as a proxy's HTML page. */
  | { kind: 'server-error'; status?: number }
  /** Answer after `delayMs`. */
  | { kind: 'slow'; delayMs: number }
  /** Accept the request and never answer. */
  | { kind: 'silent' }
  /** /v1/config advertises a prefix the namespace routes do not serve. */
  | { kind: 'wrong-prefix'; prefix?: string }
  /** Any JSON answer, e.g. an Iceberg error of some status or a body of the wrong shape. */
  | { kind: 'json'; status?: number; body: unknown }
  /** An AWS gateway's 403 for an unsigned request. */
  | { kind: 'missing-auth-token' }
  /** Every text field of the JSON answer carries terminal control sequences (../hostile.ts). */
  | { kind: 'hostile-text' };

export type FaultRoute = 'config' | 'namespaces' | 'token' | 'any';

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface CatalogEmulator {
  flavour: CatalogFlavour;
  /** Base URL including the base path, e.g. http://127.0.0.1:40123/api/catalog. */
  url: string;
  origin: string;
  port: number;
  /** The extra token endpoint's URL, else the legacy one. */
  tokenUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** How many tokens the token endpoints issued. */
  issuedTokens(): number;
  setFault(fault: CatalogFault | null, route?: FaultRoute): void;
  close(): Promise<void>;
}

const DEFAULT_ENDPOINTS = [
  'GET /v1/{prefix}/namespaces',
  'GET /v1/{prefix}/namespaces/{namespace}',
  'HEAD /v1/{prefix}/namespaces/{namespace}',
];
const MAX_REQUEST_BODY = 64 * 1024;
const NAMESPACE_SEPARATOR = '\x1f';
const DEFAULT_ACCOUNT = '123456789012';
const POLARIS_TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** polaris OAuthError: each error's fixed error_description. */
const POLARIS_OAUTH_ERRORS = {
  invalid_request: 'The request is invalid',
  invalid_client: 'The Client is invalid',
  invalid_grant: 'The grant is invalid',
  unauthorized_client: 'The client is not authorized',
  unsupported_grant_type: 'The grant type is invalid',
  invalid_scope: 'The scope is invalid',
} as const;

const LOGIN_PAGE =
  '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form method="post" action="/login"><input name="user"><input name="password" type="password"><button>Sign in</button></form></body></html>';
const PROXY_PAGE = (status: number) =>
  `<html><head><title>${status} Bad Gateway</title></head><body><center><h1>${status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>`;

interface IssuedToken {
  principal: string;
  expiresAt: number;
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = answerText(res, body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function icebergError(res: ServerResponse, status: number, type: string, message: string): void {
  json(res, status, { error: { message, type, code: status } });
}

function flavourError(res: ServerResponse, error: FlavourError): void {
  icebergError(res, error.status, error.type, error.message);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  json(res, status, { error, error_description: description }, { 'cache-control': 'no-store' });
}

function awsError(res: ServerResponse, rejection: AwsRejection): void {
  json(res, rejection.status, { message: rejection.message }, { 'x-amzn-errortype': rejection.errorType });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BODY) {
        req.destroy();
        reject(new Error('request body too large'));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function flat(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

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
  const keys = new Map((options.sigv4?.keys ?? []).map((k) => [k.accessKeyId, k]));
  const namespaces = options.namespaces ?? [['default']];
  const faults = new Map<FaultRoute, CatalogFault>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let issued = 0;
  let origin = '';
  const now = () => Date.now() + (options.clockOffsetMs ?? 0);

  const issue = (principal: string) => {
    const token = randomBytes(24).toString('base64url');
    tokens.set(token, { principal, expiresAt: now() + ttl * 1000 });
    issued++;
    return token;
  };

  /** The principal of an authenticated catalog request, or null once an answer was sent. */
  async function authenticate(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
  ): Promise<string | null> {
    if (authMode === 'none') return 'anonymous';
    if (authMode === 'sigv4') {
      const result = await verifySigV4(
        { method: req.method ?? 'GET', rawUrl: req.url ?? '/', headers: req.headers, body },
        {
          service: options.sigv4?.service ?? 'execute-api',
          region: options.sigv4?.region ?? 'us-east-1',
          keys,
        },
        new Date(now()),
      );
      if ('status' in result) {
        awsError(res, result);
        return null;
      }
      return result.accessKeyId;
    }
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const token = match?.[1];
    if (token && staticTokens.has(token)) return token;
    const known = token ? tokens.get(token) : undefined;
    if (known && known.expiresAt > now()) return known.principal;
    if (known && options.expiredTokenStatus === 419) {
      icebergError(res, 419, 'AuthenticationTimeoutException', 'Credentials have timed out');
    } else {
      icebergError(
        res,
        401,
        'NotAuthorizedException',
        known
          ? 'Token expired'
          : token
            ? 'Not authorized to make this request'
            : 'Missing Authorization header',
      );
    }
    return null;
  }

  function applyFault(fault: CatalogFault, route: FaultRoute, res: ServerResponse): boolean {
    switch (fault.kind) {
      case 'html':
        res.writeHead(fault.status ?? 200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(LOGIN_PAGE);
        return true;
      case 'not-json':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('OK');
        return true;
      case 'huge': {
        const total = fault.bytes ?? 8 * 1024 * 1024;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': total });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < total && !res.destroyed) {
            const part = chunk.subarray(0, Math.min(chunk.length, total - sent));
            sent += part.length;
            if (!res.write(part)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
        return true;
      }
      case 'redirect':
        res.writeHead(fault.status ?? 302, {
          location: fault.location ?? `${origin}/login?next=%2F`,
          'content-type': 'text/html',
        });
        res.end(LOGIN_PAGE);
        return true;
      case 'unavailable': {
        if (fault.times !== undefined) {
          if (fault.times <= 1) faults.delete(route);
          else faults.set(route, { ...fault, times: fault.times - 1 });
        }
        res.setHeader('retry-after', String(fault.retryAfterSeconds ?? 1));
        icebergError(res, 503, 'SlowDownException', 'Slow down');
        return true;
      }
      case 'server-error': {
        const status = fault.status ?? 500;
        if (status === 502 || status === 504) {
          res.writeHead(status, { 'content-type': 'text/html' });
          res.end(PROXY_PAGE(status));
        } else icebergError(res, status, 'InternalServerError', 'Internal Server Error');
        return true;
      }
      case 'json':
        json(res, fault.status ?? 200, fault.body);
        return true;
      case 'silent':
        return true;
      case 'hostile-text':
        hostileAnswers.add(res);
        return false;
      case 'missing-auth-token':
        awsError(res, {
          status: 403,
          errorType: 'MissingAuthenticationTokenException',
          message: 'Missing Authentication Token',
        });
        return true;
      default:
        return false;
    }
  }

  /** Client id and secret from HTTP Basic and the form body, as sent. */
  function clientCredentials(req: IncomingMessage, form: URLSearchParams) {
    const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    let header: { id: string; secret: string } | undefined;
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      header = {
        id: decodeURIComponent(i < 0 ? decoded : decoded.slice(0, i)),
        secret: i < 0 ? '' : decodeURIComponent(decoded.slice(i + 1)),
      };
    }
    return {
      header,
      id: form.get('client_id') ?? undefined,
      secret: form.get('client_secret') ?? undefined,
    };
  }

  function isForm(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' });
      res.end();
      return false;
    }
    if (/^application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')) return true;
    oauthError(res, 400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    return false;
  }

  const tokenAnswer = (res: ServerResponse, principal: string, scope: string[]) =>
    json(
      res,
      200,
      {
        access_token: issue(principal),
        token_type: 'bearer',
        expires_in: ttl,
        issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        ...(scope.length ? { scope: scope.join(' ') } : {}),
      },
      { 'cache-control': 'no-store' },
    );

  /**
   * An identity provider's token endpoint (Keycloak behaviour: a wrong secret is 401 invalid_client,
   * an absent scope is accepted); on `tokenPath` it also takes Google's jwt-bearer grant.
   */
  async function idpTokenEndpoint(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    audience: string | null,
  ) {
    if (!isForm(req, res)) return;
    const form = new URLSearchParams(body.toString('utf8'));
    const grant = form.get('grant_type');
    if (audience !== null && grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      const result = verifyJwtAssertion(
        form.get('assertion') ?? '',
        options.serviceAccounts ?? [],
        audience,
        now(),
      );
      if ('error' in result) return oauthError(res, 400, result.error, result.description);
      const token = issue(result.email);
      return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: ttl });
    }
    if (grant !== 'client_credentials')
      return oauthError(
        res,
        400,
        'unsupported_grant_type',
        `grant_type ${grant ?? '(none)'} is not supported`,
      );
    const sent = clientCredentials(req, form);
    // RFC 6749 §2.3: "The client MUST NOT use more than one authentication method in each request."
    if (sent.header && (sent.id !== undefined || sent.secret !== undefined))
      return oauthError(res, 400, 'invalid_request', 'Client credentials were sent in more than one way');
    const id = sent.header?.id ?? sent.id;
    const secret = sent.header?.secret ?? sent.secret;
    const client = (options.clients ?? []).find((c) => c.id === id);
    if (!client || client.secret !== secret)
      return oauthError(
        res,
        401,
        'invalid_client',
        'Client authentication failed (unknown client or bad secret)',
      );
    if (!(client.grants ?? ['client_credentials']).includes('client_credentials'))
      return oauthError(
        res,
        400,
        'unauthorized_client',
        'The client is not authorized to use the client_credentials grant',
      );
    const requested = (form.get('scope') ?? '').split(' ').filter(Boolean);
    const refused = client.scopes ? requested.filter((s) => !client.scopes!.includes(s)) : [];
    if (refused.length)
      return oauthError(res, 400, 'invalid_scope', `Scope not allowed: ${refused.join(' ')}`);
    return tokenAnswer(res, client.id, requested);
  }

  /** Polaris's built-in endpoint; its errors carry the OAuthError enum's fixed descriptions. */
  function polarisError(res: ServerResponse, error: keyof typeof POLARIS_OAUTH_ERRORS) {
    // polaris OAuthUtils.getResponseFromError: unauthorized_client is 401, everything else 400.
    json(res, error === 'unauthorized_client' ? 401 : 400, {
      error,
      error_description: POLARIS_OAUTH_ERRORS[error],
    });
  }

  function polarisTokenEndpoint(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    if (!isForm(req, res)) return;
    const form = new URLSearchParams(body.toString('utf8'));
    const grant = form.get('grant_type');
    // polaris DefaultOAuth2ApiService.getToken, in its order.
    if (grant !== 'client_credentials' && grant !== POLARIS_TOKEN_EXCHANGE)
      return polarisError(res, 'unsupported_grant_type');
    const authHeader = req.headers.authorization;
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    if (authHeader === undefined && secret === undefined) return polarisError(res, 'invalid_client');
    // Basic credentials count only when the body has no secret.
    if (authHeader !== undefined && secret === undefined && authHeader.startsWith('Basic ')) {
      const decoded = Buffer.from(authHeader.slice(6), 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i < 0) return polarisError(res, 'invalid_request');
      id = decoded.slice(0, i);
      secret = decoded.slice(i + 1);
    }
    if (secret === undefined) return polarisError(res, 'invalid_request');
    // polaris TokenRequestValidator.validateForClientCredentialsFlow.
    if (!id || !secret) return polarisError(res, 'invalid_client');
    const scope = form.get('scope') ?? '';
    if (!scope) return polarisError(res, 'invalid_scope');
    const scopes = scope.split(' ');
    if (scopes.some((s) => !s.startsWith('PRINCIPAL_ROLE:') || s.length === 'PRINCIPAL_ROLE:'.length))
      return polarisError(res, 'invalid_scope');
    // polaris JWTBroker.generateFromClientSecrets: findPrincipalEntity fails → unauthorized_client.
    const client = (options.clients ?? []).find((c) => c.id === id);
    if (!client || client.secret !== secret) return polarisError(res, 'unauthorized_client');
    return tokenAnswer(res, client.id, []);
  }

  /** nessie IcebergApiV1GenericResource.getToken: @PermitAll, always 501. */
  function nessieTokenEndpoint(res: ServerResponse) {
    json(res, 501, {
      error: 'NotImplemented',
      error_description:
        'Endpoint not implemented: please configure the catalog client with the oauth2-server-uri property.',
    });
  }

  function stsEndpoint(res: ServerResponse, body: Buffer, req: IncomingMessage) {
    const form = new URLSearchParams(body.toString('utf8'));
    const role = form.get('RoleArn') ?? '';
    const keyId = /Credential=([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? 'anonymous';
    const caller = keys.get(keyId)?.arn ?? `arn:aws:iam::123456789012:user/${keyId}`;
    const requestId = randomUUID();
    res.setHeader('content-type', 'text/xml');
    if (!options.sts?.allowedRoles.includes(role)) {
      res.statusCode = 403;
      return void res.end(
        `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>User: ${caller} is not authorized to perform: sts:AssumeRole on resource: ${role}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
      );
    }
    const temp: AccessKey = {
      accessKeyId: `ASIA${randomBytes(8).toString('hex').toUpperCase()}`,
      secretAccessKey: randomBytes(30).toString('base64'),
      sessionToken: randomBytes(48).toString('base64'),
      arn: `${role.replace(':iam:', ':sts:').replace(':role/', ':assumed-role/')}/${form.get('RoleSessionName') ?? 'session'}`,
    };
    keys.set(temp.accessKeyId, temp);
    const expiration = new Date(now() + 3600_000).toISOString();
    res.statusCode = 200;
    res.end(
      `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>${temp.accessKeyId}</AccessKeyId><SecretAccessKey>${temp.secretAccessKey}</SecretAccessKey><SessionToken>${temp.sessionToken}</SessionToken><Expiration>${expiration}</Expiration></Credentials><AssumedRoleUser><AssumedRoleId>AROA:${form.get('RoleSessionName')}</AssumedRoleId><Arn>${temp.arn}</Arn></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></AssumeRoleResponse>`,
    );
  }

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
    return { warehouses, dataLocation, baseUrl: `${base}${basePath}`, callerAccount };
  }

  function config(req: IncomingMessage, res: ServerResponse, url: URL) {
    const warehouse = url.searchParams.get('warehouse');
    const wrong = faults.get('config') ?? faults.get('any');
    const endpoints = options.endpoints === undefined ? DEFAULT_ENDPOINTS : options.endpoints;
    let answer: { defaults: Record<string, string>; overrides: Record<string, string> };
    if (model) {
      const result = model.config(warehouse, flavourContext(req));
      if ('status' in result) return flavourError(res, result);
      answer = result;
      if (wrong?.kind === 'wrong-prefix') {
        delete answer.defaults.prefix;
        answer.overrides.prefix = wrong.prefix ?? 'no-such-prefix';
      }
    } else {
      if (options.warehouses && warehouse !== null && !options.warehouses.includes(warehouse))
        return icebergError(res, 404, 'NoSuchWarehouseException', `Warehouse ${warehouse} not found`);
      const advertised = wrong?.kind === 'wrong-prefix' ? (wrong.prefix ?? 'no-such-prefix') : prefix;
      answer = { defaults: {}, overrides: advertised ? { prefix: advertised } : {} };
    }
    json(res, 200, {
      defaults: { ...answer.defaults, ...(options.defaults ?? {}) },
      overrides: { ...(options.overrides ?? {}), ...answer.overrides },
      ...(endpoints ? { endpoints } : {}),
    });
  }

  function listNamespaces(res: ServerResponse, url: URL) {
    const parentText = url.searchParams.get('parent');
    const parent = parentText ? parentText.split(NAMESPACE_SEPARATOR) : [];
    const children = namespaces.filter(
      (ns) => ns.length === parent.length + 1 && parent.every((part, i) => ns[i] === part),
    );
    if (parent.length && !namespaces.some((ns) => ns.join(NAMESPACE_SEPARATOR) === parentText))
      return icebergError(
        res,
        404,
        'NoSuchNamespaceException',
        `Namespace does not exist: ${parent.join('.')}`,
      );
    const pageToken = url.searchParams.get('pageToken');
    const pageSizeText = url.searchParams.get('pageSize');
    // The spec's pageSize has `minimum: 1`, with or without a pageToken.
    const pageSize = pageSizeText === null ? 100 : Number(pageSizeText);
    if (!Number.isInteger(pageSize) || pageSize < 1)
      return icebergError(res, 400, 'BadRequestException', 'Invalid pageSize: must be at least 1');
    if (pageToken === null) return json(res, 200, { namespaces: children, 'next-page-token': null });
    const start = pageToken ? Number.parseInt(Buffer.from(pageToken, 'base64url').toString('utf8'), 10) : 0;
    if (!Number.isInteger(start) || start < 0)
      return icebergError(res, 400, 'BadRequestException', 'Invalid pageToken');
    const page = children.slice(start, start + pageSize);
    const next =
      start + pageSize < children.length ? Buffer.from(String(start + pageSize)).toString('base64url') : null;
    json(res, 200, { namespaces: page, 'next-page-token': next });
  }

  /** The prefix at the start of `segments` (decoded, after `/v1/`): how many it takes, or an answer. */
  function matchPrefix(req: IncomingMessage, segments: string[]) {
    if (model) return model.matchPrefix(segments, flavourContext(req));
    const consumed = prefixSegments.length;
    if (!prefixSegments.every((part, i) => segments[i] === part) || !isRouteHead(segments[consumed]))
      return null;
    return { consumed };
  }

  function unsupported(res: ServerResponse, method: string, path: string) {
    icebergError(res, 406, 'UnsupportedOperationException', `Unsupported operation: ${method} ${path}`);
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
    if (options.sts && method === 'POST' && path === '/') return stsEndpoint(res, body, req);
    const legacy = path === `${basePath}/v1/oauth/tokens` ? legacyTokenRoute : 'absent';
    const isIdp = options.tokenPath !== undefined && path === options.tokenPath;
    const route: FaultRoute =
      isIdp || legacy !== 'absent' ? 'token' : path === `${basePath}/v1/config` ? 'config' : 'namespaces';
    const faultKey: FaultRoute = faults.has(route) ? route : 'any';
    const fault = faults.get(faultKey);
    if (fault?.kind === 'slow') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, fault.delayMs);
        timers.add(timer);
      });
    }
    if (fault && applyFault(fault, faultKey, res)) return;
    // Token endpoints take no bearer token (the spec's getToken has no required security).
    if (isIdp) return idpTokenEndpoint(req, res, body, `${origin}${path}`);
    if (legacy === 'idp') return idpTokenEndpoint(req, res, body, null);
    if (legacy === 'polaris') return polarisTokenEndpoint(req, res, body);
    if (legacy === 'nessie') return nessieTokenEndpoint(res);
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
    if ('error' in match) return flavourError(res, match.error);
    if (denied.has(principal))
      return icebergError(
        res,
        403,
        'NotAuthorizedException',
        `Principal ${principal} may not list namespaces`,
      );
    const rest = v1.slice(match.consumed);
    if (rest.length === 1 && rest[0] === 'namespaces' && method === 'GET') return listNamespaces(res, url);
    if (rest.length === 2 && rest[0] === 'namespaces' && (method === 'GET' || method === 'HEAD')) {
      const name = rest[1]!;
      const ns = namespaces.find((n) => n.join(NAMESPACE_SEPARATOR) === name);
      if (!ns) {
        if (method === 'HEAD') {
          res.writeHead(404);
          return void res.end();
        }
        return icebergError(
          res,
          404,
          'NoSuchNamespaceException',
          `Namespace does not exist: ${name.split(NAMESPACE_SEPARATOR).join('.')}`,
        );
      }
      if (method === 'HEAD') {
        res.writeHead(204);
        return void res.end();
      }
      return json(res, 200, { namespace: ns, properties: {} });
    }
    return unsupported(res, method, path);
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) icebergError(res, 500, 'InternalServerError', 'Internal Server Error');
      else res.destroy();
    });
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
    close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
