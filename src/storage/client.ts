// The S3 client both the storage probe and the write check use: the profile's storage settings
// (region, endpoint, path style, keys or the SDK's default chain), requests through the proxy, every
// exchange traced with secrets redacted, and answers that are not S3 (HTML, huge bodies) refused.
// The AWS SDK is imported here, and only when a client is opened.
import { pipeline, Readable, Transform } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { redactHeaders, type SecretScrubber } from '../check/scrub.js';
import type { Emit } from '../check/types.js';
import type { Values } from '../destination/fields.js';
import { lazy, type S3Sdk } from '../lazy.js';
import { proxiesConfigured, proxyFor, proxyLabel } from '../net/proxy.js';
import { errorFacts } from './diagnoses.js';

/** No S3 answer to floe's requests comes near this; a bigger body is not S3. */
const MAX_BODY_BYTES = 1 << 20;

/** What the profile says about reaching its object store. */
export interface StorageSettings {
  region: string;
  endpoint: string;
  /** S3-compatible: path-style requests, checksums only when required. */
  compatible: boolean;
  accessKey: string;
  secretKey: string;
}

function field(values: Values, id: 'region' | 's3Endpoint' | 'accessKey' | 'secretKey'): string {
  const value = values.fields[id];
  return typeof value === 'string' ? value.trim() : '';
}

export function storageSettings(values: Values): StorageSettings {
  return {
    region: field(values, 'region') || 'us-east-1',
    endpoint: field(values, 's3Endpoint'),
    compatible: values.storage === 's3-compatible',
    accessKey: field(values, 'accessKey'),
    secretKey: field(values, 'secretKey'),
  };
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

/** An error shaped like the SDK's, so the diagnoses read it the same way. */
export function probeError(name: string, message: string, res?: HttpResponseLike): Error {
  return Object.assign(new Error(message), {
    name,
    ...(res ? { $metadata: { httpStatusCode: res.statusCode }, $response: res } : {}),
  });
}

/** Refuses answers that are not S3: HTML pages and bodies over `maxBytes`. */
function guardResponse(method: string, res: HttpResponseLike, maxBytes: number): void {
  const type = Object.entries(res.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const length = Number(Object.entries(res.headers).find(([k]) => k.toLowerCase() === 'content-length')?.[1]);
  const destroy = () => (res.body instanceof Readable ? res.body.destroy() : undefined);
  if (/text\/html/i.test(type)) {
    destroy();
    throw probeError('FloeNotS3', `the answer is an HTML page (HTTP ${res.statusCode})`, res);
  }
  if (method === 'HEAD') return;
  if (length > maxBytes) {
    destroy();
    throw probeError('FloeTooLarge', `the answer has ${length} bytes`, res);
  }
  if (res.body instanceof Readable) {
    let seen = 0;
    const capped = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        if (seen > maxBytes)
          callback(probeError('FloeTooLarge', `the answer exceeds ${maxBytes} bytes`, res));
        else callback(null, chunk);
      },
    });
    pipeline(res.body, capped, () => undefined);
    res.body = capped;
  }
}

/** Rejects as soon as `signal` aborts, even if the SDK is still busy (e.g. resolving credentials). */
export function untilAborted<T>(start: () => Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(probeError('AbortError', 'aborted'));
  const promise = start();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(probeError('AbortError', 'aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The trace's `proxy` for a request URL. */
export function proxyOf(url: string, env: NodeJS.ProcessEnv): { proxy?: string } {
  try {
    const proxy = proxyFor(new URL(url), env);
    return proxy ? { proxy: proxyLabel(proxy) } : {};
  } catch {
    return {};
  }
}

export interface OpenedS3 {
  sdk: S3Sdk;
  client: S3Client;
  /** The URL of the latest request sent (for evidence), or undefined since `forget`. */
  lastUrl(): string | undefined;
  forget(): void;
}

/**
 * An S3 client for `settings` whose exchanges are traced through `emit`; a body over `maxBodyBytes`
 * (default 1 MiB: the probe's and the write check's objects) is refused.
 */
export async function openS3(
  settings: StorageSettings,
  emit: Emit,
  scrubber: SecretScrubber,
  { env, maxBodyBytes = MAX_BODY_BYTES }: { env: NodeJS.ProcessEnv; maxBodyBytes?: number },
): Promise<OpenedS3> {
  const sdk = await lazy.s3();
  const config: S3ClientConfig = {
    region: settings.region,
    maxAttempts: 1,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.compatible
      ? {
          forcePathStyle: true,
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }
      : {}),
    ...(settings.accessKey && settings.secretKey
      ? { credentials: { accessKeyId: settings.accessKey, secretAccessKey: settings.secretKey } }
      : {}),
  };
  if (proxiesConfigured(env)) {
    const { ProxyAwareHandler } = await import('./proxy-handler.js');
    config.requestHandler = new ProxyAwareHandler(env);
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
            ...proxyOf(url, env),
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
      guardResponse(req.method, res, maxBodyBytes);
      return out;
    },
    { step: 'deserialize', priority: 'low', name: 'floeProbeTrace' },
  );
  return {
    sdk,
    client,
    lastUrl: () => lastUrl,
    forget: () => {
      lastUrl = undefined;
    },
  };
}
