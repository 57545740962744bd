// The HTTP layer of the catalog test: undici requests with a timeout, no redirects, a capped body,
// one retry of a GET on 503 + Retry-After, and a redacted trace entry per exchange.
import { setTimeout as sleep } from 'node:timers/promises';
import { type Dispatcher, request } from 'undici';
import { redactHeaders, type SecretScrubber, safeUrl } from '../check/scrub.js';
import type { Emit } from '../check/types.js';
import { proxyAwareAgent, proxyFor, proxyLabel } from '../net/proxy.js';

declare const __FLOE_VERSION__: string;
const VERSION = typeof __FLOE_VERSION__ === 'string' ? __FLOE_VERSION__ : '0.0.0-dev';
export const USER_AGENT = `floe/${VERSION}`;

/** Larger responses are cut off: a config or a one-item page is a few KiB. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Longest wait honoured for a 503's Retry-After before the one retry. */
export const MAX_RETRY_WAIT_MS = 5000;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'HEAD' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  /** Bytes go as they are (an object upload); a string as UTF-8. */
  body?: string | Uint8Array;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  /** The body as received (an object download), when the client read it. */
  bytes?: Uint8Array;
  /** The body exceeded MAX_BODY_BYTES and was cut off. */
  truncated: boolean;
  durationMs: number;
}

export type FailureKind =
  | 'dns'
  | 'refused'
  | 'tls-untrusted'
  | 'tls-hostname'
  | 'tls'
  | 'timeout'
  | 'cancelled'
  | 'network'
  /** The proxy could not be reached (refused, unknown host, no answer). */
  | 'proxy-unreachable'
  /** The proxy refused or failed the CONNECT tunnel to the host. */
  | 'proxy-connect'
  /** A header value (a token, a credential) holds characters HTTP cannot carry: nothing was sent. */
  | 'bad-header';

/** A request that got no HTTP response; `proxy` names the proxy it went through, if any. */
export class NetworkFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly code: string,
    message: string,
    readonly proxy?: string,
  ) {
    super(message);
  }
}

const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);
const TIMEOUTS = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
  'ABORT_ERR',
  'TimeoutError',
]);

/** The most specific string code on the error or its causes (DOMException codes are numbers). */
function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code: unknown = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code && code !== 'UND_ERR_SOCKET') return code;
    if (current.name === 'TimeoutError') return 'TimeoutError';
    current = current.cause;
  }
  if (!(error instanceof Error)) return 'UNKNOWN';
  const code: unknown = (error as NodeJS.ErrnoException).code;
  return typeof code === 'string' && code ? code : error.name;
}

/** Classifies an error thrown while connecting or exchanging; `timedOut` says our timer fired. */
export function classifyError(error: unknown, cancelled: boolean, timedOut: boolean): NetworkFailure {
  if (error instanceof NetworkFailure) return error;
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (cancelled) return new NetworkFailure('cancelled', 'ABORTED', 'cancelled');
  // undici refuses CR, LF, other control characters and non-Latin-1 in a header before sending anything.
  if (code === 'UND_ERR_INVALID_ARG' && /header/i.test(message))
    return new NetworkFailure('bad-header', code, message);
  if (timedOut) return new NetworkFailure('timeout', 'TIMEOUT', message);
  if (TIMEOUTS.has(code)) return new NetworkFailure('timeout', code, message);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL')
    return new NetworkFailure('dns', code, message);
  if (code === 'ECONNREFUSED') return new NetworkFailure('refused', code, message);
  if (UNTRUSTED.has(code)) return new NetworkFailure('tls-untrusted', code, message);
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return new NetworkFailure('tls-hostname', code, message);
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code.startsWith('CERT_'))
    return new NetworkFailure('tls', code, message);
  return new NetworkFailure('network', code, message);
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export interface HttpClientOptions {
  emit: Emit;
  signal: AbortSignal;
  timeoutMs: number;
  scrubber: SecretScrubber;
  /** The command's environment (io.env): its proxy variables apply, and GcsSession reads it. */
  env: NodeJS.ProcessEnv;
  /** Extra trusted CA certificates (PEM); when set they replace Node's bundled roots. */
  ca?: string;
  /** Bodies are cut off beyond this (default MAX_BODY_BYTES). */
  maxBodyBytes?: number;
}

/** One per test run: owns the connection pool, which `close` destroys. */
export class HttpClient {
  private readonly agent: Dispatcher;
  readonly env: NodeJS.ProcessEnv;

  constructor(private readonly opts: HttpClientOptions) {
    this.env = opts.env;
    // HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured (src/net/proxy.ts).
    this.agent = proxyAwareAgent({
      env: opts.env,
      connect: { timeout: opts.timeoutMs },
      ...(opts.ca ? { ca: opts.ca } : {}),
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
  }

  /**
   * Sends one request (and retries a GET once after a 503 with Retry-After). `prepare` runs before
   * each attempt, e.g. to sign it. Throws NetworkFailure when no response arrived.
   */
  async send(req: HttpRequest, prepare?: (req: HttpRequest) => Promise<void>): Promise<HttpResponse> {
    const first = await this.attempt(req, prepare);
    if (first.status !== 503 || req.method !== 'GET') return first;
    const wait = retryAfterMs(first.headers['retry-after']);
    if (wait === null) return first;
    try {
      await sleep(Math.min(wait, MAX_RETRY_WAIT_MS), undefined, { signal: this.opts.signal });
    } catch {
      throw new NetworkFailure('cancelled', 'ABORTED', 'cancelled');
    }
    return this.attempt(req, prepare);
  }

  private async attempt(
    base: HttpRequest,
    prepare?: (req: HttpRequest) => Promise<void>,
  ): Promise<HttpResponse> {
    const req: HttpRequest = {
      ...base,
      headers: { 'user-agent': USER_AGENT, accept: 'application/json', ...base.headers },
    };
    if (prepare) await prepare(req);
    const timer = AbortSignal.timeout(this.opts.timeoutMs);
    const signal = AbortSignal.any([this.opts.signal, timer]);
    const started = performance.now();
    let status: number | undefined;
    let responseHeaders: Record<string, string> = {};
    try {
      const res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal,
        dispatcher: this.agent,
      });
      status = res.statusCode;
      responseHeaders = flatHeaders(res.headers);
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const max = this.opts.maxBodyBytes ?? MAX_BODY_BYTES;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > max) {
          truncated = true;
          chunks.push(chunk.subarray(0, chunk.length - (size - max)));
          break;
        }
        chunks.push(chunk);
      }
      const durationMs = Math.round(performance.now() - started);
      const bytes = Buffer.concat(chunks);
      const body = bytes.toString('utf8');
      // Whatever the content type, a token in the answer is a secret from here on (evidence quotes bodies).
      this.opts.scrubber.addIssuedTokens(body);
      this.trace(req, durationMs, status, responseHeaders);
      return {
        status,
        headers: responseHeaders,
        body,
        bytes,
        truncated,
        durationMs,
      };
    } catch (error) {
      const failure = classifyError(error, this.opts.signal.aborted, timer.aborted);
      this.trace(
        req,
        Math.round(performance.now() - started),
        status,
        responseHeaders,
        `${failure.code}: ${failure.message}`,
      );
      throw failure;
    }
  }

  private trace(
    req: HttpRequest,
    durationMs: number,
    status: number | undefined,
    responseHeaders: Record<string, string>,
    error?: string,
  ): void {
    const { scrubber } = this.opts;
    const proxy = proxyFor(req.url, this.env);
    this.opts.emit({
      type: 'trace',
      entry: {
        method: req.method,
        url: safeUrl(req.url, scrubber),
        ...(proxy ? { proxy: proxyLabel(proxy) } : {}),
        ...(status === undefined ? {} : { status }),
        durationMs,
        requestHeaders: redactHeaders(req.headers, scrubber),
        responseHeaders: redactHeaders(responseHeaders, scrubber),
        ...(error ? { error: scrubber.scrub(error) } : {}),
      },
    });
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}
