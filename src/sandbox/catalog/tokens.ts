// The emulator's token endpoints: an identity provider's (Keycloak behaviour, plus Google's
// jwt-bearer grant), Polaris's built-in one, Nessie's 501 and an STS AssumeRole stand-in.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { json, oauthError } from './http.js';
import { type AccessKey, type ServiceAccount, verifyJwtAssertion } from './verify.js';

export interface OAuthClient {
  id: string;
  secret: string;
  /** Scopes the client may request; any scope when absent. */
  scopes?: string[];
  /** Grants the client may use; default ['client_credentials']. */
  grants?: string[];
}

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

export interface TokenDeps {
  clients: OAuthClient[];
  serviceAccounts: ServiceAccount[];
  ttl: number;
  now(): number;
  /** Issues a token for the principal. */
  issue(principal: string): string;
  /** SigV4 keys (STS adds the temporary ones it hands out). */
  keys: Map<string, AccessKey>;
  stsRoles: string[];
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

const tokenAnswer = (deps: TokenDeps, res: ServerResponse, principal: string, scope: string[]) =>
  json(
    res,
    200,
    {
      access_token: deps.issue(principal),
      token_type: 'bearer',
      expires_in: deps.ttl,
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      ...(scope.length ? { scope: scope.join(' ') } : {}),
    },
    { 'cache-control': 'no-store' },
  );

/**
 * An identity provider's token endpoint (Keycloak behaviour: a wrong secret is 401 invalid_client,
 * an absent scope is accepted); with an audience (the emulator's tokenPath) it also takes Google's
 * jwt-bearer grant.
 */
function idp(
  deps: TokenDeps,
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
      deps.serviceAccounts,
      audience,
      deps.now(),
    );
    if ('error' in result) return oauthError(res, 400, result.error, result.description);
    return json(res, 200, {
      access_token: deps.issue(result.email),
      token_type: 'Bearer',
      expires_in: deps.ttl,
    });
  }
  if (grant !== 'client_credentials')
    return oauthError(res, 400, 'unsupported_grant_type', `grant_type ${grant ?? '(none)'} is not supported`);
  const sent = clientCredentials(req, form);
  // RFC 6749 §2.3: "The client MUST NOT use more than one authentication method in each request."
  if (sent.header && (sent.id !== undefined || sent.secret !== undefined))
    return oauthError(res, 400, 'invalid_request', 'Client credentials were sent in more than one way');
  const id = sent.header?.id ?? sent.id;
  const secret = sent.header?.secret ?? sent.secret;
  const client = deps.clients.find((c) => c.id === id);
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
  if (refused.length) return oauthError(res, 400, 'invalid_scope', `Scope not allowed: ${refused.join(' ')}`);
  return tokenAnswer(deps, res, client.id, requested);
}

/** Polaris's built-in endpoint; its errors carry the OAuthError enum's fixed descriptions. */
function polarisError(res: ServerResponse, error: keyof typeof POLARIS_OAUTH_ERRORS) {
  // polaris OAuthUtils.getResponseFromError: unauthorized_client is 401, everything else 400.
  json(res, error === 'unauthorized_client' ? 401 : 400, {
    error,
    error_description: POLARIS_OAUTH_ERRORS[error],
  });
}

function polaris(deps: TokenDeps, req: IncomingMessage, res: ServerResponse, body: Buffer) {
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
  const client = deps.clients.find((c) => c.id === id);
  if (!client || client.secret !== secret) return polarisError(res, 'unauthorized_client');
  return tokenAnswer(deps, res, client.id, []);
}

/** nessie IcebergApiV1GenericResource.getToken: @PermitAll, always 501. */
function nessie(res: ServerResponse) {
  json(res, 501, {
    error: 'NotImplemented',
    error_description:
      'Endpoint not implemented: please configure the catalog client with the oauth2-server-uri property.',
  });
}

function sts(deps: TokenDeps, res: ServerResponse, body: Buffer, req: IncomingMessage) {
  const form = new URLSearchParams(body.toString('utf8'));
  const role = form.get('RoleArn') ?? '';
  const keyId = /Credential=([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? 'anonymous';
  const caller = deps.keys.get(keyId)?.arn ?? `arn:aws:iam::123456789012:user/${keyId}`;
  const requestId = randomUUID();
  res.setHeader('content-type', 'text/xml');
  if (!deps.stsRoles.includes(role)) {
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
  deps.keys.set(temp.accessKeyId, temp);
  const expiration = new Date(deps.now() + 3600_000).toISOString();
  res.statusCode = 200;
  res.end(
    `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>${temp.accessKeyId}</AccessKeyId><SecretAccessKey>${temp.secretAccessKey}</SecretAccessKey><SessionToken>${temp.sessionToken}</SessionToken><Expiration>${expiration}</Expiration></Credentials><AssumedRoleUser><AssumedRoleId>AROA:${form.get('RoleSessionName')}</AssumedRoleId><Arn>${temp.arn}</Arn></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></AssumeRoleResponse>`,
  );
}

export function tokenEndpoints(deps: TokenDeps) {
  return {
    idp: (req: IncomingMessage, res: ServerResponse, body: Buffer, audience: string | null) =>
      idp(deps, req, res, body, audience),
    polaris: (req: IncomingMessage, res: ServerResponse, body: Buffer) => polaris(deps, req, res, body),
    nessie,
    sts: (res: ServerResponse, body: Buffer, req: IncomingMessage) => sts(deps, res, body, req),
  };
}
