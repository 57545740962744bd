// A loopback Google Cloud Storage for tests and `STORAGE_EMULATOR_HOST`: the token endpoint (the
// service account's RS256 JWT-bearer grant, verified against its public key) and the JSON API calls
// floe's storage check makes, at least as strict as Google on them. Shapes, each from Google's pages:
// - errors: {"error":{"code","message","errors":[{"message","domain","reason"}]}} —
//   https://cloud.google.com/storage/docs/json_api/v1/status-codes (401 "Login Required" reason
//   `required` with location Authorization; 404 reason `notFound`; 403 reason `forbidden`)
// - 403 wording "<email> does not have <permission> access to the Google Cloud Storage object.
//   Permission '<permission>' denied on resource (or it may not exist)." —
//   https://cloud.google.com/storage/docs/access-control/iam-permissions (the permission per call:
//   buckets.get → storage.buckets.get, objects.list/insert/get/delete → storage.objects.list/create/get/delete)
// - requester pays: 400 "Bucket is a requester pays bucket but no user project provided." without
//   `userProject`, 400 "User project specified in the request is invalid." for an unknown project, 403
//   UserProjectAccountProblem for a project whose billing account is closed —
//   https://cloud.google.com/storage/docs/requester-pays (and the XML API's UserProjectAccountProblem,
//   https://cloud.google.com/storage/docs/xml-api/reference-status)
// - the token endpoint's OAuth2 errors ({"error":"invalid_grant","error_description":…}) —
//   https://developers.google.com/identity/protocols/oauth2/service-account#error-codes
// - scopes: a token without devstorage.read_write / full_control / cloud-platform may not write
//   (403 reason `insufficientPermissions`) — https://cloud.google.com/storage/docs/oauth-scopes
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServiceAccount, verifyJwtAssertion } from './catalog/verify.js';
import { logFailure, logRequests, type SandboxLog } from './log.js';

export type GcsPermission =
  | 'storage.buckets.get'
  | 'storage.objects.list'
  | 'storage.objects.create'
  | 'storage.objects.get'
  | 'storage.objects.delete';

export interface GcsBucketSpec {
  name: string;
  location?: string;
  /** Requests must name a billing project (`userProject`). */
  requesterPays?: boolean;
}

export interface GcsEmulatorOptions {
  serviceAccounts: ServiceAccount[];
  buckets: GcsBucketSpec[];
  /** Billing projects `userProject` may name; absent: any. */
  projects?: string[];
  /** Billing projects whose billing account is closed (403 UserProjectAccountProblem). */
  closedBillingProjects?: string[];
  /** Token lifetime in seconds. */
  ttl?: number;
  /** 0 (default) picks a free port. */
  port?: number;
  now?: () => number;
  /** Where every request and error goes. */
  log?: SandboxLog;
}

export interface GcsRequestLog {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  /** The caller's service account, once its token is known. */
  email?: string;
}

export interface GcsEmulator {
  /** The base for STORAGE_EMULATOR_HOST, e.g. http://127.0.0.1:40123. */
  url: string;
  port: number;
  /** The token endpoint, for the key file's token_uri. */
  tokenUrl: string;
  requests: GcsRequestLog[];
  /** Objects of a bucket: name → content. */
  objects(bucket: string): Map<string, Buffer>;
  /** Puts an object as someone else did (a test's data that is not floe's). */
  seed(bucket: string, name: string, data: string | Buffer): void;
  /** Refuse `permission` to `email` from now on (403 with Google's wording). */
  deny(email: string, permission: GcsPermission): void;
  allow(email: string, permission: GcsPermission): void;
  /** Answer nothing to calls needing `permission` (a time-out), or null for none. */
  stall(permission: GcsPermission | 'token' | null): void;
  /** The service account a live token was issued to (for a catalog emulator that trusts this issuer). */
  principalOf(token: string): string | undefined;
  /** Revoke every token issued so far (401 "Invalid Credentials"). */
  revokeTokens(): void;
  close(): Promise<void>;
}

const WRITE_SCOPES = new Set([
  'https://www.googleapis.com/auth/devstorage.read_write',
  'https://www.googleapis.com/auth/devstorage.full_control',
  'https://www.googleapis.com/auth/cloud-platform',
]);
const READ_SCOPES = new Set([...WRITE_SCOPES, 'https://www.googleapis.com/auth/devstorage.read_only']);
const MAX_BODY = 5 * 1024 * 1024;

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (status === 204) {
    res.writeHead(204, headers).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The JSON API's error document. */
function apiError(
  res: ServerResponse,
  status: number,
  reason: string,
  message: string,
  extra: Record<string, string> = {},
): void {
  send(
    res,
    status,
    { error: { code: status, message, errors: [{ message, domain: 'global', reason, ...extra }] } },
    status === 401 ? { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' } : {},
  );
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        req.destroy();
        resolve(null);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(null));
  });
}

interface Bucket extends GcsBucketSpec {
  objects: Map<string, { data: Buffer; generation: string; contentType: string; updated: string }>;
}

export async function startGcsEmulator(options: GcsEmulatorOptions): Promise<GcsEmulator> {
  const now = options.now ?? Date.now;
  const ttl = options.ttl ?? 3600;
  const buckets = new Map<string, Bucket>(options.buckets.map((b) => [b.name, { ...b, objects: new Map() }]));
  const tokens = new Map<string, { email: string; scopes: Set<string>; expires: number }>();
  const denied = new Set<string>();
  let stalled: GcsPermission | 'token' | null = null;
  const requests: GcsRequestLog[] = [];
  let tokenUrl = '';

  const handle = async (req: IncomingMessage, res: ServerResponse, log: GcsRequestLog): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const body = await readBody(req);
    if (body === null) return;
    if (req.method === 'POST' && url.pathname === '/token') {
      if (stalled === 'token') return;
      const form = new URLSearchParams(
        /application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')
          ? body.toString('utf8')
          : '',
      );
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return send(res, 400, {
          error: 'unsupported_grant_type',
          error_description: `Invalid grant_type: ${form.get('grant_type') ?? ''}`,
        });
      const result = verifyJwtAssertion(
        form.get('assertion') ?? '',
        options.serviceAccounts,
        tokenUrl,
        now(),
      );
      if ('error' in result)
        return send(res, 400, { error: result.error, error_description: result.description });
      const token = `ya29.emulator-${randomBytes(24).toString('base64url')}`;
      tokens.set(token, {
        email: result.email,
        scopes: new Set(result.scope.split(' ')),
        expires: now() + ttl * 1000,
      });
      log.email = result.email;
      return send(
        res,
        200,
        { access_token: token, expires_in: ttl, token_type: 'Bearer' },
        { 'cache-control': 'no-store' },
      );
    }

    const upload = url.pathname.startsWith('/upload/storage/v1/b/');
    const match = /^(?:\/upload)?\/storage\/v1\/b\/([^/]+)(\/o(?:\/([^/]+))?)?$/.exec(url.pathname);
    // Object names travel URL-encoded, "/" as %2F: a raw slash after /o/ is another path, not found.
    if (!match) return apiError(res, 404, 'notFound', 'Not Found');
    const bucketName = decodeURIComponent(match[1]!);
    const objectName = match[3] !== undefined ? decodeURIComponent(match[3]) : undefined;
    let permission: GcsPermission;
    if (!match[2] && req.method === 'GET' && !upload) permission = 'storage.buckets.get';
    else if (match[2] && objectName === undefined && req.method === 'GET' && !upload)
      permission = 'storage.objects.list';
    else if (match[2] && objectName === undefined && req.method === 'POST' && upload)
      permission = 'storage.objects.create';
    else if (objectName !== undefined && req.method === 'GET' && !upload) permission = 'storage.objects.get';
    else if (objectName !== undefined && req.method === 'DELETE' && !upload)
      permission = 'storage.objects.delete';
    else return apiError(res, 405, 'methodNotAllowed', 'Method Not Allowed');

    // 401: no bearer token, or one this emulator did not issue (or revoked, or expired).
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer '))
      return apiError(res, 401, 'required', 'Login Required', {
        locationType: 'header',
        location: 'Authorization',
      });
    const grant = tokens.get(auth.slice('Bearer '.length));
    if (!grant || grant.expires <= now())
      return apiError(res, 401, 'authError', 'Invalid Credentials', {
        locationType: 'header',
        location: 'Authorization',
      });
    log.email = grant.email;
    if (stalled === permission) return;

    const bucket = buckets.get(bucketName);
    if (!bucket) return apiError(res, 404, 'notFound', 'The specified bucket does not exist.');
    const userProject = url.searchParams.get('userProject');
    if (bucket.requesterPays && !userProject)
      return apiError(
        res,
        400,
        'required',
        'Bucket is a requester pays bucket but no user project provided.',
      );
    if (userProject !== null) {
      if (options.projects && !options.projects.includes(userProject))
        return apiError(res, 400, 'invalid', 'User project specified in the request is invalid.');
      if (options.closedBillingProjects?.includes(userProject))
        return apiError(
          res,
          403,
          'userProjectAccountProblem',
          'The project to be billed is associated with a closed billing account.',
        );
    }
    const scopes =
      permission === 'storage.objects.create' || permission === 'storage.objects.delete'
        ? WRITE_SCOPES
        : READ_SCOPES;
    if (![...grant.scopes].some((s) => scopes.has(s)))
      return apiError(res, 403, 'insufficientPermissions', 'Insufficient Permission');
    if (denied.has(`${grant.email} ${permission}`)) {
      const resource =
        permission === 'storage.buckets.get' || permission === 'storage.objects.list' ? 'bucket' : 'object';
      return apiError(
        res,
        403,
        'forbidden',
        `${grant.email} does not have ${permission} access to the Google Cloud Storage ${resource}. Permission '${permission}' denied on resource (or it may not exist).`,
      );
    }

    const resource = (name: string) => {
      const o = bucket.objects.get(name)!;
      return {
        kind: 'storage#object',
        id: `${bucket.name}/${name}/${o.generation}`,
        name,
        bucket: bucket.name,
        generation: o.generation,
        contentType: o.contentType,
        size: String(o.data.length),
        updated: o.updated,
      };
    };
    switch (permission) {
      case 'storage.buckets.get':
        return send(res, 200, {
          kind: 'storage#bucket',
          id: bucket.name,
          name: bucket.name,
          location: bucket.location ?? 'US',
          storageClass: 'STANDARD',
          ...(bucket.requesterPays ? { billing: { requesterPays: true } } : {}),
        });
      case 'storage.objects.list': {
        const prefix = url.searchParams.get('prefix') ?? '';
        const max = Number(url.searchParams.get('maxResults') ?? '1000');
        if (!Number.isInteger(max) || max < 0)
          return apiError(res, 400, 'invalid', `Invalid value for maxResults`);
        const names = [...bucket.objects.keys()].filter((n) => n.startsWith(prefix)).sort();
        const page = names.slice(0, max);
        return send(res, 200, {
          kind: 'storage#objects',
          ...(page.length ? { items: page.map(resource) } : {}),
          ...(names.length > page.length
            ? { nextPageToken: Buffer.from(page.at(-1) ?? '').toString('base64') }
            : {}),
        });
      }
      case 'storage.objects.create': {
        const uploadType = url.searchParams.get('uploadType');
        if (uploadType !== 'media')
          return apiError(res, 400, 'invalid', `Invalid upload type: ${uploadType ?? '(none)'}`);
        const name = url.searchParams.get('name');
        if (!name) return apiError(res, 400, 'required', 'Required');
        bucket.objects.set(name, {
          data: body,
          generation: String(now() * 1000),
          contentType: req.headers['content-type'] ?? 'application/octet-stream',
          updated: new Date(now()).toISOString(),
        });
        return send(res, 200, resource(name));
      }
      case 'storage.objects.get': {
        const name = objectName as string;
        const object = bucket.objects.get(name);
        if (!object) return apiError(res, 404, 'notFound', `No such object: ${bucket.name}/${name}`);
        if (url.searchParams.get('alt') !== 'media') return send(res, 200, resource(name));
        res.writeHead(200, { 'content-type': object.contentType, 'content-length': object.data.length });
        res.end(object.data);
        return;
      }
      case 'storage.objects.delete': {
        const name = objectName as string;
        if (!bucket.objects.delete(name))
          return apiError(res, 404, 'notFound', `No such object: ${bucket.name}/${name}`);
        return send(res, 204, null);
      }
    }
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const log: GcsRequestLog = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status: 0,
    };
    requests.push(log);
    res.on('finish', () => {
      log.status = res.statusCode;
    });
    handle(req, res, log).catch((error: unknown) => {
      logFailure(options.log, 'gcs', req, error);
      if (!res.headersSent)
        apiError(
          res,
          500,
          'backendError',
          `Backend Error: ${error instanceof Error ? error.message : String(error)}`,
        );
    });
  });
  logRequests(server, 'gcs', options.log);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  tokenUrl = `${url}/token`;
  return {
    url,
    port,
    tokenUrl,
    requests,
    objects: (bucket) =>
      new Map([...(buckets.get(bucket)?.objects ?? new Map())].map(([k, v]) => [k, v.data])),
    seed: (bucket, name, data) => {
      const found = buckets.get(bucket);
      if (!found) throw new Error(`no bucket ${bucket}`);
      found.objects.set(name, {
        data: Buffer.from(data),
        generation: String(now() * 1000),
        contentType: 'application/octet-stream',
        updated: new Date(now()).toISOString(),
      });
    },
    deny: (email, permission) => void denied.add(`${email} ${permission}`),
    allow: (email, permission) => void denied.delete(`${email} ${permission}`),
    stall: (permission) => {
      stalled = permission;
    },
    principalOf: (token) => {
      const grant = tokens.get(token);
      return grant && grant.expires > now() ? grant.email : undefined;
    },
    revokeTokens: () => tokens.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
