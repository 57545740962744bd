// The JSON API calls and the token endpoint of the Cloud Storage emulator (gcs.ts names Google's page for
// each shape): which call a request is, the refusals before it (401, requester pays, scopes, IAM), and
// the bucket and object calls themselves.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ServiceAccount, verifyJwtAssertion } from './catalog/verify.js';
import type { SandboxLog } from './log.js';

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

const WRITE_SCOPES = new Set([
  'https://www.googleapis.com/auth/devstorage.read_write',
  'https://www.googleapis.com/auth/devstorage.full_control',
  'https://www.googleapis.com/auth/cloud-platform',
]);
const READ_SCOPES = new Set([...WRITE_SCOPES, 'https://www.googleapis.com/auth/devstorage.read_only']);
const MAX_BODY = 5 * 1024 * 1024;

export function send(
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
export function apiError(
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

export function readBody(req: IncomingMessage): Promise<Buffer | null> {
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

export interface Bucket extends GcsBucketSpec {
  objects: Map<string, { data: Buffer; generation: string; contentType: string; updated: string }>;
}

/** The emulator's buckets, tokens and switches. */
export interface GcsState {
  options: GcsEmulatorOptions;
  now: () => number;
  ttl: number;
  buckets: Map<string, Bucket>;
  tokens: Map<string, { email: string; scopes: Set<string>; expires: number }>;
  denied: Set<string>;
  stalled: GcsPermission | 'token' | null;
  tokenUrl: string;
}

/** The token endpoint: a service account's RS256 JWT-bearer grant, its OAuth2 errors as Google's. */
async function issueToken(
  state: GcsState,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  log: GcsRequestLog,
): Promise<void> {
  if (state.stalled === 'token') return;
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
    state.options.serviceAccounts,
    state.tokenUrl,
    state.now(),
  );
  if ('error' in result)
    return send(res, 400, { error: result.error, error_description: result.description });
  const token = `ya29.emulator-${randomBytes(24).toString('base64url')}`;
  state.tokens.set(token, {
    email: result.email,
    scopes: new Set(result.scope.split(' ')),
    expires: state.now() + state.ttl * 1000,
  });
  log.email = result.email;
  return send(
    res,
    200,
    { access_token: token, expires_in: state.ttl, token_type: 'Bearer' },
    { 'cache-control': 'no-store' },
  );
}

/** What a JSON API call needs: its bucket, object and permission (buckets.get → storage.buckets.get…). */
interface ApiCall {
  bucketName: string;
  objectName: string | undefined;
  permission: GcsPermission;
}

/** The call a request is, or undefined once answered (404, 405). */
function callOf(req: IncomingMessage, res: ServerResponse, url: URL): ApiCall | undefined {
  const upload = url.pathname.startsWith('/upload/storage/v1/b/');
  const match = /^(?:\/upload)?\/storage\/v1\/b\/([^/]+)(\/o(?:\/([^/]+))?)?$/.exec(url.pathname);
  // Object names travel URL-encoded, "/" as %2F: a raw slash after /o/ is another path, not found.
  if (!match) return void apiError(res, 404, 'notFound', 'Not Found');
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
  else return void apiError(res, 405, 'methodNotAllowed', 'Method Not Allowed');
  return { bucketName, objectName, permission };
}

/** The call's bucket once every check passes; undefined once refused (or stalled, unanswered). */
function allowed(
  state: GcsState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  { bucketName, permission }: ApiCall,
  log: GcsRequestLog,
): Bucket | undefined {
  // 401: no bearer token, or one this emulator did not issue (or revoked, or expired).
  const auth = req.headers.authorization ?? '';
  if (!auth.startsWith('Bearer '))
    return void apiError(res, 401, 'required', 'Login Required', {
      locationType: 'header',
      location: 'Authorization',
    });
  const grant = state.tokens.get(auth.slice('Bearer '.length));
  if (!grant || grant.expires <= state.now())
    return void apiError(res, 401, 'authError', 'Invalid Credentials', {
      locationType: 'header',
      location: 'Authorization',
    });
  log.email = grant.email;
  if (state.stalled === permission) return;

  const bucket = state.buckets.get(bucketName);
  if (!bucket) return void apiError(res, 404, 'notFound', 'The specified bucket does not exist.');
  const userProject = url.searchParams.get('userProject');
  if (bucket.requesterPays && !userProject)
    return void apiError(
      res,
      400,
      'required',
      'Bucket is a requester pays bucket but no user project provided.',
    );
  if (userProject !== null) {
    if (state.options.projects && !state.options.projects.includes(userProject))
      return void apiError(res, 400, 'invalid', 'User project specified in the request is invalid.');
    if (state.options.closedBillingProjects?.includes(userProject))
      return void apiError(
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
    return void apiError(res, 403, 'insufficientPermissions', 'Insufficient Permission');
  if (state.denied.has(`${grant.email} ${permission}`)) {
    const resource =
      permission === 'storage.buckets.get' || permission === 'storage.objects.list' ? 'bucket' : 'object';
    return void apiError(
      res,
      403,
      'forbidden',
      `${grant.email} does not have ${permission} access to the Google Cloud Storage ${resource}. Permission '${permission}' denied on resource (or it may not exist).`,
    );
  }
  return bucket;
}

/** The bucket and object calls, once allowed. */
async function serve(
  state: GcsState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  bucket: Bucket,
  { objectName, permission }: ApiCall,
  body: Buffer,
): Promise<void> {
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
        generation: String(state.now() * 1000),
        contentType: req.headers['content-type'] ?? 'application/octet-stream',
        updated: new Date(state.now()).toISOString(),
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
}

export async function handle(
  state: GcsState,
  req: IncomingMessage,
  res: ServerResponse,
  log: GcsRequestLog,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator');
  const body = await readBody(req);
  if (body === null) return;
  if (req.method === 'POST' && url.pathname === '/token') return await issueToken(state, req, res, body, log);
  const call = callOf(req, res, url);
  if (!call) return;
  const bucket = allowed(state, req, res, url, call, log);
  if (bucket) await serve(state, req, res, url, bucket, call, body);
}
