// The GCS check's diagnoses as data: each code's one line (docs/diagnoses.md) and how it explains a
// failure; and the rules, in order, that pick a code for what a step threw. gcs-diagnoses.ts is the small
// matcher over them. Google's error shapes: https://cloud.google.com/storage/docs/json_api/v1/status-codes,
// https://developers.google.com/identity/protocols/oauth2/service-account#error-codes.
import { GOOGLE_TOKEN_URI } from '../catalog/auth.js';
import { type FailureKind, NetworkFailure } from '../catalog/http.js';
import type { DiagnosisRule, ExplainedRow } from '../check/diagnoses.js';
import {
  BILLING,
  DENIED,
  type GcsContext,
  GcsError,
  GcsProbeError,
  NEEDED,
  PERMISSION,
  REQUESTER_PAYS,
  tokenEndpoint,
  USER_PROJECT_INVALID,
} from './gcs-facts.js';

/** What a row explains from: the error, the probe's context and the phrases every row uses. */
export interface GcsSaid {
  error: unknown;
  ctx: GcsContext;
  /** The JSON API call, e.g. objects.insert. */
  op: string;
  /** `gs://bucket/key` or `bucket "name"`. */
  target: string;
  /** `<op> on <target> failed`. */
  failed: string;
  /** The error's message ('' without one). */
  message: string;
  /** `the service account <email>`. */
  account: string;
  /** The host the failing request went to. */
  where: string;
}

/** Every GCS diagnosis code, in the order docs/diagnoses.md lists them. */
export const GCS_DIAGNOSIS_TABLE = {
  GCS_INVALID_PATH: {
    summary: 'The data location is not gs://bucket[/prefix]',
    explain: () => ({
      what: 'The data location cannot be parsed as a Cloud Storage location',
      cause: 'With Google Cloud Storage it must be gs://bucket or gs://bucket/prefix',
      remedy: 'Set Data Location (or the Warehouse) to e.g. gs://my-lake/olake',
    }),
  },
  GCS_KEY_INVALID: {
    summary:
      'The GCP Service Account JSON cannot be used (missing, not JSON, no client_email or private_key, a token_uri that is not http(s))',
    explain: ({ message }) => ({
      what: `The GCP Service Account JSON cannot be used: ${message || 'it is empty'}`,
      cause: 'Cloud Storage is reached with the service-account key, as OLake’s GCSFileIO does',
      remedy:
        'Download a JSON key for the service account (IAM → Service accounts → Keys) and pass it with --gcp-service-account-file',
    }),
  },
  GCS_INVALID_GRANT: {
    summary:
      "The token endpoint (the key file's token_uri, Google's by default) refuses the service account (invalid_grant: unknown account, deleted key, clock)",
    explain: ({ ctx, message, account }) => ({
      what: `${tokenEndpoint(ctx).name} refused ${account}: ${message}`,
      cause:
        'The service account or this key was deleted or disabled, the key file is for another account, or this machine’s clock is off',
      remedy: `Check the account exists and the key is active (gcloud iam service-accounts keys list --iam-account ${ctx.email ?? '<email>'}); create a new key if not; synchronise the clock`,
      extra: ctx.email ? { serviceAccount: ctx.email } : undefined,
    }),
  },
  GCS_TOKEN_FAILED: {
    summary:
      "The token endpoint (the key file's token_uri, Google's by default) answered without a usable access token",
    explain: ({ ctx, message, account }) => {
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
    },
  },
  GCS_UNAUTHENTICATED: {
    summary: 'Cloud Storage rejects the access token (401)',
    explain: ({ failed, message }) => ({
      what: `${failed}: Cloud Storage rejected the access token (${message})`,
      cause: 'The token was not issued for Cloud Storage or has been revoked',
      remedy: 'Retry; if it persists, create a new key for the service account',
    }),
  },
  GCS_NO_SUCH_BUCKET: {
    summary: 'The bucket does not exist (404 notFound)',
    explain: ({ ctx }) => ({
      what: `Bucket "${ctx.bucket}" does not exist in Cloud Storage`,
      cause:
        'The bucket name in the data location is misspelt, or the bucket was never created or was deleted',
      remedy: `Create it (gcloud storage buckets create gs://${ctx.bucket}) or correct the Data Location / Warehouse`,
    }),
  },
  GCS_PERMISSION_DENIED: {
    summary: 'The service account lacks the IAM permission Google names (403, e.g. storage.objects.create)',
    explain: ({ ctx, failed, message }) => {
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
    },
  },
  GCS_USER_PROJECT_MISSING: {
    summary:
      'The bucket is requester pays and no billing project is set (400, requester pays bucket but no user project)',
    explain: ({ ctx, failed }) => ({
      what: `${failed}: bucket "${ctx.bucket}" is requester pays and no billing project was sent`,
      cause:
        'A requester-pays bucket bills each request to the project named in userProject; the profile has no GCP Project ID',
      remedy:
        'Set GCP Project ID (--gcp-project-id) to a project with billing that the service account may use',
    }),
  },
  GCS_USER_PROJECT_INVALID: {
    summary: 'Cloud Storage does not accept the GCP Project ID as the billing project (400)',
    explain: ({ ctx, failed }) => ({
      what: `${failed}: Cloud Storage does not accept "${ctx.userProject ?? ''}" as the billing project`,
      cause: 'The GCP Project ID is misspelt or names a project that does not exist',
      remedy: 'Set GCP Project ID to the id (not the name or number) of an existing project with billing',
      extra: ctx.userProject ? { userProject: ctx.userProject } : undefined,
    }),
  },
  GCS_BILLING_ACCOUNT: {
    summary: "The billing project's billing account is closed or absent (403 UserProjectAccountProblem)",
    explain: ({ ctx, failed }) => ({
      what: `${failed}: the billing project${ctx.userProject ? ` ${ctx.userProject}` : ''} has no billing account in good standing`,
      cause:
        'The project billed for the request (GCP Project ID, or the bucket’s own project) has a closed, disabled or absent billing account',
      remedy:
        'Link an open billing account to the project (gcloud billing projects link), or set GCP Project ID to another project',
      extra: ctx.userProject ? { userProject: ctx.userProject } : undefined,
    }),
  },
  GCS_DNS: {
    summary: 'The Cloud Storage or token host name does not resolve (ENOTFOUND)',
    explain: ({ failed, where }) => ({
      what: `${failed}: the host ${where} does not resolve`,
      cause:
        'No DNS on this machine, a typo in STORAGE_EMULATOR_HOST or the key file’s token_uri, or a private DNS zone',
      remedy: `Check the name resolves (getent hosts ${where}); behind a proxy set HTTPS_PROXY`,
    }),
  },
  GCS_CONNECTION_REFUSED: {
    summary: 'Nothing listens on the Cloud Storage or token host and port (ECONNREFUSED)',
    explain: ({ failed, where }) => ({
      what: `${failed}: connection refused by ${where}`,
      cause: 'Nothing listens there: an emulator that is not running, a wrong port, or a firewall rejecting',
      remedy: 'Start the emulator or correct STORAGE_EMULATOR_HOST; unset it to reach Google',
    }),
  },
  GCS_CONNECTION_FAILED: {
    summary: 'The connection to Cloud Storage broke (reset, unreachable network)',
    explain: ({ error, failed, where }) => ({
      what: `${failed}: the connection to ${where} broke (${error instanceof NetworkFailure ? error.code : 'network error'})`,
      cause: 'A network or firewall problem between this machine and Google',
      remedy: `Check ${where} is reachable (curl -I https://${where})`,
    }),
  },
  GCS_PROXY: {
    summary: 'The proxy (HTTPS_PROXY / HTTP_PROXY) could not be reached or refused the tunnel',
    explain: ({ ctx, failed, where }) => ({
      what: `${failed}: the proxy${ctx.proxy ? ` ${ctx.proxy}` : ''} did not open a tunnel to ${where}`,
      cause: 'The proxy is down, refuses this host, or needs credentials',
      remedy: 'Check HTTPS_PROXY, or add the host to NO_PROXY',
    }),
  },
  GCS_TIMEOUT: {
    summary: 'Cloud Storage or the token endpoint did not answer within the timeout',
    explain: ({ ctx, failed, where }) => ({
      what: `${failed}: no answer from ${where} within ${ctx.timeoutMs} ms`,
      cause: 'The host is unreachable (a firewall dropping packets) or very slow',
      remedy: 'Check the host is reachable (curl it), or raise the timeout',
    }),
  },
  GCS_TLS: {
    summary: 'The TLS handshake failed: untrusted certificate, wrong host name, or https to an http port',
    explain: ({ error, failed, where }) => ({
      what: `${failed}: TLS handshake with ${where} failed (${error instanceof NetworkFailure ? error.code : 'handshake error'})`,
      cause: 'A TLS-inspecting proxy with its own CA, or https:// to a plain-http emulator',
      remedy:
        'Trust the proxy’s CA (NODE_EXTRA_CA_CERTS=/path/ca.pem), or use http:// in STORAGE_EMULATOR_HOST',
    }),
  },
  GCS_NOT_GCS: {
    summary: 'The answer is not a Cloud Storage JSON API answer (HTML, garbage)',
    explain: ({ failed, where }) => ({
      what: `${failed}: ${where} did not answer like the Cloud Storage JSON API`,
      cause: 'STORAGE_EMULATOR_HOST or a proxy points at a web page or another service',
      remedy: 'Unset STORAGE_EMULATOR_HOST to reach Google, or point it at a GCS emulator',
    }),
  },
  GCS_PROBE_MISMATCH: {
    summary: 'The probe object read back differs from what was written',
    explain: ({ target }) => ({
      what: `The probe object read back from ${target} differs from what was written`,
      cause: 'A proxy or cache in front of Cloud Storage altered or served a stale object',
      remedy: 'Reach Cloud Storage directly, not through a caching proxy',
    }),
  },
  GCS_PROBE_MISSING: {
    summary: 'The probe object just written cannot be read back (404)',
    explain: ({ failed }) => ({
      what: `${failed}: the probe written a moment ago is not there`,
      cause: 'A lifecycle rule or another process removed it',
      remedy: 'Check the bucket’s lifecycle rules and retention settings',
    }),
  },
  GCS_SERVER_ERROR: {
    summary: 'Cloud Storage failed with a server error (5xx)',
    explain: ({ error, failed }) => ({
      what: `${failed}: Cloud Storage failed (HTTP ${error instanceof GcsError ? error.status : '5xx'})`,
      cause: 'An error inside Cloud Storage or a proxy in front of it',
      remedy: 'Retry; if it persists, check https://status.cloud.google.com',
    }),
  },
  GCS_REQUEST_FAILED: {
    summary: 'Cloud Storage refused the request for another reason',
    explain: ({ error, failed, message }) => ({
      what: `${failed}${error instanceof GcsError ? ` (HTTP ${error.status})` : ''}: ${message || 'refused'}`,
      cause: 'Cloud Storage refused the request',
      remedy: 'Check the message against https://cloud.google.com/storage/docs/json_api/v1/status-codes',
    }),
  },
} satisfies Record<string, ExplainedRow<GcsSaid>>;

export type GcsDiagnosisCode = keyof typeof GCS_DIAGNOSIS_TABLE;

/** A failure with no answer, by its kind; any other kind: a broken connection (or a proxy's refusal). */
const BY_NETWORK_KIND: Partial<Record<FailureKind, GcsDiagnosisCode>> = {
  dns: 'GCS_DNS',
  refused: 'GCS_CONNECTION_REFUSED',
  timeout: 'GCS_TIMEOUT',
  cancelled: 'GCS_TIMEOUT',
  tls: 'GCS_TLS',
  'tls-hostname': 'GCS_TLS',
  'tls-untrusted': 'GCS_TLS',
  'proxy-connect': 'GCS_PROXY',
  'proxy-unreachable': 'GCS_PROXY',
};

const BY_PROBE_KIND: Record<GcsProbeError['kind'], GcsDiagnosisCode> = {
  mismatch: 'GCS_PROBE_MISMATCH',
  key: 'GCS_KEY_INVALID',
  'not-gcs': 'GCS_NOT_GCS',
};

/** A rule over Google's own answers (GcsError). */
const google =
  (test: (error: GcsError, ctx: GcsContext) => boolean) =>
  (error: unknown, ctx: GcsContext): boolean =>
    error instanceof GcsError && test(error, ctx);

const reason = (error: GcsError) => error.reason?.toLowerCase();

/** The first rule that holds names the code; none: GCS_REQUEST_FAILED. */
export const GCS_RULES: readonly DiagnosisRule<GcsDiagnosisCode, unknown, GcsContext>[] = [
  { when: (_e, ctx) => ctx.timedOut, code: 'GCS_TIMEOUT' },
  { when: (e) => e instanceof GcsProbeError, code: (e) => BY_PROBE_KIND[(e as GcsProbeError).kind] },
  {
    when: (e) => e instanceof NetworkFailure,
    code: (e) => {
      const failure = e as NetworkFailure;
      return (
        BY_NETWORK_KIND[failure.kind] ??
        (/Proxy response \(\d+\) !== 200/.test(failure.message) ? 'GCS_PROXY' : 'GCS_CONNECTION_FAILED')
      );
    },
  },
  {
    when: google((e) => e.from === 'token'),
    code: (e) => (reason(e as GcsError) === 'invalid_grant' ? 'GCS_INVALID_GRANT' : 'GCS_TOKEN_FAILED'),
  },
  {
    when: google((e) => reason(e) === 'userprojectmissing' || REQUESTER_PAYS.test(e.message)),
    code: 'GCS_USER_PROJECT_MISSING',
  },
  {
    when: google(
      (e) => reason(e) === 'userprojectaccountproblem' || (e.status === 403 && BILLING.test(e.message)),
    ),
    code: 'GCS_BILLING_ACCOUNT',
  },
  {
    when: google((e) => reason(e) === 'userprojectinvalid' || USER_PROJECT_INVALID.test(e.message)),
    code: 'GCS_USER_PROJECT_INVALID',
  },
  { when: google((e) => e.status === 401), code: 'GCS_UNAUTHENTICATED' },
  { when: google((e) => e.status === 403), code: 'GCS_PERMISSION_DENIED' },
  {
    when: google((e) => e.status === 404),
    code: (_e, ctx) => (ctx.step === 'storage.get' ? 'GCS_PROBE_MISSING' : 'GCS_NO_SUCH_BUCKET'),
  },
  { when: google((e) => e.status >= 500), code: 'GCS_SERVER_ERROR' },
];
