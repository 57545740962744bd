// A service account's session with Google Cloud Storage, the storage check's (gcs-check.ts) and the write
// check's: the service-account key (OLake's GCSFileIO credential) signs a JWT-bearer grant for an OAuth2
// access token, then requests to the Cloud Storage JSON API. Plain undici through floe's HTTP client: a timeout per request, cancellable, one redacted trace entry per
// exchange. Endpoints: https://cloud.google.com/storage/docs/json_api/v1 (buckets/get, objects/list,
// objects/insert with uploadType=media, objects/get with alt=media, objects/delete); userProject for
// requester pays: https://cloud.google.com/storage/docs/requester-pays.
import { GoogleKeyError, googleAssertion } from '../catalog/auth.js';
import { headerProblem } from '../catalog/classify.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../catalog/http.js';
import { cleartextWarning } from '../catalog/transport.js';
import { type SecretScrubber, safeUrl } from '../check/scrub.js';
import type { Values } from '../destination/fields.js';
import { proxyFor, proxyLabel } from '../net/proxy.js';
import type { StorageStepId } from './diagnoses.js';
import { type GcsContext, GcsError, GcsProbeError, gcsError } from './gcs-diagnoses.js';

/** What GCSFileIO asks for (and all a read/write probe needs). */
export const GCS_SCOPE = 'https://www.googleapis.com/auth/devstorage.read_write';
export const GCS_API = 'https://storage.googleapis.com';
/** As Google's client libraries read it: the JSON API's base, e.g. http://127.0.0.1:4443. */
export const STORAGE_EMULATOR_ENV = 'STORAGE_EMULATOR_HOST';

/** The JSON API's base: STORAGE_EMULATOR_HOST (http:// when it names no scheme, as the Go client does), else Google's. */
export function gcsBase(env: NodeJS.ProcessEnv): string {
  const raw = env[STORAGE_EMULATOR_ENV]?.trim();
  if (!raw) return GCS_API;
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  return withScheme.replace(/\/+$/, '').replace(/\/storage\/v1$/, '');
}

export interface GsLocation {
  bucket: string;
  /** `''` or a prefix ending in `/`. */
  prefix: string;
}

export function parseGsPath(value: string): GsLocation | null {
  const match = /^gs:\/\/([^/\s]+)(?:\/(\S*))?$/.exec(value.trim());
  if (!match?.[1]) return null;
  const rest = (match[2] ?? '').replace(/\/{2,}/g, '/').replace(/^\/+|\/+$/g, '');
  return { bucket: match[1], prefix: rest ? `${rest}/` : '' };
}

function field(values: Values, id: 'gcpServiceAccountJson' | 'gcpProjectId'): string {
  const value = values.fields[id];
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * A service account's session with the Cloud Storage JSON API, the storage check's and the write
 * check's: the key read (GcsProbeError `key` when it cannot be used), one access token, then requests
 * whose error answers throw GcsError (HTML or non-JSON: GcsProbeError `not-gcs`). Every exchange goes
 * through the caller's HttpClient (its timeout, its signal, its trace).
 */
export class GcsSession {
  readonly base: string;
  readonly userProject: string;
  email: string | undefined;
  tokenUri: string | undefined;
  /** The latest request's URL, for evidence. */
  lastUrl: string | undefined;
  private assertion = '';
  private token = '';
  private readonly json: string;

  constructor(
    values: Values,
    private readonly client: HttpClient,
    private readonly scrubber: SecretScrubber,
  ) {
    this.base = gcsBase(client.env);
    this.userProject = field(values, 'gcpProjectId');
    this.json = field(values, 'gcpServiceAccountJson');
    scrubber.add(this.json);
    scrubber.addPrivateKey(this.json);
  }

  /** Signs the JWT-bearer assertion from the key; throws GcsProbeError `key`. Returns cleartext warnings. */
  sign(): string[] {
    if (this.assertion) return [];
    try {
      if (!this.json) throw new GoogleKeyError('no service-account JSON is set');
      const signed = googleAssertion(this.json, [GCS_SCOPE]);
      this.scrubber.add(signed.assertion);
      this.assertion = signed.assertion;
      this.email = signed.clientEmail;
      this.tokenUri = signed.tokenUri;
    } catch (error) {
      if (!(error instanceof GoogleKeyError)) throw error;
      throw new GcsProbeError('key', error.message);
    }
    const warnings: string[] = [];
    for (const [url, what] of [
      [this.tokenUri, 'The signed service-account assertion'],
      [this.base, 'The Cloud Storage access token'],
    ] as const) {
      const warning = cleartextWarning(url, what);
      if (warning) warnings.push(warning);
    }
    return warnings;
  }

  /** The access token (asked for once); throws GcsError from the token endpoint. */
  async signIn(): Promise<void> {
    if (this.token) return;
    this.sign();
    const res = await this.call(
      {
        method: 'POST',
        url: new URL(this.tokenUri as string),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
          assertion: this.assertion,
        }).toString(),
      },
      'token',
    );
    const issued = gcsJson<{ access_token?: unknown }>(res).access_token;
    if (typeof issued !== 'string' || !issued)
      throw new GcsError(res.status, undefined, 'the answer has no access_token', 'token');
    this.scrubber.add(issued);
    const unusable = headerProblem(issued);
    if (unusable)
      throw new GcsError(
        res.status,
        undefined,
        `the access_token it issued cannot go in an HTTP header (it holds ${unusable})`,
        'token',
      );
    this.token = issued;
  }

  /** One exchange; throws GcsError for an error answer. HttpClient's own timeout bounds it (NetworkFailure). */
  async call(
    req: Omit<HttpRequest, 'headers'> & { headers?: Record<string, string> },
    from: 'token' | 'storage' = 'storage',
  ): Promise<HttpResponse> {
    this.lastUrl = req.url.toString();
    const res = await this.client.send({
      ...req,
      headers: {
        ...(this.token && from === 'storage' ? { authorization: `Bearer ${this.token}` } : {}),
        ...req.headers,
      },
    });
    if (res.status >= 200 && res.status < 300) return res;
    if (/text\/html/i.test(res.headers['content-type'] ?? ''))
      throw new GcsProbeError('not-gcs', `the answer is an HTML page (HTTP ${res.status})`, res.status);
    throw gcsError(res.status, res.body, from);
  }

  /** A JSON API URL of `bucket` (objects.insert under /upload), with userProject when set. */
  api(bucket: string, path: string, query: Record<string, string> = {}, upload = false): URL {
    const url = new URL(
      `${this.base}${upload ? '/upload' : ''}/storage/v1/b/${encodeURIComponent(bucket)}${path}`,
    );
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    if (this.userProject) url.searchParams.set('userProject', this.userProject);
    return url;
  }

  /** What a diagnosis needs of the session. */
  context(step: StorageStepId, bucket: string, timeoutMs: number, key?: string): GcsContext {
    const proxy = this.lastUrl ? proxyFor(new URL(this.lastUrl), this.client.env) : undefined;
    return {
      step,
      bucket,
      ...(key ? { key } : {}),
      ...(this.email ? { email: this.email } : {}),
      ...(this.userProject ? { userProject: this.userProject } : {}),
      base: this.base,
      ...(this.tokenUri ? { tokenUri: safeUrl(this.tokenUri, this.scrubber) } : {}),
      ...(this.lastUrl ? { url: safeUrl(this.lastUrl, this.scrubber) } : {}),
      ...(proxy ? { proxy: proxyLabel(proxy) } : {}),
      timeoutMs,
      timedOut: false,
    };
  }
}

/** An answer's JSON; an answer that is not JSON is not the JSON API's. */
export function gcsJson<T>(res: HttpResponse): T {
  try {
    return JSON.parse(res.body) as T;
  } catch {
    throw new GcsProbeError('not-gcs', `the answer is not JSON (HTTP ${res.status})`, res.status);
  }
}
