// The facts a GCS diagnosis rests on: Google's error answers (GcsError, read by gcsError), the failures
// floe detects itself (GcsProbeError), what the probe was doing (GcsContext), and the phrases the
// diagnosis table builds from. Pure functions; no secret goes in.
import { GOOGLE_TOKEN_URI } from '../catalog/auth.js';
import type { StorageStepId } from './s3-facts.js';

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
export const DENIED =
  /^(\S+@\S+) does not have (\S+) access to the Google Cloud (Storage (?:object|bucket)|project)/;
export const PERMISSION = /Permission '([^']+)' denied/;
export const REQUESTER_PAYS = /requester pays bucket but no user project/i;
export const USER_PROJECT_INVALID = /user project specified in the request is invalid/i;
export const BILLING = /billing account|UserProjectAccountProblem/i;

/** The permission a step needs (what Google names when it refuses). */
export const NEEDED: Record<StorageStepId, string> = {
  'storage.head': 'storage.buckets.get',
  'storage.list': 'storage.objects.list',
  'storage.put': 'storage.objects.create',
  'storage.get': 'storage.objects.get',
  'storage.delete': 'storage.objects.delete',
};

export function host(url: string | undefined): string {
  try {
    return url ? new URL(url).host : 'storage.googleapis.com';
  } catch {
    return 'storage.googleapis.com';
  }
}

/** The token endpoint as a sentence starts naming it: Google's, or the one the key file's token_uri names. */
export function tokenEndpoint(ctx: GcsContext): { name: string; google: boolean; uri: string } {
  const uri = ctx.tokenUri ?? GOOGLE_TOKEN_URI;
  const google = uri === GOOGLE_TOKEN_URI;
  return {
    name: google ? `Google's token endpoint` : `The token endpoint ${uri} (the key file's token_uri)`,
    google,
    uri,
  };
}
