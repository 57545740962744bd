// The storage check for a gs:// location: the service-account key (OLake's GCSFileIO credential) signs a
// JWT-bearer grant for an OAuth2 access token, then the Cloud Storage JSON API runs the same five steps
// as the S3 check (bucket, list, write, read back, delete a probe under <prefix>/.floe-probe/). Plain
// undici through floe's HTTP client: a timeout per request, cancellable, one redacted trace entry per
// exchange. Endpoints: https://cloud.google.com/storage/docs/json_api/v1 (buckets/get, objects/list,
// objects/insert with uploadType=media, objects/get with alt=media, objects/delete); userProject for
// requester pays: https://cloud.google.com/storage/docs/requester-pays.
import { randomUUID } from 'node:crypto';
import { GoogleKeyError, googleAssertion } from '../catalog/auth.js';
import { headerProblem } from '../catalog/classify.js';
import { HttpClient, type HttpRequest, type HttpResponse } from '../catalog/http.js';
import { cleartextWarning } from '../catalog/transport.js';
import type { ChainOptions } from '../check/chain.js';
import { type SecretScrubber, safeUrl } from '../check/scrub.js';
import type { Emit } from '../check/types.js';
import type { Values } from '../destination/fields.js';
import { proxyFor, proxyLabel } from '../net/proxy.js';
import { PROBE_FOLDER, probeKey, type StepBoard } from './board.js';
import type { StorageStepId } from './diagnoses.js';
import {
  diagnoseGcsError,
  type GcsContext,
  GcsError,
  GcsProbeError,
  gcsDiagnosis,
  gcsError,
} from './gcs-diagnoses.js';
import { probeJournal, recorded } from './probe-journal.js';

/** What GCSFileIO asks for (and all a read/write probe needs). */
export const GCS_SCOPE = 'https://www.googleapis.com/auth/devstorage.read_write';
export const GCS_API = 'https://storage.googleapis.com';
/** As Google's client libraries read it: the JSON API's base, e.g. http://127.0.0.1:4443. */
export const STORAGE_EMULATOR_ENV = 'STORAGE_EMULATOR_HOST';

/** The JSON API's base: STORAGE_EMULATOR_HOST (http:// when it names no scheme, as the Go client does), else Google's. */
export function gcsBase(env: NodeJS.ProcessEnv = process.env): string {
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

type Outcome<T> = { ok: true; value: T } | { ok: false };

/**
 * A service account's session with the Cloud Storage JSON API, the storage check's and the write
 * check's: the key read (GcsProbeError `key` when it cannot be used), one access token, then requests
 * whose error answers throw GcsError (HTML or non-JSON: GcsProbeError `not-gcs`). Every exchange goes
 * through the caller's HttpClient (its timeout, its signal, its trace).
 */
export class GcsSession {
  readonly base = gcsBase();
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
    const proxy = this.lastUrl ? proxyFor(new URL(this.lastUrl)) : undefined;
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

/** Runs the five steps against `source` (a gs:// URL); every outcome goes to `board` and `emit`. */
export async function runGcsCheck(
  values: Values,
  source: { url: string; from: string },
  opts: ChainOptions,
  board: StepBoard,
  emit: Emit,
  scrubber: SecretScrubber,
): Promise<void> {
  const location = parseGsPath(source.url);
  const client = new HttpClient({ emit, signal: opts.signal, timeoutMs: opts.timeoutMs, scrubber });
  const gcs = new GcsSession(values, client, scrubber);
  const context = (step: StorageStepId, key?: string): GcsContext =>
    gcs.context(step, location?.bucket ?? '', opts.timeoutMs, key);
  const fail = (step: StorageStepId, error: unknown, key?: string) => {
    const diagnosis = diagnoseGcsError(error, context(step, key));
    board.update(step, 'failed', { detail: diagnosis.what });
    emit({ type: 'diagnosis', diagnosis });
  };
  if (!location) {
    await client.close();
    const diagnosis = gcsDiagnosis('GCS_INVALID_PATH', context('storage.head'));
    board.update('storage.head', 'failed', { detail: diagnosis.what });
    emit({ type: 'diagnosis', diagnosis });
    return;
  }
  const { bucket, prefix } = location;

  board.update('storage.head', 'running');
  try {
    for (const message of gcs.sign()) emit({ type: 'warning', message });
  } catch (error) {
    await client.close();
    if (!(error instanceof GcsProbeError)) throw error;
    fail('storage.head', error);
    return;
  }
  const email = gcs.email;
  const call = (req: Parameters<GcsSession['call']>[0]) => gcs.call(req);
  const jsonOf = gcsJson;
  const api = (path: string, query: Record<string, string> = {}, upload = false): URL =>
    gcs.api(bucket, path, query, upload);

  const attempt = async <T>(
    id: StorageStepId,
    run: () => Promise<T>,
    detail: (value: T) => string,
    key?: string,
  ): Promise<Outcome<T>> => {
    if (!board.isRunning(id)) board.update(id, 'running');
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    try {
      const value = await run();
      board.update(id, 'ok', { detail: detail(value), durationMs: durationMs() });
      return { ok: true, value };
    } catch (error) {
      if (opts.signal.aborted) {
        board.update(id, 'cancelled', { durationMs: durationMs() });
        return { ok: false };
      }
      const diagnosis = diagnoseGcsError(error, context(id, key));
      board.update(id, 'failed', { detail: diagnosis.what, durationMs: durationMs() });
      emit({ type: 'diagnosis', diagnosis });
      return { ok: false };
    }
  };

  const remove = (key: string) => call({ method: 'DELETE', url: api(`/o/${encodeURIComponent(key)}`) });

  try {
    const head = await attempt(
      'storage.head',
      async () => {
        await gcs.signIn();
        try {
          const bucketRes = await call({ method: 'GET', url: api('', { fields: 'name,location,billing' }) });
          const found = jsonOf<{ location?: unknown; billing?: { requesterPays?: unknown } }>(bucketRes);
          return {
            location: typeof found.location === 'string' ? found.location : undefined,
            requesterPays: found.billing?.requesterPays === true,
          };
        } catch (error) {
          // roles/storage.objectAdmin (what GCSFileIO needs) has no storage.buckets.get: the listing
          // that follows shows whether the bucket exists, so this refusal alone is only a warning.
          if (
            !(error instanceof GcsError) ||
            error.status !== 403 ||
            !/storage\.buckets\.get/.test(error.message)
          )
            throw error;
          emit({
            type: 'warning',
            message: `${email} may not read bucket "${bucket}"'s metadata (storage.buckets.get): OLake does not need it; the listing checks the bucket`,
          });
          return { location: undefined, requesterPays: false, noMetadata: true };
        }
      },
      (out) =>
        'noMetadata' in out
          ? `signed in as ${email}; storage.buckets.get not granted (not needed)`
          : `bucket "${bucket}" exists${out.location ? ` in ${out.location}` : ''}${out.requesterPays ? ', requester pays' : ''} (from the ${source.from}); signed in as ${email}`,
    );
    if (!head.ok) return;
    const list = await attempt(
      'storage.list',
      async () =>
        jsonOf<{ items?: unknown[] }>(
          await call({ method: 'GET', url: api('/o', { prefix, maxResults: '1' }) }),
        ),
      (out) =>
        `${prefix ? `prefix "${prefix}"` : 'bucket root'}: ${out.items?.length ? 'has objects' : 'empty'}`,
    );
    if (!list.ok) return;
    if (opts.readOnly) {
      board.skipWrites();
      return;
    }
    const key = probeKey(prefix);
    const body = `floe storage probe ${new Date().toISOString()} ${randomUUID()}\n`;
    const journaled = probeJournal(
      values,
      opts,
      `gs://${bucket}/${key}`,
      `gs://${bucket}/${prefix}${PROBE_FOLDER}`,
    );
    if (!(await recorded(journaled, board, emit))) return;
    const put = await attempt(
      'storage.put',
      async () =>
        jsonOf<{ size?: unknown }>(
          await call({
            method: 'POST',
            url: api('/o', { uploadType: 'media', name: key }, true),
            headers: { 'content-type': 'text/plain' },
            body,
          }),
        ),
      () => `wrote ${key} (${Buffer.byteLength(body)} bytes)`,
      key,
    );
    const byHand = `remove gs://${bucket}/${key} by hand`;
    if (!put.ok) {
      if (opts.signal.aborted) {
        emit({
          type: 'warning',
          message: `The test was cancelled during the upload; Cloud Storage may have kept the probe: ${byHand}`,
        });
        return;
      }
      // An upload that failed or timed out may still have stored the object.
      let gone = true;
      try {
        await remove(key);
      } catch (error) {
        gone = error instanceof GcsError && error.status === 404;
        if (!gone)
          emit({
            type: 'warning',
            message: `The upload failed and the delete that should remove a probe Cloud Storage may have kept failed too (${(error as Error).message}): ${byHand}`,
          });
      }
      if (gone) await journaled.gone();
      return;
    }
    await attempt(
      'storage.get',
      async () => {
        const res = await call({
          method: 'GET',
          url: api(`/o/${encodeURIComponent(key)}`, { alt: 'media' }),
        });
        if (res.body !== body)
          throw new GcsProbeError(
            'mismatch',
            `read ${Buffer.byteLength(res.body)} bytes that differ`,
            res.status,
          );
        return Buffer.byteLength(res.body);
      },
      (n) => `read ${n} bytes back, identical`,
      key,
    );
    if (opts.signal.aborted) {
      emit({
        type: 'warning',
        message: `The test was cancelled before the probe object was deleted: ${byHand}`,
      });
      return;
    }
    const removed = await attempt(
      'storage.delete',
      () => remove(key),
      () => `removed ${key}`,
      key,
    );
    if (removed.ok) await journaled.gone();
    else if (!opts.signal.aborted)
      emit({ type: 'warning', message: `The probe object was not deleted: ${byHand}` });
  } finally {
    await client.close();
  }
}
