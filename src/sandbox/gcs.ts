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
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  apiError,
  type GcsEmulatorOptions,
  type GcsPermission,
  type GcsRequestLog,
  type GcsState,
  handle,
} from './gcs-api.js';
import { logFailure, logRequests } from './log.js';

export type { GcsBucketSpec, GcsEmulatorOptions, GcsPermission, GcsRequestLog } from './gcs-api.js';

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

export async function startGcsEmulator(options: GcsEmulatorOptions): Promise<GcsEmulator> {
  const now = options.now ?? Date.now;
  const state: GcsState = {
    options,
    now,
    ttl: options.ttl ?? 3600,
    buckets: new Map(options.buckets.map((b) => [b.name, { ...b, objects: new Map() }])),
    tokens: new Map(),
    denied: new Set(),
    stalled: null,
    tokenUrl: '',
  };
  const { buckets, tokens, denied } = state;
  const requests: GcsRequestLog[] = [];

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
    handle(state, req, res, log).catch((error: unknown) => {
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
  state.tokenUrl = `${url}/token`;
  return {
    url,
    port,
    tokenUrl: state.tokenUrl,
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
      state.stalled = permission;
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
