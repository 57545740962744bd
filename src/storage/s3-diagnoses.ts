// The storage check's diagnoses as data: each code's one line (docs/diagnoses.md) and how it explains
// a failure (what, cause, remedy, evidence); and the rules, in order, that pick a code for an error.
// diagnoses.ts is the small matcher over them.
import { type CodeChoice, chooseCode, type DiagnosisRule, type ExplainedRow } from '../check/diagnoses.js';
import { safeUrl } from '../check/scrub.js';
import {
  ASSUME_ROLE,
  type ErrorFacts,
  host,
  isRead,
  isTlsCode,
  KEYS_FROM,
  NETWORK_CODES,
  operationOf,
  PROXY_REFUSED,
  type ProbeContext,
  target,
  where,
} from './s3-facts.js';

/** What a row explains from: the error's facts, the probe's context, its operation and `<op> on <target> failed`. */
export interface Said {
  f: ErrorFacts;
  ctx: ProbeContext;
  op: string;
  failed: string;
}

/** Every storage diagnosis code, in the order docs/diagnoses.md lists them. */
export const STORAGE_DIAGNOSIS_TABLE = {
  S3_INVALID_PATH: {
    summary: 'The data location is not s3://bucket[/prefix]',
    explain: () => ({
      what: 'The data location cannot be parsed',
      cause: 'It must be s3://bucket or s3://bucket/prefix',
      remedy: 'Set Data Location to e.g. s3://warehouse/olake',
    }),
  },
  S3_NO_ENDPOINT: {
    summary: 'S3-compatible storage is selected but no S3 Endpoint is set',
    explain: () => ({
      what: 'No S3 Endpoint for S3-compatible storage',
      cause: 'MinIO, Ceph RGW, R2 and other S3-compatible stores are reached through their own URL',
      remedy: 'Set S3 Endpoint, e.g. http://minio:9000, or choose AWS S3 as the storage',
    }),
  },
  S3_NO_SUCH_BUCKET: {
    summary: 'The bucket does not exist (NoSuchBucket, or 404 on HeadBucket)',
    explain: ({ ctx }) => ({
      what: `Bucket "${ctx.bucket}" does not exist at ${where(ctx)}`,
      cause:
        'The bucket name in the data location is misspelt, was never created, or lives at another endpoint',
      remedy: `Create bucket "${ctx.bucket}" or correct the Data Location${ctx.endpoint ? ' / S3 Endpoint' : ' / Region'}`,
    }),
  },
  S3_INVALID_BUCKET_NAME: {
    summary: 'The store rejects the bucket name (InvalidBucketName)',
    explain: ({ ctx }) => ({
      what: `The store rejects the bucket name "${ctx.bucket}"`,
      cause: 'Bucket names are 3–63 characters: lowercase letters, digits, dots and hyphens',
      remedy: 'Correct the bucket name in the Data Location (or the Warehouse)',
    }),
  },
  S3_ACCESS_DENIED_READ: {
    summary:
      'The credentials may not read the bucket (AccessDenied on HeadBucket, ListObjectsV2 or GetObject)',
    explain: ({ ctx, op, failed }) => ({
      what: `${failed}: access denied (read)`,
      cause: `${KEYS_FROM(ctx)} may not ${op === 'GetObject' ? 'read objects (s3:GetObject)' : 'list the bucket (s3:ListBucket)'}`,
      remedy: `Grant ${op === 'GetObject' ? 's3:GetObject' : 's3:ListBucket'} on ${target(ctx)} in the user's or the bucket's policy`,
    }),
  },
  S3_ACCESS_DENIED_WRITE: {
    summary: 'The credentials may not write to the bucket (AccessDenied on PutObject or DeleteObject)',
    explain: ({ ctx, op, failed }) => ({
      what: `${failed}: access denied (write)`,
      cause: `${KEYS_FROM(ctx)} may read but not ${op === 'DeleteObject' ? 'delete objects (s3:DeleteObject)' : 'write objects (s3:PutObject)'}; OLake needs both`,
      remedy: `Grant s3:PutObject and s3:DeleteObject on s3://${ctx.bucket}/* in the user's or the bucket's policy`,
    }),
  },
  S3_SIGNATURE_MISMATCH: {
    summary: 'The secret key does not belong to the access key (SignatureDoesNotMatch)',
    explain: ({ ctx, failed }) => ({
      what: `${failed}: the request signature does not match`,
      cause: `The Secret Key does not belong to the Access Key (${KEYS_FROM(ctx)}), or a proxy rewrote the request`,
      remedy: 'Re-enter the Secret Key for this Access Key (no trailing spaces or line breaks)',
      extra: ctx.accessKeyHint ? { accessKey: ctx.accessKeyHint } : undefined,
    }),
  },
  S3_INVALID_ACCESS_KEY: {
    summary: 'The store does not know the access key (InvalidAccessKeyId)',
    explain: ({ ctx, failed }) => ({
      what: `${failed}: the access key id is unknown to ${where(ctx)}`,
      cause: 'The Access Key is misspelt, was deleted, or belongs to another store or account',
      remedy: 'Enter an Access Key that exists on this store (and its Secret Key)',
      extra: ctx.accessKeyHint ? { accessKey: ctx.accessKeyHint } : undefined,
    }),
  },
  S3_EXPIRED_TOKEN: {
    summary:
      'The temporary credentials expired: their STS session token is past its expiry (ExpiredToken, 400)',
    explain: ({ ctx, failed }) => ({
      what: `${failed}: the session token of the temporary credentials has expired`,
      cause: `The keys are temporary STS credentials (${KEYS_FROM(ctx)}) and their session token expired; the store does not accept them any more`,
      remedy:
        'Get fresh credentials (aws sts get-session-token or assume-role again) and enter the new Access Key, Secret Key and session token, or use long-lived keys or a role the OLake worker assumes itself (instance profile, IRSA)',
    }),
  },
  S3_WRONG_REGION: {
    summary: 'The bucket lives in another region (301 PermanentRedirect with x-amz-bucket-region)',
    explain: ({ f, ctx, failed }) => ({
      what: `${failed}: the bucket is in ${f.bucketRegion ?? 'another region'}, not ${ctx.region}`,
      cause: 'S3 answers 301 PermanentRedirect when a bucket is addressed in the wrong region',
      remedy: f.bucketRegion ? `Set Region to ${f.bucketRegion}` : 'Set Region to the bucket’s region',
      extra: f.bucketRegion ? { bucketRegion: f.bucketRegion } : undefined,
    }),
  },
  S3_REDIRECT: {
    summary: 'The endpoint answered with a redirect instead of an S3 response',
    explain: ({ f, ctx, failed }) => ({
      what: `${failed}: ${where(ctx)} answered with a redirect (HTTP ${f.status ?? '3xx'})`,
      cause:
        'The endpoint is a web server, load balancer or login page in front of the store, not the S3 API',
      remedy:
        'Set S3 Endpoint to the store’s S3 API URL (for MinIO the API port, usually 9000, not the console)',
      extra: f.location ? { location: safeUrl(f.location) } : undefined,
    }),
  },
  S3_VIRTUAL_HOST_DNS: {
    summary: 'Virtual-host style asks for <bucket>.<endpoint host>, which does not resolve (ENOTFOUND)',
    explain: ({ f, ctx, failed }) => ({
      what: `${failed}: host ${f.hostname ?? `${ctx.bucket}.${host(ctx)}`} does not resolve`,
      cause: `Virtual-host style puts the bucket in the host name (${ctx.bucket}.${host(ctx)}), which only works with wildcard DNS`,
      remedy:
        'Choose S3-compatible storage with this S3 Endpoint (floe then uses path style: endpoint/bucket), or add wildcard DNS for the endpoint',
    }),
  },
  S3_DNS: {
    summary: 'The endpoint host name does not resolve (ENOTFOUND)',
    explain: ({ f, ctx, failed }) => ({
      what: `${failed}: host ${f.hostname ?? host(ctx)} does not resolve`,
      cause:
        'The S3 Endpoint’s host name is misspelt, or it only resolves inside another network (e.g. a Docker network)',
      remedy: 'Correct the S3 Endpoint host, or use an address reachable from here (e.g. localhost:9000)',
    }),
  },
  S3_CONNECTION_REFUSED: {
    summary: 'Nothing listens on the endpoint host and port (ECONNREFUSED)',
    explain: ({ ctx, failed }) => ({
      what: `${failed}: connection refused by ${host(ctx)}`,
      cause: 'Nothing listens on that host and port: the store is down or the port is wrong',
      remedy: 'Start the store, or correct the port in S3 Endpoint',
    }),
  },
  S3_CONNECTION_FAILED: {
    summary: 'The connection to the endpoint broke (reset, unreachable network)',
    explain: ({ f, ctx, failed }) => ({
      what: `${failed}: the connection to ${host(ctx)} broke (${f.code ?? 'connection lost'})`,
      cause: 'A network path, firewall or proxy dropped the connection',
      remedy: 'Check that the endpoint is reachable from this machine and retry',
    }),
  },
  S3_PROXY_CONNECT: {
    summary: 'The proxy (HTTPS_PROXY / HTTP_PROXY) refused or failed the CONNECT tunnel to the endpoint',
    explain: ({ f, ctx, failed }) => ({
      what: `${failed}: the proxy ${ctx.proxy ?? ''} refused the tunnel to ${host(ctx)} (HTTP ${PROXY_REFUSED.exec(f.message)?.[1] ?? '?'})`,
      cause:
        'The proxy does not allow this host or port (403), wants credentials (407), or cannot reach the store itself (502)',
      remedy:
        'Have the endpoint allowed, put credentials in the proxy URL (http://user:pass@proxy:3128), or add its host to NO_PROXY if it is reachable directly',
    }),
  },
  S3_TIMEOUT: {
    summary: 'The store did not answer within the timeout',
    explain: ({ ctx, failed }) => ({
      what: `${failed}: no answer from ${host(ctx)} within ${ctx.timeoutMs} ms`,
      cause: 'The store is overloaded, or a firewall silently drops the packets',
      remedy: 'Check the endpoint is reachable (curl it), or raise the timeout',
    }),
  },
  S3_TLS: {
    summary: 'The TLS handshake failed: untrusted certificate, wrong host name, or https to an http port',
    explain: ({ f, ctx, failed }) => ({
      what: `${failed}: TLS handshake with ${host(ctx)} failed (${f.code ?? 'handshake error'})`,
      cause:
        f.code === 'EPROTO'
          ? 'The endpoint speaks plain http on this port, but the S3 Endpoint says https'
          : 'The certificate is self-signed, expired, or issued for another host name',
      remedy:
        f.code === 'EPROTO'
          ? 'Use http:// in S3 Endpoint'
          : 'Use the host name on the certificate, or trust its CA (NODE_EXTRA_CA_CERTS=/path/ca.pem)',
    }),
  },
  S3_NO_CREDENTIALS: {
    summary: 'No access keys are set and none are found in the environment (CredentialsProviderError)',
    explain: () => ({
      what: 'No credentials for the object store',
      cause:
        'Access Key and Secret Key are empty, and the AWS SDK found no keys in the environment, ~/.aws or an instance role',
      remedy:
        'Enter an Access Key and Secret Key, or set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or AWS_PROFILE',
    }),
  },
  S3_ASSUME_ROLE_DENIED: {
    summary: 'The identity may not assume the configured role (not authorized to perform sts:AssumeRole)',
    explain: ({ f }) => {
      const m = ASSUME_ROLE.exec(f.message);
      const role = m?.[2] ?? '<role-arn>';
      return {
        what: `${m?.[1] ?? 'The identity'} is not authorized to perform sts:AssumeRole${m?.[2] ? ` on ${m[2]}` : ''}`,
        cause: 'The role’s trust policy does not name this identity, or its permissions lack sts:AssumeRole',
        remedy: `Assign the correct role, validate its trust policy and permissions, then try: aws sts assume-role --role-arn ${role} --role-session-name test-session`,
        extra: { ...(m?.[1] ? { principal: m[1] } : {}), ...(m?.[2] ? { role: m[2] } : {}) },
      };
    },
  },
  S3_CLOCK_SKEW: {
    summary: "The local clock differs too much from the store's (RequestTimeTooSkewed)",
    explain: ({ failed }) => ({
      what: `${failed}: the request time is too far from the store's clock`,
      cause: 'This machine’s clock is off by more than 15 minutes',
      remedy: 'Synchronise the clock (e.g. enable NTP) and retry',
    }),
  },
  S3_CHUNKED_UPLOAD_REJECTED: {
    summary: 'The store rejects aws-chunked uploads (MissingContentLength, 411)',
    explain: ({ failed }) => ({
      what: `${failed}: the store wants a Content-Length (411)`,
      cause: 'The store does not accept aws-chunked uploads with checksum trailers that newer AWS SDKs send',
      remedy: 'Choose S3-compatible storage for this endpoint (floe then only sends checksums when required)',
    }),
  },
  S3_NOT_S3: {
    summary: 'The endpoint answered with something that is not an S3 response (HTML, garbage)',
    explain: ({ f, ctx, failed }) => ({
      what: `${failed}: ${where(ctx)} did not answer like S3${f.status ? ` (HTTP ${f.status})` : ''}`,
      cause: 'The URL points at a web page, console or proxy instead of the S3 API',
      remedy: 'Set S3 Endpoint to the S3 API URL (for MinIO the API port, usually 9000)',
    }),
  },
  S3_RESPONSE_TOO_LARGE: {
    summary: 'The endpoint answered with an unexpectedly large body',
    explain: ({ failed }) => ({
      what: `${failed}: the answer was far larger than any S3 response to this request`,
      cause: 'The URL points at something other than the S3 API',
      remedy: 'Set S3 Endpoint to the S3 API URL',
    }),
  },
  S3_PROBE_MISMATCH: {
    summary: 'The probe object read back differs from what was written',
    explain: ({ ctx }) => ({
      what: `The probe object read back from ${target(ctx)} differs from what was written`,
      cause: 'A proxy or cache in front of the store altered or served a stale object',
      remedy: 'Point S3 Endpoint at the store itself, not at a caching proxy',
    }),
  },
  S3_PROBE_MISSING: {
    summary: 'The probe object just written cannot be read back (NoSuchKey)',
    explain: ({ failed }) => ({
      what: `${failed}: the probe written a moment ago is not there`,
      cause: 'The endpoint balances across stores that do not share data, or a lifecycle rule removed it',
      remedy: 'Point S3 Endpoint at a single consistent store',
    }),
  },
  S3_SERVER_ERROR: {
    summary: 'The store failed with a server error (5xx)',
    explain: ({ f, failed }) => ({
      what: `${failed}: the store failed (HTTP ${f.status ?? '5xx'}${f.code ? ` ${f.code}` : ''})`,
      cause: 'An error inside the store or a proxy in front of it',
      remedy: 'Retry; if it persists, check the store’s logs for the request id',
    }),
  },
  S3_REQUEST_FAILED: {
    summary: 'The store refused the request for another reason',
    explain: ({ f, failed }) => ({
      what: `${failed}${f.status ? ` (HTTP ${f.status})` : ''}: ${f.code ?? f.message}`,
      cause: 'The store refused the request',
      remedy: 'Check the error code against the store’s documentation',
    }),
  },
} satisfies Record<string, ExplainedRow<Said>>;

export type StorageDiagnosisCode = keyof typeof STORAGE_DIAGNOSIS_TABLE;

type Choice = CodeChoice<StorageDiagnosisCode, ErrorFacts, ProbeContext>;

const denied = (_f: ErrorFacts, ctx: ProbeContext): StorageDiagnosisCode =>
  isRead(ctx) ? 'S3_ACCESS_DENIED_READ' : 'S3_ACCESS_DENIED_WRITE';

/** The store's own error codes (S3's `Code`). */
const BY_ERROR_CODE: Record<string, Choice> = {
  NoSuchBucket: 'S3_NO_SUCH_BUCKET',
  InvalidBucketName: 'S3_INVALID_BUCKET_NAME',
  SignatureDoesNotMatch: 'S3_SIGNATURE_MISMATCH',
  InvalidAccessKeyId: 'S3_INVALID_ACCESS_KEY',
  ExpiredToken: 'S3_EXPIRED_TOKEN',
  TokenRefreshRequired: 'S3_EXPIRED_TOKEN',
  PermanentRedirect: 'S3_WRONG_REGION',
  AuthorizationHeaderMalformed: 'S3_WRONG_REGION',
  IllegalLocationConstraintException: 'S3_WRONG_REGION',
  RequestTimeTooSkewed: 'S3_CLOCK_SKEW',
  MissingContentLength: 'S3_CHUNKED_UPLOAD_REJECTED',
  AccessDenied: denied,
  AllAccessDisabled: denied,
  Forbidden: denied,
  NoSuchKey: (_f, ctx) => (ctx.step === 'storage.get' ? 'S3_PROBE_MISSING' : 'S3_REQUEST_FAILED'),
};

/** The first rule that holds names the code; none: S3_REQUEST_FAILED. */
export const STORAGE_RULES: readonly DiagnosisRule<StorageDiagnosisCode, ErrorFacts, ProbeContext>[] = [
  { when: (_f, ctx) => ctx.timedOut, code: 'S3_TIMEOUT' },
  { when: (f) => PROXY_REFUSED.test(f.message), code: 'S3_PROXY_CONNECT' },
  {
    when: (f) => f.name === 'CredentialsProviderError' || /Could not load credentials/i.test(f.message),
    code: 'S3_NO_CREDENTIALS',
  },
  { when: (f) => ASSUME_ROLE.test(f.message), code: 'S3_ASSUME_ROLE_DENIED' },
  {
    when: (f) => f.code === 'ENOTFOUND' || f.code === 'EAI_AGAIN',
    code: (f, ctx) =>
      !ctx.pathStyle && f.hostname?.startsWith(`${ctx.bucket}.`) ? 'S3_VIRTUAL_HOST_DNS' : 'S3_DNS',
  },
  { when: (f) => f.code === 'ECONNREFUSED', code: 'S3_CONNECTION_REFUSED' },
  { when: (f) => f.code === 'ETIMEDOUT', code: 'S3_TIMEOUT' },
  { when: (f) => f.code !== undefined && NETWORK_CODES.has(f.code), code: 'S3_CONNECTION_FAILED' },
  { when: (f) => f.code !== undefined && isTlsCode(f.code), code: 'S3_TLS' },
  {
    when: (f) =>
      f.name === 'FloeNotS3' ||
      /Deserialization error|XML parse error|char '<' is not expected/i.test(f.message),
    code: 'S3_NOT_S3',
  },
  { when: (f) => f.name === 'FloeTooLarge', code: 'S3_RESPONSE_TOO_LARGE' },
  { when: (f) => f.name === 'FloeProbeMismatch', code: 'S3_PROBE_MISMATCH' },
  {
    when: (f) => f.code !== undefined && Object.hasOwn(BY_ERROR_CODE, f.code),
    code: (f, ctx) => chooseCode(BY_ERROR_CODE[f.code as string] as Choice, f, ctx),
  },
  { when: (f, ctx) => f.status === 404 && operationOf(ctx) === 'HeadBucket', code: 'S3_NO_SUCH_BUCKET' },
  {
    when: (f) => f.status !== undefined && f.status >= 300 && f.status < 400,
    code: (f) => (f.bucketRegion ? 'S3_WRONG_REGION' : 'S3_REDIRECT'),
  },
  { when: (f) => f.status === 403, code: denied },
  { when: (f) => f.status === 411, code: 'S3_CHUNKED_UPLOAD_REJECTED' },
  { when: (f) => f.status !== undefined && f.status >= 500, code: 'S3_SERVER_ERROR' },
];
