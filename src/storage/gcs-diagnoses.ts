// What a failed step of the Google Cloud Storage check means: the JSON API's error shape
// ({"error":{"code","message","errors":[{"reason","message","domain"}]}}, documented at
// https://cloud.google.com/storage/docs/json_api/v1/status-codes), the token endpoint's OAuth2 errors
// (https://developers.google.com/identity/protocols/oauth2/service-account#error-codes) and failures
// with no answer, turned into a diagnosis with evidence. Pure functions; no secret goes in.
import { GOOGLE_TOKEN_URI } from '../catalog/auth.js';
import { NetworkFailure } from '../catalog/http.js';
import type { Diagnosis } from '../check/types.js';
import type { StorageStepId } from './diagnoses.js';

/** Every GCS diagnosis code, one line each (the source of docs/diagnoses.md). */
export const GCS_DIAGNOSES = {
  GCS_INVALID_PATH: 'The data location is not gs://bucket[/prefix]',
  GCS_KEY_INVALID:
    'The GCP Service Account JSON cannot be used (missing, not JSON, no client_email or private_key, a token_uri that is not http(s))',
  GCS_INVALID_GRANT:
    "The token endpoint (the key file's token_uri, Google's by default) refuses the service account (invalid_grant: unknown account, deleted key, clock)",
  GCS_TOKEN_FAILED:
    "The token endpoint (the key file's token_uri, Google's by default) answered without a usable access token",
  GCS_UNAUTHENTICATED: 'Cloud Storage rejects the access token (401)',
  GCS_NO_SUCH_BUCKET: 'The bucket does not exist (404 notFound)',
  GCS_PERMISSION_DENIED:
    'The service account lacks the IAM permission Google names (403, e.g. storage.objects.create)',
  GCS_USER_PROJECT_MISSING:
    'The bucket is requester pays and no billing project is set (400, requester pays bucket but no user project)',
  GCS_USER_PROJECT_INVALID: 'Cloud Storage does not accept the GCP Project ID as the billing project (400)',
  GCS_BILLING_ACCOUNT:
    "The billing project's billing account is closed or absent (403 UserProjectAccountProblem)",
  GCS_DNS: 'The Cloud Storage or token host name does not resolve (ENOTFOUND)',
  GCS_CONNECTION_REFUSED: 'Nothing listens on the Cloud Storage or token host and port (ECONNREFUSED)',
  GCS_CONNECTION_FAILED: 'The connection to Cloud Storage broke (reset, unreachable network)',
  GCS_PROXY: 'The proxy (HTTPS_PROXY / HTTP_PROXY) could not be reached or refused the tunnel',
  GCS_TIMEOUT: 'Cloud Storage or the token endpoint did not answer within the timeout',
  GCS_TLS: 'The TLS handshake failed: untrusted certificate, wrong host name, or https to an http port',
  GCS_NOT_GCS: 'The answer is not a Cloud Storage JSON API answer (HTML, garbage)',
  GCS_PROBE_MISMATCH: 'The probe object read back differs from what was written',
  GCS_PROBE_MISSING: 'The probe object just written cannot be read back (404)',
  GCS_SERVER_ERROR: 'Cloud Storage failed with a server error (5xx)',
  GCS_REQUEST_FAILED: 'Cloud Storage refused the request for another reason',
} as const satisfies Record<string, string>;

export type GcsDiagnosisCode = keyof typeof GCS_DIAGNOSES;

/** The JSON API call behind each step, as the screen names it. */
export const GCS_STEPS: Record<StorageStepId, { operation: string; title: string }> = {
  'storage.head': { operation: 'buckets.get', title: 'Bucket exists (GCS buckets.get)' },
  'storage.list': { operation: 'objects.list', title: 'List objects under the path (GCS objects.list)' },
  'storage.put': { operation: 'objects.insert', title: 'Write a probe object (GCS objects.insert)' },
  'storage.get': { operation: 'objects.get', title: 'Read the probe back (GCS objects.get)' },
  'storage.delete': { operation: 'objects.delete', title: 'Delete the probe (GCS objects.delete)' },
};

export const GCS_TITLES = Object.fromEntries(
  Object.entries(GCS_STEPS).map(([id, step]) => [id, step.title]),
) as Record<StorageStepId, string>;

/** An answer of Google's that is not a success: the token endpoint's or the JSON API's. */
export class GcsError extends Error {
  constructor(
    readonly status: number,
    /** The JSON API's `errors[0].reason`, or the token endpoint's `error`. */
    readonly reason: string | undefined,
    message: string,
    /** Which side answered. */
    readonly from: 'token' | 'storage',
  ) {
    super(message);
  }
}

/** A failure floe detects itself (a body that is not the API's, a probe read back different). */
export class GcsProbeError extends Error {
  constructor(
    readonly kind: 'not-gcs' | 'mismatch' | 'key',
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Reads Google's error body: JSON API `{"error":{…}}` or OAuth2 `{"error":"…","error_description":"…"}`. */
export function gcsError(status: number, body: string, from: 'token' | 'storage'): GcsError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return new GcsError(status, undefined, body.slice(0, 200).trim() || `HTTP ${status}`, from);
  }
  const error = (parsed as { error?: unknown; error_description?: unknown }).error;
  if (typeof error === 'string') {
    const description = (parsed as { error_description?: unknown }).error_description;
    return new GcsError(status, error, typeof description === 'string' ? description : error, from);
  }
  const e = (typeof error === 'object' && error !== null ? error : {}) as {
    message?: unknown;
    errors?: { reason?: unknown; message?: unknown }[];
  };
  const first = Array.isArray(e.errors) ? e.errors[0] : undefined;
  const message =
    typeof e.message === 'string'
      ? e.message
      : typeof first?.message === 'string'
        ? first.message
        : `HTTP ${status}`;
  return new GcsError(status, typeof first?.reason === 'string' ? first.reason : undefined, message, from);
}

/** What the probe was doing when a step failed. Nothing in here is a secret. */
export interface GcsContext {
  step: StorageStepId;
  bucket: string;
  key?: string;
  /** The service account's client_email (not a secret: Google names it in every 403). */
  email?: string;
  /** The GCP Project ID sent as `userProject`, if any. */
  userProject?: string;
  /** The JSON API's base, e.g. https://storage.googleapis.com (or STORAGE_EMULATOR_HOST). */
  base: string;
  tokenUri?: string;
  /** The failing request's URL, secrets removed. */
  url?: string;
  proxy?: string;
  timeoutMs: number;
  timedOut: boolean;
  extra?: Record<string, string>;
}

/** `<email> does not have <permission> access to …`, as Google words a 403. */
const DENIED =
  /^(\S+@\S+) does not have (\S+) access to the Google Cloud (Storage (?:object|bucket)|project)/;
const PERMISSION = /Permission '([^']+)' denied/;
const REQUESTER_PAYS = /requester pays bucket but no user project/i;
const USER_PROJECT_INVALID = /user project specified in the request is invalid/i;
const BILLING = /billing account|UserProjectAccountProblem/i;

export function classifyGcs(error: unknown, ctx: GcsContext): GcsDiagnosisCode {
  if (ctx.timedOut) return 'GCS_TIMEOUT';
  if (error instanceof GcsProbeError)
    return error.kind === 'mismatch'
      ? 'GCS_PROBE_MISMATCH'
      : error.kind === 'key'
        ? 'GCS_KEY_INVALID'
        : 'GCS_NOT_GCS';
  if (error instanceof NetworkFailure) {
    switch (error.kind) {
      case 'dns':
        return 'GCS_DNS';
      case 'refused':
        return 'GCS_CONNECTION_REFUSED';
      case 'timeout':
      case 'cancelled':
        return 'GCS_TIMEOUT';
      case 'tls':
      case 'tls-hostname':
      case 'tls-untrusted':
        return 'GCS_TLS';
      case 'proxy-connect':
      case 'proxy-unreachable':
        return 'GCS_PROXY';
      default:
        return /Proxy response \(\d+\) !== 200/.test(error.message) ? 'GCS_PROXY' : 'GCS_CONNECTION_FAILED';
    }
  }
  if (!(error instanceof GcsError)) return 'GCS_REQUEST_FAILED';
  const reason = error.reason?.toLowerCase();
  if (error.from === 'token') return reason === 'invalid_grant' ? 'GCS_INVALID_GRANT' : 'GCS_TOKEN_FAILED';
  if (reason === 'userprojectmissing' || REQUESTER_PAYS.test(error.message))
    return 'GCS_USER_PROJECT_MISSING';
  if (reason === 'userprojectaccountproblem' || (error.status === 403 && BILLING.test(error.message)))
    return 'GCS_BILLING_ACCOUNT';
  if (reason === 'userprojectinvalid' || USER_PROJECT_INVALID.test(error.message))
    return 'GCS_USER_PROJECT_INVALID';
  if (error.status === 401) return 'GCS_UNAUTHENTICATED';
  if (error.status === 403) return 'GCS_PERMISSION_DENIED';
  if (error.status === 404) return ctx.step === 'storage.get' ? 'GCS_PROBE_MISSING' : 'GCS_NO_SUCH_BUCKET';
  if (error.status >= 500) return 'GCS_SERVER_ERROR';
  return 'GCS_REQUEST_FAILED';
}

interface Text {
  what: string;
  cause: string;
  remedy: string;
  extra?: Record<string, string>;
}

/** The permission a step needs (what Google names when it refuses). */
const NEEDED: Record<StorageStepId, string> = {
  'storage.head': 'storage.buckets.get',
  'storage.list': 'storage.objects.list',
  'storage.put': 'storage.objects.create',
  'storage.get': 'storage.objects.get',
  'storage.delete': 'storage.objects.delete',
};

function host(url: string | undefined): string {
  try {
    return url ? new URL(url).host : 'storage.googleapis.com';
  } catch {
    return 'storage.googleapis.com';
  }
}

/** The token endpoint as a sentence starts naming it: Google's, or the one the key file's token_uri names. */
function tokenEndpoint(ctx: GcsContext): { name: string; google: boolean; uri: string } {
  const uri = ctx.tokenUri ?? GOOGLE_TOKEN_URI;
  const google = uri === GOOGLE_TOKEN_URI;
  return {
    name: google ? `Google's token endpoint` : `The token endpoint ${uri} (the key file's token_uri)`,
    google,
    uri,
  };
}

function text(code: GcsDiagnosisCode, error: unknown, ctx: GcsContext): Text {
  const op = GCS_STEPS[ctx.step].operation;
  const target = ctx.key ? `gs://${ctx.bucket}/${ctx.key}` : `bucket "${ctx.bucket}"`;
  const failed = `${op} on ${target} failed`;
  const message = error instanceof Error ? error.message : String(error ?? '');
  const account = ctx.email ? `the service account ${ctx.email}` : 'the service account';
  const where = ctx.url ? host(ctx.url) : host(ctx.base);
  switch (code) {
    case 'GCS_INVALID_PATH':
      return {
        what: 'The data location cannot be parsed as a Cloud Storage location',
        cause: 'With Google Cloud Storage it must be gs://bucket or gs://bucket/prefix',
        remedy: 'Set Data Location (or the Warehouse) to e.g. gs://my-lake/olake',
      };
    case 'GCS_KEY_INVALID':
      return {
        what: `The GCP Service Account JSON cannot be used: ${message || 'it is empty'}`,
        cause: 'Cloud Storage is reached with the service-account key, as OLake’s GCSFileIO does',
        remedy:
          'Download a JSON key for the service account (IAM → Service accounts → Keys) and pass it with --gcp-service-account-file',
      };
    case 'GCS_INVALID_GRANT':
      return {
        what: `${tokenEndpoint(ctx).name} refused ${account}: ${message}`,
        cause:
          'The service account or this key was deleted or disabled, the key file is for another account, or this machine’s clock is off',
        remedy: `Check the account exists and the key is active (gcloud iam service-accounts keys list --iam-account ${ctx.email ?? '<email>'}); create a new key if not; synchronise the clock`,
        extra: ctx.email ? { serviceAccount: ctx.email } : undefined,
      };
    case 'GCS_TOKEN_FAILED': {
      const endpoint = tokenEndpoint(ctx);
      return {
        what: `${endpoint.name} gave no usable access token for ${account}: ${message}`,
        cause: endpoint.google
          ? 'Google’s token endpoint, or a proxy answering in its place, did not issue a token floe can send'
          : `The key file’s token_uri names ${endpoint.uri}, not Google’s token endpoint (${GOOGLE_TOKEN_URI}), and it did not issue a token floe can send`,
        remedy: endpoint.google
          ? 'Retry; if it persists, reach Google directly (check HTTPS_PROXY) or create a new key for the service account'
          : `Use the key file as Google issued it (token_uri ${GOOGLE_TOKEN_URI}), or fix the service at ${endpoint.uri}`,
      };
    }
    case 'GCS_UNAUTHENTICATED':
      return {
        what: `${failed}: Cloud Storage rejected the access token (${message})`,
        cause: 'The token was not issued for Cloud Storage or has been revoked',
        remedy: 'Retry; if it persists, create a new key for the service account',
      };
    case 'GCS_NO_SUCH_BUCKET':
      return {
        what: `Bucket "${ctx.bucket}" does not exist in Cloud Storage`,
        cause:
          'The bucket name in the data location is misspelt, or the bucket was never created or was deleted',
        remedy: `Create it (gcloud storage buckets create gs://${ctx.bucket}) or correct the Data Location / Warehouse`,
      };
    case 'GCS_PERMISSION_DENIED': {
      const denied = DENIED.exec(message);
      const permission = PERMISSION.exec(message)?.[1] ?? denied?.[2] ?? NEEDED[ctx.step];
      const email = denied?.[1] ?? ctx.email;
      const who = email ?? 'the service account';
      const onProject = permission.startsWith('serviceusage.');
      return {
        what: `${failed}: ${who} does not have ${permission}`,
        cause: onProject
          ? `The billing project ${ctx.userProject ?? ''} (GCP Project ID) does not let ${who} use its services`.replace(
              '  ',
              ' ',
            )
          : `No role granted to ${who} on the bucket or its project includes ${permission}; OLake needs storage.objects.create, get, list and delete`,
        remedy: onProject
          ? `Grant roles/serviceusage.serviceUsageConsumer on project ${ctx.userProject ?? '<project>'} to ${who}, or set GCP Project ID to a project it may bill`
          : `Grant a role with ${permission} (roles/storage.objectAdmin covers every object permission): gcloud storage buckets add-iam-policy-binding gs://${ctx.bucket} --member=serviceAccount:${email ?? '<email>'} --role=roles/storage.objectAdmin`,
        extra: { permission, ...(email ? { serviceAccount: email } : {}) },
      };
    }
    case 'GCS_USER_PROJECT_MISSING':
      return {
        what: `${failed}: bucket "${ctx.bucket}" is requester pays and no billing project was sent`,
        cause:
          'A requester-pays bucket bills each request to the project named in userProject; the profile has no GCP Project ID',
        remedy:
          'Set GCP Project ID (--gcp-project-id) to a project with billing that the service account may use',
      };
    case 'GCS_USER_PROJECT_INVALID':
      return {
        what: `${failed}: Cloud Storage does not accept "${ctx.userProject ?? ''}" as the billing project`,
        cause: 'The GCP Project ID is misspelt or names a project that does not exist',
        remedy: 'Set GCP Project ID to the id (not the name or number) of an existing project with billing',
        extra: ctx.userProject ? { userProject: ctx.userProject } : undefined,
      };
    case 'GCS_BILLING_ACCOUNT':
      return {
        what: `${failed}: the billing project${ctx.userProject ? ` ${ctx.userProject}` : ''} has no billing account in good standing`,
        cause:
          'The project billed for the request (GCP Project ID, or the bucket’s own project) has a closed, disabled or absent billing account',
        remedy:
          'Link an open billing account to the project (gcloud billing projects link), or set GCP Project ID to another project',
        extra: ctx.userProject ? { userProject: ctx.userProject } : undefined,
      };
    case 'GCS_DNS':
      return {
        what: `${failed}: the host ${where} does not resolve`,
        cause:
          'No DNS on this machine, a typo in STORAGE_EMULATOR_HOST or the key file’s token_uri, or a private DNS zone',
        remedy: `Check the name resolves (getent hosts ${where}); behind a proxy set HTTPS_PROXY`,
      };
    case 'GCS_CONNECTION_REFUSED':
      return {
        what: `${failed}: connection refused by ${where}`,
        cause:
          'Nothing listens there: an emulator that is not running, a wrong port, or a firewall rejecting',
        remedy: 'Start the emulator or correct STORAGE_EMULATOR_HOST; unset it to reach Google',
      };
    case 'GCS_CONNECTION_FAILED':
      return {
        what: `${failed}: the connection to ${where} broke (${error instanceof NetworkFailure ? error.code : 'network error'})`,
        cause: 'A network or firewall problem between this machine and Google',
        remedy: `Check ${where} is reachable (curl -I https://${where})`,
      };
    case 'GCS_PROXY':
      return {
        what: `${failed}: the proxy${ctx.proxy ? ` ${ctx.proxy}` : ''} did not open a tunnel to ${where}`,
        cause: 'The proxy is down, refuses this host, or needs credentials',
        remedy: 'Check HTTPS_PROXY, or add the host to NO_PROXY',
      };
    case 'GCS_TIMEOUT':
      return {
        what: `${failed}: no answer from ${where} within ${ctx.timeoutMs} ms`,
        cause: 'The host is unreachable (a firewall dropping packets) or very slow',
        remedy: 'Check the host is reachable (curl it), or raise the timeout',
      };
    case 'GCS_TLS':
      return {
        what: `${failed}: TLS handshake with ${where} failed (${error instanceof NetworkFailure ? error.code : 'handshake error'})`,
        cause: 'A TLS-inspecting proxy with its own CA, or https:// to a plain-http emulator',
        remedy:
          'Trust the proxy’s CA (NODE_EXTRA_CA_CERTS=/path/ca.pem), or use http:// in STORAGE_EMULATOR_HOST',
      };
    case 'GCS_NOT_GCS':
      return {
        what: `${failed}: ${where} did not answer like the Cloud Storage JSON API`,
        cause: 'STORAGE_EMULATOR_HOST or a proxy points at a web page or another service',
        remedy: 'Unset STORAGE_EMULATOR_HOST to reach Google, or point it at a GCS emulator',
      };
    case 'GCS_PROBE_MISMATCH':
      return {
        what: `The probe object read back from ${target} differs from what was written`,
        cause: 'A proxy or cache in front of Cloud Storage altered or served a stale object',
        remedy: 'Reach Cloud Storage directly, not through a caching proxy',
      };
    case 'GCS_PROBE_MISSING':
      return {
        what: `${failed}: the probe written a moment ago is not there`,
        cause: 'A lifecycle rule or another process removed it',
        remedy: 'Check the bucket’s lifecycle rules and retention settings',
      };
    case 'GCS_SERVER_ERROR':
      return {
        what: `${failed}: Cloud Storage failed (HTTP ${error instanceof GcsError ? error.status : '5xx'})`,
        cause: 'An error inside Cloud Storage or a proxy in front of it',
        remedy: 'Retry; if it persists, check https://status.cloud.google.com',
      };
    case 'GCS_REQUEST_FAILED':
      return {
        what: `${failed}${error instanceof GcsError ? ` (HTTP ${error.status})` : ''}: ${message || 'refused'}`,
        cause: 'Cloud Storage refused the request',
        remedy: 'Check the message against https://cloud.google.com/storage/docs/json_api/v1/status-codes',
      };
  }
}

/** The diagnosis for a failure with no error object (bad input). */
export function gcsDiagnosis(code: GcsDiagnosisCode, ctx: GcsContext, message = ''): Diagnosis {
  return build(code, message ? new Error(message) : undefined, ctx);
}

/** Turns anything a GCS step threw into a diagnosis. */
export function diagnoseGcsError(error: unknown, ctx: GcsContext): Diagnosis {
  return build(classifyGcs(error, ctx), error, ctx);
}

function build(code: GcsDiagnosisCode, error: unknown, ctx: GcsContext): Diagnosis {
  const t = text(code, error, ctx);
  const extra: Record<string, string> = {
    ...ctx.extra,
    ...t.extra,
    ...(error instanceof GcsError ? { message: error.message } : {}),
    ...(ctx.proxy ? { proxy: ctx.proxy } : {}),
  };
  const status =
    error instanceof GcsError ? error.status : error instanceof GcsProbeError ? error.status : undefined;
  const errorCode =
    error instanceof GcsError ? error.reason : error instanceof NetworkFailure ? error.code : undefined;
  return {
    code,
    step: ctx.step,
    what: t.what,
    cause: t.cause,
    remedy: t.remedy,
    evidence: {
      ...(status !== undefined ? { status } : {}),
      ...(errorCode ? { errorCode } : {}),
      ...(ctx.url ? { url: ctx.url } : {}),
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    },
  };
}
