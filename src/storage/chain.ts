// The storage half of the connection test: HeadBucket → ListObjectsV2 → PutObject → GetObject →
// DeleteObject against the destination's bucket. The AWS SDK is loaded only when the chain runs.
import { randomUUID } from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { redactHeaders, SecretScrubber } from '../check/scrub.js';
import type { Chain, ChainOptions, Emit, Step, StepState } from '../check/types.js';
import { maskSecret, type Values } from '../destination/fields.js';
import { proxiesConfigured, proxyFor, proxyLabel } from '../net/proxy.js';
import {
  diagnoseStorageError,
  errorFacts,
  type ProbeContext,
  STORAGE_STEPS,
  type StorageDiagnosisCode,
  type StorageStepId,
  storageDiagnosis,
} from './diagnoses.js';
import { parseS3Path, profileDataLocation, type S3Location } from './s3path.js';

/** No S3 answer to these requests comes near this; a bigger body is not S3. */
const MAX_BODY_BYTES = 1 << 20;
const STEP_IDS = Object.keys(STORAGE_STEPS) as StorageStepId[];
const TERMINAL: ReadonlySet<StepState> = new Set(['ok', 'failed', 'skipped', 'cancelled']);

function field(values: Values, id: 'region' | 's3Endpoint' | 'accessKey' | 'secretKey'): string {
  const value = values.fields[id];
  return typeof value === 'string' ? value.trim() : '';
}

class StepBoard {
  private readonly steps = new Map<StorageStepId, Step>();

  constructor(private readonly emit: Emit) {
    for (const id of STEP_IDS) this.update(id, 'pending');
  }

  update(id: StorageStepId, state: StepState, patch: Pick<Step, 'detail' | 'durationMs'> = {}): void {
    const step: Step = { id, chain: 'storage', title: STORAGE_STEPS[id].title, state, ...patch };
    this.steps.set(id, step);
    this.emit({ type: 'step', step });
  }

  /** Closes every unfinished step: cancelled after an abort, skipped otherwise. */
  finish(aborted: boolean): void {
    for (const [id, step] of this.steps) {
      if (TERMINAL.has(step.state)) continue;
      if (aborted) this.update(id, 'cancelled');
      else this.update(id, 'skipped', { detail: 'an earlier step failed' });
    }
  }

  isRunning(id: StorageStepId): boolean {
    return this.steps.get(id)?.state === 'running';
  }

  current(): StorageStepId {
    return STEP_IDS.find((id) => !TERMINAL.has(this.steps.get(id)?.state ?? 'pending')) ?? 'storage.head';
  }
}

interface HttpRequestLike {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
}

interface HttpResponseLike {
  statusCode: number;
  headers: Record<string, string>;
  body?: unknown;
}

function requestUrl(req: HttpRequestLike): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(req.query ?? {})) {
    if (value === null) query.append(key, '');
    else for (const v of Array.isArray(value) ? value : [value]) query.append(key, v);
  }
  const qs = query.toString();
  return `${req.protocol}//${req.hostname}${req.port ? `:${req.port}` : ''}${req.path}${qs ? `?${qs}` : ''}`;
}

function probeError(name: string, message: string, res?: HttpResponseLike): Error {
  return Object.assign(new Error(message), {
    name,
    ...(res ? { $metadata: { httpStatusCode: res.statusCode }, $response: res } : {}),
  });
}

/** Refuses answers that are not S3: HTML pages and oversized bodies. */
function guardResponse(method: string, res: HttpResponseLike): void {
  const type = Object.entries(res.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const length = Number(Object.entries(res.headers).find(([k]) => k.toLowerCase() === 'content-length')?.[1]);
  const destroy = () => (res.body instanceof Readable ? res.body.destroy() : undefined);
  if (/text\/html/i.test(type)) {
    destroy();
    throw probeError('FloeNotS3', `the answer is an HTML page (HTTP ${res.statusCode})`, res);
  }
  if (method === 'HEAD') return;
  if (length > MAX_BODY_BYTES) {
    destroy();
    throw probeError('FloeTooLarge', `the answer has ${length} bytes`, res);
  }
  if (res.body instanceof Readable) {
    let seen = 0;
    const capped = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        if (seen > MAX_BODY_BYTES)
          callback(probeError('FloeTooLarge', `the answer exceeds ${MAX_BODY_BYTES} bytes`, res));
        else callback(null, chunk);
      },
    });
    pipeline(res.body, capped, () => undefined);
    res.body = capped;
  }
}

/** Rejects as soon as `signal` aborts, even if the SDK is still busy (e.g. resolving credentials). */
function untilAborted<T>(start: () => Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(probeError('AbortError', 'aborted'));
  const promise = start();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(probeError('AbortError', 'aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

interface Probe {
  location: S3Location;
  region: string;
  endpoint: string;
  compatible: boolean;
  accessKey: string;
  secretKey: string;
}

export const storageChain: Chain = async (values, opts) => {
  const accessKey = field(values, 'accessKey');
  const secretKey = field(values, 'secretKey');
  const scrubber = new SecretScrubber(maskSecret);
  scrubber.add(accessKey);
  scrubber.add(secretKey);
  const emit: Emit = (event) => opts.emit(scrubber.scrubDeep(event));
  const board = new StepBoard(emit);
  const source = profileDataLocation(values) ?? (await catalogDataLocation(opts));
  const location = source ? parseS3Path(source.url) : null;
  const probe: Probe = {
    location: location ?? { bucket: '', prefix: '' },
    region: field(values, 'region') || 'us-east-1',
    endpoint: field(values, 's3Endpoint'),
    compatible: values.storage === 's3-compatible',
    accessKey,
    secretKey,
  };
  const baseContext = (step: StorageStepId): ProbeContext => ({
    step,
    bucket: probe.location.bucket,
    region: probe.region,
    storage: values.storage,
    ...(probe.endpoint ? { endpoint: probe.endpoint } : {}),
    pathStyle: probe.compatible,
    timeoutMs: opts.timeoutMs,
    timedOut: false,
    credentials: accessKey && secretKey ? 'profile' : 'environment',
    ...(accessKey ? { accessKeyHint: maskSecret(accessKey) } : {}),
  });
  const refuse = (code: StorageDiagnosisCode) => {
    const diagnosis = storageDiagnosis(code, baseContext('storage.head'));
    board.update('storage.head', 'failed', { detail: diagnosis.what });
    emit({ type: 'diagnosis', diagnosis });
  };

  if (opts.signal.aborted) board.finish(true);
  else if (!source) refuse('S3_NO_DATA_LOCATION');
  else if (source.url.startsWith('gs://')) {
    for (const id of STEP_IDS)
      board.update(id, 'skipped', { detail: 'Google Cloud Storage: this check covers S3 only' });
    emit({
      type: 'warning',
      message: `The data location ${source.url} (from the ${source.from}) is in Google Cloud Storage: floe's storage check covers S3 only`,
    });
  } else if (!location) refuse('S3_INVALID_PATH');
  else if (probe.compatible && !probe.endpoint) refuse('S3_NO_ENDPOINT');
  else {
    try {
      await run(probe, source.from, opts, board, emit, baseContext, scrubber);
    } catch (error) {
      const step = board.current();
      const diagnosis = diagnoseStorageError(error, baseContext(step));
      board.update(step, opts.signal.aborted ? 'cancelled' : 'failed', { detail: diagnosis.what });
      if (!opts.signal.aborted) emit({ type: 'diagnosis', diagnosis });
    }
  }
  board.finish(opts.signal.aborted);
};

/** The location the catalog's config names, once the catalog chain has read it (null: none). */
async function catalogDataLocation(opts: ChainOptions): Promise<{ url: string; from: string } | null> {
  if (!opts.shared) return null;
  const aborted = new Promise<null>((resolve) => {
    if (opts.signal.aborted) resolve(null);
    opts.signal.addEventListener('abort', () => resolve(null), { once: true });
  });
  const found = await Promise.race([opts.shared.catalogLocation, aborted]);
  return found ? { url: found.url, from: `catalog's ${found.property}` } : null;
}

type S3Module = typeof import('@aws-sdk/client-s3');

/** The trace's `proxy` for a request URL. */
function proxyOf(url: string): { proxy?: string } {
  try {
    const proxy = proxyFor(new URL(url));
    return proxy ? { proxy: proxyLabel(proxy) } : {};
  } catch {
    return {};
  }
}
type Outcome<T> = { ok: true; value: T } | { ok: false };

async function run(
  probe: Probe,
  from: string,
  opts: ChainOptions,
  board: StepBoard,
  emit: Emit,
  baseContext: (step: StorageStepId) => ProbeContext,
  scrubber: SecretScrubber,
): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  board.update('storage.head', 'running');
  // Node's and the bundle's import() of this CommonJS package may expose it only as `default`.
  const loaded: S3Module & { default?: S3Module } = await import('@aws-sdk/client-s3');
  const sdk = loaded.default?.S3Client ? loaded.default : loaded;
  const { bucket, prefix } = probe.location;
  const config: S3ClientConfig = {
    region: probe.region,
    maxAttempts: 1,
    ...(probe.endpoint ? { endpoint: probe.endpoint } : {}),
    ...(probe.compatible
      ? {
          forcePathStyle: true,
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }
      : {}),
    ...(probe.accessKey && probe.secretKey
      ? { credentials: { accessKeyId: probe.accessKey, secretAccessKey: probe.secretKey } }
      : {}),
  };
  if (proxiesConfigured()) {
    const { ProxyAwareHandler } = await import('./proxy-handler.js');
    config.requestHandler = new ProxyAwareHandler();
  }
  const client: S3Client = new sdk.S3Client(config);
  let lastUrl: string | undefined;
  client.middlewareStack.add(
    (next) => async (args) => {
      const req = args.request as HttpRequestLike;
      const url = requestUrl(req);
      lastUrl = url;
      const started = performance.now();
      const trace = (status: number | undefined, responseHeaders: Record<string, string>, error?: string) =>
        emit({
          type: 'trace',
          entry: {
            method: req.method,
            url,
            ...proxyOf(url),
            ...(status !== undefined ? { status } : {}),
            durationMs: Math.round(performance.now() - started),
            requestHeaders: redactHeaders(req.headers, scrubber),
            responseHeaders: redactHeaders(responseHeaders, scrubber),
            ...(error ? { error } : {}),
          },
        });
      let out: Awaited<ReturnType<typeof next>>;
      try {
        out = await next(args);
      } catch (error) {
        trace(undefined, {}, errorFacts(error).message);
        throw error;
      }
      const res = out.response as HttpResponseLike;
      trace(res.statusCode, res.headers);
      guardResponse(req.method, res);
      return out;
    },
    { step: 'deserialize', priority: 'low', name: 'floeProbeTrace' },
  );

  let timedOut = false;
  const send = async <T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = AbortSignal.any([opts.signal, timeout]);
    try {
      return await untilAborted(() => call(signal), signal);
    } catch (error) {
      timedOut = timeout.aborted && !opts.signal.aborted;
      throw error;
    }
  };

  /** HeadBucket errors carry no body, so no error code: ask again with a request that gets one. */
  const explainHead = async (error: unknown): Promise<{ error: unknown; extra?: Record<string, string> }> => {
    const facts = errorFacts(error);
    if (timedOut || facts.status === undefined || (error as { Code?: unknown }).Code !== undefined)
      return { error };
    try {
      await send((abortSignal) =>
        client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1, Prefix: prefix }), {
          abortSignal,
        }),
      );
    } catch (followUp) {
      const named = errorFacts(followUp);
      if (named.code && named.status !== undefined)
        return {
          error: followUp,
          extra: {
            note: `HeadBucket answered HTTP ${facts.status} without a body; ListObjectsV2 named the error`,
            ...(facts.requestId ? { headRequestId: facts.requestId } : {}),
          },
        };
    }
    timedOut = false;
    return { error };
  };

  const attempt = async <T>(
    id: StorageStepId,
    call: (signal: AbortSignal) => Promise<T>,
    detail: (value: T) => string,
    key?: string,
  ): Promise<Outcome<T>> => {
    if (!board.isRunning(id)) board.update(id, 'running');
    lastUrl = undefined;
    timedOut = false;
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    try {
      const value = await send(call);
      board.update(id, 'ok', { detail: detail(value), durationMs: durationMs() });
      return { ok: true, value };
    } catch (thrown) {
      if (opts.signal.aborted) {
        board.update(id, 'cancelled', { durationMs: durationMs() });
        return { ok: false };
      }
      const failedUrl = lastUrl;
      const { error, extra } = id === 'storage.head' ? await explainHead(thrown) : { error: thrown };
      const url = extra ? lastUrl : failedUrl;
      const diagnosis = diagnoseStorageError(error, {
        ...baseContext(id),
        ...(key ? { key } : {}),
        ...(url ? { url } : {}),
        ...(url ? proxyOf(url) : {}),
        timedOut,
        ...(extra ? { extra } : {}),
      });
      board.update(id, 'failed', { detail: diagnosis.what, durationMs: durationMs() });
      emit({ type: 'diagnosis', diagnosis });
      return { ok: false };
    }
  };

  /**
   * A PutObject that failed or timed out may still have stored the object: try a DeleteObject (its own
   * timeout), and if that fails too (or the test was cancelled) name the key to delete by hand.
   */
  const removeFailedProbe = async (key: string): Promise<void> => {
    const byHand = `remove s3://${bucket}/${key} by hand`;
    if (opts.signal.aborted) {
      emit({
        type: 'warning',
        message: `The test was cancelled during PutObject; the store may have kept the probe: ${byHand}`,
      });
      return;
    }
    try {
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      await untilAborted(
        () =>
          client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: timeout }),
        timeout,
      );
    } catch (error) {
      emit({
        type: 'warning',
        message: `PutObject failed and the DeleteObject that should remove a probe the store may have kept failed too (${errorFacts(error).message}): ${byHand}`,
      });
    }
  };

  try {
    const head = await attempt(
      'storage.head',
      (abortSignal) => client.send(new sdk.HeadBucketCommand({ Bucket: bucket }), { abortSignal }),
      (out) =>
        `bucket "${bucket}" exists${out.BucketRegion ? ` in ${out.BucketRegion}` : ''} (from the ${from})`,
    );
    if (!head.ok) return;
    const list = await attempt(
      'storage.list',
      (abortSignal) =>
        client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1, Prefix: prefix }), {
          abortSignal,
        }),
      (out) => `${prefix ? `prefix "${prefix}"` : 'bucket root'}: ${out.KeyCount ? 'has objects' : 'empty'}`,
    );
    if (!list.ok) return;
    if (opts.readOnly) {
      for (const id of ['storage.put', 'storage.get', 'storage.delete'] as const)
        board.update(id, 'skipped', { detail: 'read-only' });
      return;
    }
    const key = `${prefix}.floe-probe/${randomUUID()}`;
    const body = Buffer.from(`floe storage probe ${new Date().toISOString()} ${randomUUID()}\n`);
    const put = await attempt(
      'storage.put',
      (abortSignal) =>
        client.send(
          new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'text/plain' }),
          { abortSignal },
        ),
      () => `wrote ${key} (${body.length} bytes)`,
      key,
    );
    if (!put.ok) {
      await removeFailedProbe(key);
      return;
    }
    await attempt(
      'storage.get',
      async (abortSignal) => {
        const out = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }), {
          abortSignal,
        });
        const read = Buffer.from((await out.Body?.transformToByteArray()) ?? []);
        if (!read.equals(body))
          throw probeError('FloeProbeMismatch', `read ${read.length} bytes that differ`);
        return read.length;
      },
      (n) => `read ${n} bytes back, identical`,
      key,
    );
    if (opts.signal.aborted) {
      emit({
        type: 'warning',
        message: `The test was cancelled before the probe object was deleted: remove s3://${bucket}/${key}`,
      });
      return;
    }
    await attempt(
      'storage.delete',
      (abortSignal) =>
        client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }), { abortSignal }),
      () => `removed ${key}`,
      key,
    );
  } finally {
    client.destroy();
  }
}
