// What a failed storage step means: SDK errors (service, network, credential) turned into a
// diagnosis with evidence. Pure functions over the error's shape; no SDK import.
import type { Diagnosis } from '../check/types.js';
import type { StorageKind } from '../destination/fields.js';

/** Every storage diagnosis code, one line each (the source of docs/diagnoses.md). */
export const STORAGE_DIAGNOSES = {
  S3_INVALID_PATH: 'The data location is not s3://bucket[/prefix]',
  S3_NO_ENDPOINT: 'S3-compatible storage is selected but no S3 Endpoint is set',
  S3_NO_SUCH_BUCKET: 'The bucket does not exist (NoSuchBucket, or 404 on HeadBucket)',
  S3_INVALID_BUCKET_NAME: 'The store rejects the bucket name (InvalidBucketName)',
  S3_ACCESS_DENIED_READ:
    'The credentials may not read the bucket (AccessDenied on HeadBucket, ListObjectsV2 or GetObject)',
  S3_ACCESS_DENIED_WRITE:
    'The credentials may not write to the bucket (AccessDenied on PutObject or DeleteObject)',
  S3_SIGNATURE_MISMATCH: 'The secret key does not belong to the access key (SignatureDoesNotMatch)',
  S3_INVALID_ACCESS_KEY: 'The store does not know the access key (InvalidAccessKeyId)',
  S3_EXPIRED_TOKEN:
    'The temporary credentials expired: their STS session token is past its expiry (ExpiredToken, 400)',
  S3_WRONG_REGION: 'The bucket lives in another region (301 PermanentRedirect with x-amz-bucket-region)',
  S3_REDIRECT: 'The endpoint answered with a redirect instead of an S3 response',
  S3_VIRTUAL_HOST_DNS:
    'Virtual-host style asks for <bucket>.<endpoint host>, which does not resolve (ENOTFOUND)',
  S3_DNS: 'The endpoint host name does not resolve (ENOTFOUND)',
  S3_CONNECTION_REFUSED: 'Nothing listens on the endpoint host and port (ECONNREFUSED)',
  S3_CONNECTION_FAILED: 'The connection to the endpoint broke (reset, unreachable network)',
  S3_PROXY_CONNECT:
    'The proxy (HTTPS_PROXY / HTTP_PROXY) refused or failed the CONNECT tunnel to the endpoint',
  S3_TIMEOUT: 'The store did not answer within the timeout',
  S3_TLS: 'The TLS handshake failed: untrusted certificate, wrong host name, or https to an http port',
  S3_NO_CREDENTIALS:
    'No access keys are set and none are found in the environment (CredentialsProviderError)',
  S3_ASSUME_ROLE_DENIED:
    'The identity may not assume the configured role (not authorized to perform sts:AssumeRole)',
  S3_CLOCK_SKEW: "The local clock differs too much from the store's (RequestTimeTooSkewed)",
  S3_CHUNKED_UPLOAD_REJECTED: 'The store rejects aws-chunked uploads (MissingContentLength, 411)',
  S3_NOT_S3: 'The endpoint answered with something that is not an S3 response (HTML, garbage)',
  S3_RESPONSE_TOO_LARGE: 'The endpoint answered with an unexpectedly large body',
  S3_PROBE_MISMATCH: 'The probe object read back differs from what was written',
  S3_PROBE_MISSING: 'The probe object just written cannot be read back (NoSuchKey)',
  S3_SERVER_ERROR: 'The store failed with a server error (5xx)',
  S3_REQUEST_FAILED: 'The store refused the request for another reason',
} as const satisfies Record<string, string>;

export type StorageDiagnosisCode = keyof typeof STORAGE_DIAGNOSES;

export const STORAGE_STEPS = {
  'storage.head': { operation: 'HeadBucket', title: 'Bucket exists (HeadBucket)' },
  'storage.list': { operation: 'ListObjectsV2', title: 'List objects under the path (ListObjectsV2)' },
  'storage.put': { operation: 'PutObject', title: 'Write a probe object (PutObject)' },
  'storage.get': { operation: 'GetObject', title: 'Read the probe back (GetObject)' },
  'storage.delete': { operation: 'DeleteObject', title: 'Delete the probe (DeleteObject)' },
} as const;

export type StorageStepId = keyof typeof STORAGE_STEPS;

/** What the probe was doing when a step failed. Nothing in here is a secret. */
export interface ProbeContext {
  /** A storage step, or a write-check step (floe test --write) with its `operation`. */
  step: StorageStepId | `write.${string}`;
  /** The S3 operation, when the step is not one of the storage check's. */
  operation?: 'HeadBucket' | 'ListObjectsV2' | 'PutObject' | 'GetObject' | 'DeleteObject';
  bucket: string;
  /** The object key, for put/get/delete. */
  key?: string;
  region: string;
  storage: StorageKind;
  /** The configured S3 endpoint, if any. */
  endpoint?: string;
  pathStyle: boolean;
  /** The failing request's URL, secrets removed. */
  url?: string;
  timeoutMs: number;
  /** Whether the per-request timeout (not the user) ended the request. */
  timedOut: boolean;
  /** Where the keys came from: the profile, or the SDK's default chain. */
  credentials: 'profile' | 'environment';
  /** The access key id masked (`••••` + last 4), for evidence. */
  accessKeyHint?: string;
  /** Extra evidence gathered by the caller, e.g. a follow-up request that named the error. */
  extra?: Record<string, string>;
  /** The proxy the failing request went through (HTTPS_PROXY / HTTP_PROXY), without credentials. */
  proxy?: string;
}

/** The facts a diagnosis rests on, read off any SDK or Node error. */
export interface ErrorFacts {
  name: string;
  message: string;
  /** S3 error code (`NoSuchBucket`) or Node error code (`ENOTFOUND`). */
  code?: string;
  status?: number;
  requestId?: string;
  bucketRegion?: string;
  location?: string;
  hostname?: string;
}

const NETWORK_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
]);
const GENERIC_NAMES = new Set(['Error', 'Unknown', 'UnknownError', 'TypeError']);

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function header(headers: Record<string, unknown>, name: string): string | undefined {
  const hit = Object.entries(headers).find(([k]) => k.toLowerCase() === name);
  return hit ? str(hit[1]) : undefined;
}

export function errorFacts(error: unknown): ErrorFacts {
  const e = record(error);
  const metadata = record(e.$metadata);
  const response = record(e.$response);
  const headers = record(response.headers);
  const cause = record(e.cause);
  const name = str(e.name) ?? 'Error';
  const nodeCode = str(e.code) ?? str(cause.code);
  const s3Code = str(e.Code) ?? (GENERIC_NAMES.has(name) ? undefined : name);
  const status =
    typeof metadata.httpStatusCode === 'number'
      ? metadata.httpStatusCode
      : typeof response.statusCode === 'number'
        ? response.statusCode
        : undefined;
  return {
    name,
    message: str(e.message) ?? String(error),
    code: nodeCode && (NETWORK_CODES.has(nodeCode) || isTlsCode(nodeCode)) ? nodeCode : (s3Code ?? nodeCode),
    status,
    requestId: str(metadata.requestId) ?? header(headers, 'x-amz-request-id') ?? str(e.RequestId),
    bucketRegion: header(headers, 'x-amz-bucket-region') ?? str(e.Region),
    location: header(headers, 'location') ?? str(e.Endpoint),
    hostname: str(e.hostname) ?? str(cause.hostname),
  };
}

function isTlsCode(code: string): boolean {
  return (
    code === 'EPROTO' ||
    code.startsWith('ERR_SSL') ||
    code.startsWith('ERR_TLS') ||
    code.startsWith('CERT_') ||
    code.includes('SELF_SIGNED') ||
    code.startsWith('UNABLE_TO_') ||
    code === 'HOSTNAME_MISMATCH'
  );
}

/** undici's ProxyAgent when the proxy answers CONNECT with anything but 200. */
const PROXY_REFUSED = /Proxy response \((\d+)\) !== 200/;

/** Failures of the connection itself: through a proxy, their text names it. */
const CONNECTION_CODES: ReadonlySet<StorageDiagnosisCode> = new Set([
  'S3_DNS',
  'S3_VIRTUAL_HOST_DNS',
  'S3_CONNECTION_REFUSED',
  'S3_CONNECTION_FAILED',
  'S3_TIMEOUT',
  'S3_TLS',
]);

const READ_OPERATIONS: ReadonlySet<string> = new Set(['HeadBucket', 'ListObjectsV2', 'GetObject']);

function operationOf(ctx: ProbeContext): string {
  return ctx.operation ?? STORAGE_STEPS[ctx.step as StorageStepId].operation;
}

const isRead = (ctx: ProbeContext) => READ_OPERATIONS.has(operationOf(ctx));
const ASSUME_ROLE = /User: (\S+) is not authorized to perform: sts:AssumeRole(?: on resource: (\S+))?/;

/** Picks the diagnosis code for an error raised by a storage step. */
export function classify(facts: ErrorFacts, ctx: ProbeContext): StorageDiagnosisCode {
  const { code, status, name, message } = facts;
  if (ctx.timedOut) return 'S3_TIMEOUT';
  if (PROXY_REFUSED.test(message)) return 'S3_PROXY_CONNECT';
  if (name === 'CredentialsProviderError' || /Could not load credentials/i.test(message))
    return 'S3_NO_CREDENTIALS';
  if (ASSUME_ROLE.test(message)) return 'S3_ASSUME_ROLE_DENIED';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return !ctx.pathStyle && facts.hostname?.startsWith(`${ctx.bucket}.`) ? 'S3_VIRTUAL_HOST_DNS' : 'S3_DNS';
  if (code === 'ECONNREFUSED') return 'S3_CONNECTION_REFUSED';
  if (code === 'ETIMEDOUT') return 'S3_TIMEOUT';
  if (code && NETWORK_CODES.has(code)) return 'S3_CONNECTION_FAILED';
  if (code && isTlsCode(code)) return 'S3_TLS';
  if (name === 'FloeNotS3' || /Deserialization error|XML parse error|char '<' is not expected/i.test(message))
    return 'S3_NOT_S3';
  if (name === 'FloeTooLarge') return 'S3_RESPONSE_TOO_LARGE';
  if (name === 'FloeProbeMismatch') return 'S3_PROBE_MISMATCH';
  switch (code) {
    case 'NoSuchBucket':
      return 'S3_NO_SUCH_BUCKET';
    case 'InvalidBucketName':
      return 'S3_INVALID_BUCKET_NAME';
    case 'SignatureDoesNotMatch':
      return 'S3_SIGNATURE_MISMATCH';
    case 'InvalidAccessKeyId':
      return 'S3_INVALID_ACCESS_KEY';
    case 'ExpiredToken':
    case 'TokenRefreshRequired':
      return 'S3_EXPIRED_TOKEN';
    case 'PermanentRedirect':
    case 'AuthorizationHeaderMalformed':
    case 'IllegalLocationConstraintException':
      return 'S3_WRONG_REGION';
    case 'RequestTimeTooSkewed':
      return 'S3_CLOCK_SKEW';
    case 'MissingContentLength':
      return 'S3_CHUNKED_UPLOAD_REJECTED';
    case 'AccessDenied':
    case 'AllAccessDisabled':
    case 'Forbidden':
      return isRead(ctx) ? 'S3_ACCESS_DENIED_READ' : 'S3_ACCESS_DENIED_WRITE';
    case 'NoSuchKey':
      return ctx.step === 'storage.get' ? 'S3_PROBE_MISSING' : 'S3_REQUEST_FAILED';
  }
  if (status === 404 && operationOf(ctx) === 'HeadBucket') return 'S3_NO_SUCH_BUCKET';
  if (status !== undefined && status >= 300 && status < 400)
    return facts.bucketRegion ? 'S3_WRONG_REGION' : 'S3_REDIRECT';
  if (status === 403) return isRead(ctx) ? 'S3_ACCESS_DENIED_READ' : 'S3_ACCESS_DENIED_WRITE';
  if (status === 411) return 'S3_CHUNKED_UPLOAD_REJECTED';
  if (status !== undefined && status >= 500) return 'S3_SERVER_ERROR';
  return 'S3_REQUEST_FAILED';
}

interface Text {
  what: string;
  cause: string;
  remedy: string;
  extra?: Record<string, string>;
}

function where(ctx: ProbeContext): string {
  return ctx.endpoint ? `the S3 endpoint ${ctx.endpoint}` : `AWS S3 in ${ctx.region}`;
}

function target(ctx: ProbeContext): string {
  return ctx.key ? `s3://${ctx.bucket}/${ctx.key}` : `bucket "${ctx.bucket}"`;
}

function host(ctx: ProbeContext): string {
  if (!ctx.endpoint) return `s3.${ctx.region}.amazonaws.com`;
  try {
    return new URL(ctx.endpoint).host;
  } catch {
    return ctx.endpoint;
  }
}

const KEYS_FROM = (ctx: ProbeContext) =>
  ctx.credentials === 'profile'
    ? 'the Access Key and Secret Key of this destination'
    : 'the keys the AWS SDK found in the environment (AWS_ACCESS_KEY_ID, ~/.aws/credentials, role)';

function text(code: StorageDiagnosisCode, f: ErrorFacts, ctx: ProbeContext): Text {
  const op = operationOf(ctx);
  const failed = `${op} on ${target(ctx)} failed`;
  switch (code) {
    case 'S3_INVALID_PATH':
      return {
        what: 'The data location cannot be parsed',
        cause: 'It must be s3://bucket or s3://bucket/prefix',
        remedy: 'Set Data Location to e.g. s3://warehouse/olake',
      };
    case 'S3_NO_ENDPOINT':
      return {
        what: 'No S3 Endpoint for S3-compatible storage',
        cause: 'MinIO, Ceph RGW, R2 and other S3-compatible stores are reached through their own URL',
        remedy: 'Set S3 Endpoint, e.g. http://minio:9000, or choose AWS S3 as the storage',
      };
    case 'S3_NO_SUCH_BUCKET':
      return {
        what: `Bucket "${ctx.bucket}" does not exist at ${where(ctx)}`,
        cause:
          'The bucket name in the data location is misspelt, was never created, or lives at another endpoint',
        remedy: `Create bucket "${ctx.bucket}" or correct the Data Location${ctx.endpoint ? ' / S3 Endpoint' : ' / Region'}`,
      };
    case 'S3_INVALID_BUCKET_NAME':
      return {
        what: `The store rejects the bucket name "${ctx.bucket}"`,
        cause: 'Bucket names are 3–63 characters: lowercase letters, digits, dots and hyphens',
        remedy: 'Correct the bucket name in the Data Location (or the Warehouse)',
      };
    case 'S3_ACCESS_DENIED_READ':
      return {
        what: `${failed}: access denied (read)`,
        cause: `${KEYS_FROM(ctx)} may not ${op === 'GetObject' ? 'read objects (s3:GetObject)' : 'list the bucket (s3:ListBucket)'}`,
        remedy: `Grant ${op === 'GetObject' ? 's3:GetObject' : 's3:ListBucket'} on ${target(ctx)} in the user's or the bucket's policy`,
      };
    case 'S3_ACCESS_DENIED_WRITE':
      return {
        what: `${failed}: access denied (write)`,
        cause: `${KEYS_FROM(ctx)} may read but not ${op === 'DeleteObject' ? 'delete objects (s3:DeleteObject)' : 'write objects (s3:PutObject)'}; OLake needs both`,
        remedy: `Grant s3:PutObject and s3:DeleteObject on s3://${ctx.bucket}/* in the user's or the bucket's policy`,
      };
    case 'S3_SIGNATURE_MISMATCH':
      return {
        what: `${failed}: the request signature does not match`,
        cause: `The Secret Key does not belong to the Access Key (${KEYS_FROM(ctx)}), or a proxy rewrote the request`,
        remedy: 'Re-enter the Secret Key for this Access Key (no trailing spaces or line breaks)',
        extra: ctx.accessKeyHint ? { accessKey: ctx.accessKeyHint } : undefined,
      };
    case 'S3_INVALID_ACCESS_KEY':
      return {
        what: `${failed}: the access key id is unknown to ${where(ctx)}`,
        cause: 'The Access Key is misspelt, was deleted, or belongs to another store or account',
        remedy: 'Enter an Access Key that exists on this store (and its Secret Key)',
        extra: ctx.accessKeyHint ? { accessKey: ctx.accessKeyHint } : undefined,
      };
    case 'S3_EXPIRED_TOKEN':
      return {
        what: `${failed}: the session token of the temporary credentials has expired`,
        cause: `The keys are temporary STS credentials (${KEYS_FROM(ctx)}) and their session token expired; the store does not accept them any more`,
        remedy:
          'Get fresh credentials (aws sts get-session-token or assume-role again) and enter the new Access Key, Secret Key and session token, or use long-lived keys or a role the OLake worker assumes itself (instance profile, IRSA)',
      };
    case 'S3_WRONG_REGION':
      return {
        what: `${failed}: the bucket is in ${f.bucketRegion ?? 'another region'}, not ${ctx.region}`,
        cause: 'S3 answers 301 PermanentRedirect when a bucket is addressed in the wrong region',
        remedy: f.bucketRegion ? `Set Region to ${f.bucketRegion}` : 'Set Region to the bucket’s region',
        extra: f.bucketRegion ? { bucketRegion: f.bucketRegion } : undefined,
      };
    case 'S3_REDIRECT':
      return {
        what: `${failed}: ${where(ctx)} answered with a redirect (HTTP ${f.status ?? '3xx'})`,
        cause:
          'The endpoint is a web server, load balancer or login page in front of the store, not the S3 API',
        remedy:
          'Set S3 Endpoint to the store’s S3 API URL (for MinIO the API port, usually 9000, not the console)',
        extra: f.location ? { location: redactUrl(f.location) } : undefined,
      };
    case 'S3_VIRTUAL_HOST_DNS':
      return {
        what: `${failed}: host ${f.hostname ?? `${ctx.bucket}.${host(ctx)}`} does not resolve`,
        cause: `Virtual-host style puts the bucket in the host name (${ctx.bucket}.${host(ctx)}), which only works with wildcard DNS`,
        remedy:
          'Choose S3-compatible storage with this S3 Endpoint (floe then uses path style: endpoint/bucket), or add wildcard DNS for the endpoint',
      };
    case 'S3_DNS':
      return {
        what: `${failed}: host ${f.hostname ?? host(ctx)} does not resolve`,
        cause:
          'The S3 Endpoint’s host name is misspelt, or it only resolves inside another network (e.g. a Docker network)',
        remedy: 'Correct the S3 Endpoint host, or use an address reachable from here (e.g. localhost:9000)',
      };
    case 'S3_CONNECTION_REFUSED':
      return {
        what: `${failed}: connection refused by ${host(ctx)}`,
        cause: 'Nothing listens on that host and port: the store is down or the port is wrong',
        remedy: 'Start the store, or correct the port in S3 Endpoint',
      };
    case 'S3_PROXY_CONNECT':
      return {
        what: `${failed}: the proxy ${ctx.proxy ?? ''} refused the tunnel to ${host(ctx)} (HTTP ${PROXY_REFUSED.exec(f.message)?.[1] ?? '?'})`,
        cause:
          'The proxy does not allow this host or port (403), wants credentials (407), or cannot reach the store itself (502)',
        remedy:
          'Have the endpoint allowed, put credentials in the proxy URL (http://user:pass@proxy:3128), or add its host to NO_PROXY if it is reachable directly',
      };
    case 'S3_CONNECTION_FAILED':
      return {
        what: `${failed}: the connection to ${host(ctx)} broke (${f.code ?? 'connection lost'})`,
        cause: 'A network path, firewall or proxy dropped the connection',
        remedy: 'Check that the endpoint is reachable from this machine and retry',
      };
    case 'S3_TIMEOUT':
      return {
        what: `${failed}: no answer from ${host(ctx)} within ${ctx.timeoutMs} ms`,
        cause: 'The store is overloaded, or a firewall silently drops the packets',
        remedy: 'Check the endpoint is reachable (curl it), or raise the timeout',
      };
    case 'S3_TLS':
      return {
        what: `${failed}: TLS handshake with ${host(ctx)} failed (${f.code ?? 'handshake error'})`,
        cause:
          f.code === 'EPROTO'
            ? 'The endpoint speaks plain http on this port, but the S3 Endpoint says https'
            : 'The certificate is self-signed, expired, or issued for another host name',
        remedy:
          f.code === 'EPROTO'
            ? 'Use http:// in S3 Endpoint'
            : 'Use the host name on the certificate, or trust its CA (NODE_EXTRA_CA_CERTS=/path/ca.pem)',
      };
    case 'S3_NO_CREDENTIALS':
      return {
        what: 'No credentials for the object store',
        cause:
          'Access Key and Secret Key are empty, and the AWS SDK found no keys in the environment, ~/.aws or an instance role',
        remedy:
          'Enter an Access Key and Secret Key, or set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or AWS_PROFILE',
      };
    case 'S3_ASSUME_ROLE_DENIED': {
      const m = ASSUME_ROLE.exec(f.message);
      const role = m?.[2] ?? '<role-arn>';
      return {
        what: `${m?.[1] ?? 'The identity'} is not authorized to perform sts:AssumeRole${m?.[2] ? ` on ${m[2]}` : ''}`,
        cause: 'The role’s trust policy does not name this identity, or its permissions lack sts:AssumeRole',
        remedy: `Assign the correct role, validate its trust policy and permissions, then try: aws sts assume-role --role-arn ${role} --role-session-name test-session`,
        extra: { ...(m?.[1] ? { principal: m[1] } : {}), ...(m?.[2] ? { role: m[2] } : {}) },
      };
    }
    case 'S3_CLOCK_SKEW':
      return {
        what: `${failed}: the request time is too far from the store's clock`,
        cause: 'This machine’s clock is off by more than 15 minutes',
        remedy: 'Synchronise the clock (e.g. enable NTP) and retry',
      };
    case 'S3_CHUNKED_UPLOAD_REJECTED':
      return {
        what: `${failed}: the store wants a Content-Length (411)`,
        cause:
          'The store does not accept aws-chunked uploads with checksum trailers that newer AWS SDKs send',
        remedy:
          'Choose S3-compatible storage for this endpoint (floe then only sends checksums when required)',
      };
    case 'S3_NOT_S3':
      return {
        what: `${failed}: ${where(ctx)} did not answer like S3${f.status ? ` (HTTP ${f.status})` : ''}`,
        cause: 'The URL points at a web page, console or proxy instead of the S3 API',
        remedy: 'Set S3 Endpoint to the S3 API URL (for MinIO the API port, usually 9000)',
      };
    case 'S3_RESPONSE_TOO_LARGE':
      return {
        what: `${failed}: the answer was far larger than any S3 response to this request`,
        cause: 'The URL points at something other than the S3 API',
        remedy: 'Set S3 Endpoint to the S3 API URL',
      };
    case 'S3_PROBE_MISMATCH':
      return {
        what: `The probe object read back from ${target(ctx)} differs from what was written`,
        cause: 'A proxy or cache in front of the store altered or served a stale object',
        remedy: 'Point S3 Endpoint at the store itself, not at a caching proxy',
      };
    case 'S3_PROBE_MISSING':
      return {
        what: `${failed}: the probe written a moment ago is not there`,
        cause: 'The endpoint balances across stores that do not share data, or a lifecycle rule removed it',
        remedy: 'Point S3 Endpoint at a single consistent store',
      };
    case 'S3_SERVER_ERROR':
      return {
        what: `${failed}: the store failed (HTTP ${f.status ?? '5xx'}${f.code ? ` ${f.code}` : ''})`,
        cause: 'An error inside the store or a proxy in front of it',
        remedy: 'Retry; if it persists, check the store’s logs for the request id',
      };
    case 'S3_REQUEST_FAILED':
      return {
        what: `${failed}${f.status ? ` (HTTP ${f.status})` : ''}: ${f.code ?? f.message}`,
        cause: 'The store refused the request',
        remedy: 'Check the error code against the store’s documentation',
      };
  }
}

/** Removes userinfo and signing query parameters from a URL. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    for (const key of [...u.searchParams.keys()])
      if (/^x-amz-(credential|signature|security-token)$/i.test(key)) u.searchParams.set(key, 'redacted');
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

/** Builds the diagnosis for a failure with no error object (bad input, a content mismatch). */
export function storageDiagnosis(code: StorageDiagnosisCode, ctx: ProbeContext): Diagnosis {
  return build(code, { name: code, message: STORAGE_DIAGNOSES[code] }, ctx);
}

/** Turns any error thrown by a storage step into a diagnosis. */
export function diagnoseStorageError(error: unknown, ctx: ProbeContext): Diagnosis {
  const facts = errorFacts(error);
  return build(classify(facts, ctx), facts, ctx);
}

function build(code: StorageDiagnosisCode, facts: ErrorFacts, ctx: ProbeContext): Diagnosis {
  const t = text(code, facts, ctx);
  const extra = { ...ctx.extra, ...t.extra, ...(ctx.proxy ? { proxy: ctx.proxy } : {}) };
  if (ctx.proxy && CONNECTION_CODES.has(code)) t.what = `${t.what} (through proxy ${ctx.proxy})`;
  return {
    code,
    step: ctx.step,
    what: t.what,
    cause: t.cause,
    remedy: t.remedy,
    evidence: {
      ...(facts.status !== undefined ? { status: facts.status } : {}),
      ...(facts.code ? { errorCode: facts.code } : {}),
      ...(facts.requestId ? { requestId: facts.requestId } : {}),
      ...(ctx.url ? { url: redactUrl(ctx.url) } : {}),
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    },
  };
}
