// The transport under the OLake UI client: undici requests with a timeout and an AbortSignal each, the
// `olake-session` cookie kept in a tough-cookie jar bound to one origin, bodies read within a size limit
// (a job detail through its scanner), the `{success,message,data}` envelope parsed with zod, a 401 answered
// by signing in again once, and every failure turned into a ManagementError with a readable message.
import { CookieJar } from 'tough-cookie';
import { request } from 'undici';
import type * as z from 'zod';
import { proxyAwareAgent, proxyFor } from '../../net/proxy.js';
import type { DetailScanner } from '../detail.js';
import { type ManagementRoute, routePath } from '../routes.js';
import { envelopeSchema, ManagementError } from '../types.js';
import { describeNetworkError, normalizeUrl, sessionsOffError, statusError } from './errors.js';

export const DEFAULT_TIMEOUT_MS = 15_000;
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/**
 * A job detail is read as it arrives and its `streams_config` is not kept (see detail.ts), so it may
 * be far larger than MAX_BODY_BYTES; this only stops a server that never ends.
 */
export const MAX_DETAIL_BYTES = 2 * 1024 * 1024 * 1024;

export interface ClientOptions {
  /** The OLake UI's address, e.g. http://localhost:8000 (a sub-path behind a proxy is kept). */
  url: string;
  jar?: CookieJar;
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** The command's environment (io.env), for its proxy variables; the process's when absent. */
  env?: NodeJS.ProcessEnv;
  /**
   * Called once when an authenticated request answers 401; resolves true when a new session was
   * obtained, and the request is then sent again once.
   */
  reauthenticate?: () => Promise<boolean>;
}

interface CallOptions<S extends z.ZodType> {
  schema: S;
  body?: unknown;
  query?: Record<string, string | number>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** false for /login and /auth/check: a 401 there is an answer, not an expired session. */
  auth?: boolean;
  /** Reads the body through a fresh scanner (job details) instead of buffering it whole. */
  scan?: () => DetailScanner;
}

export interface Reply<T> {
  data: T;
  message: string;
}

/** `promise`, or a rejection as soon as `signal` aborts (`abandon` is told), whichever comes first. */
function untilAborted<T>(abandon: () => void, promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort = () => {};
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      if (!settled) abandon();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  return Promise.race([promise, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** One OLake UI origin: its cookie jar, its connections, and the calls of ROUTES sent to it. */
export class Transport {
  readonly url: string;
  readonly origin: string;
  readonly jar: CookieJar;
  readonly #timeoutMs: number;
  /** The most of a body read (a job detail has its own limit, MAX_DETAIL_BYTES). */
  readonly maxBodyBytes: number;
  readonly #env: NodeJS.ProcessEnv;
  readonly #agent: ReturnType<typeof proxyAwareAgent>;
  #reauthenticate: (() => Promise<boolean>) | undefined;
  #reauthenticating: Promise<boolean> | undefined;

  constructor(options: ClientOptions) {
    this.url = normalizeUrl(options.url);
    this.origin = new URL(this.url).origin;
    // A client made outside a command (the sandbox's demo login, tests) reads the process's environment.
    this.#env = options.env ?? process.env;
    // HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured (src/net/proxy.ts).
    this.#agent = proxyAwareAgent({ env: this.#env, keepAliveTimeout: 1_000, connections: 8 });
    this.#proxied = proxyFor(new URL(this.url), this.#env) !== undefined;
    this.jar = options.jar ?? new CookieJar();
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
    this.#reauthenticate = options.reauthenticate;
  }

  set reauthenticate(fn: (() => Promise<boolean>) | undefined) {
    this.#reauthenticate = fn;
  }

  /** Closes the keep-alive sockets so the process can exit. */
  /** A request was left hanging (a proxy's CONNECT that ignored the time-out): close must not wait for it. */
  #abandoned = false;
  /** Requests go through a proxy (read from the environment once, as the agent reads it). */
  readonly #proxied: boolean;

  /** Ends the connections: waits for requests in flight, unless one was abandoned (then it is cut). */
  close(): Promise<void> {
    return this.#abandoned ? this.#agent.destroy() : this.#agent.close();
  }

  async #send(
    method: string,
    path: string,
    body: unknown,
    query: CallOptions<z.ZodType>['query'],
    outer: AbortSignal | undefined,
    timeoutMs: number,
    scanner?: DetailScanner,
  ): Promise<{ status: number; text: string }> {
    const target = new URL(`${this.url}${path}`);
    for (const [key, value] of Object.entries(query ?? {})) target.searchParams.set(key, String(value));
    if (target.origin !== this.origin)
      throw new ManagementError('bad-request', `Refusing to send to ${target.origin}`);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
    const headers: Record<string, string> = { accept: 'application/json' };
    const cookie = await this.jar.getCookieString(target.href, { http: true, sameSiteContext: 'strict' });
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const sent = request(target, {
        method: method as 'GET',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        dispatcher: this.#agent,
      });
      // Through a proxy, undici's CONNECT does not heed the request's signal: the race makes the time-out hold.
      const res = this.#proxied
        ? await untilAborted(
            () => {
              this.#abandoned = true;
            },
            sent,
            signal,
          )
        : await sent;
      res.body.on('error', () => {});
      const setCookie = res.headers['set-cookie'];
      for (const value of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [])
        await this.jar.setCookie(value, target.href, {
          http: true,
          sameSiteContext: 'strict',
          ignoreError: true,
        });
      if (res.statusCode >= 300 && res.statusCode < 400) {
        res.body.destroy();
        const location = res.headers.location;
        throw new ManagementError(
          'bad-response',
          `${this.origin} answered with a redirect (HTTP ${res.statusCode}${location ? ` to ${String(location).split('?')[0]}` : ''}); floe does not follow redirects. Use the OLake UI's own address, e.g. http://localhost:8000`,
          res.statusCode,
        );
      }
      if (scanner) return { status: res.statusCode, text: await this.#scan(res.body, scanner, method, path) };
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > this.maxBodyBytes) {
          res.body.destroy();
          throw new ManagementError(
            'bad-response',
            `${this.origin} sent more than ${Math.round(this.maxBodyBytes / 1024 / 1024)} MiB for ${method} ${path}; floe stopped reading (is that really the OLake UI?)`,
            res.statusCode,
          );
        }
        chunks.push(chunk as Buffer);
      }
      return { status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      if (error instanceof ManagementError) throw error;
      if (outer?.aborted) throw new ManagementError('cancelled', 'Cancelled');
      throw describeNetworkError(
        timeout.aborted ? { name: 'TimeoutError' } : error,
        this.origin,
        timeoutMs,
        this.#env,
      );
    }
  }

  async #scan(
    body: AsyncIterable<Buffer> & { destroy(): void },
    scanner: DetailScanner,
    method: string,
    path: string,
  ): Promise<string> {
    const decoder = new TextDecoder();
    let size = 0;
    const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;
    try {
      for await (const chunk of body) {
        size += chunk.length;
        if (size > MAX_DETAIL_BYTES) {
          body.destroy();
          throw new ManagementError(
            'bad-response',
            `${this.origin} sent more than ${mib(MAX_DETAIL_BYTES)} for ${method} ${path} (floe's limit for a job's detail); floe stopped reading`,
          );
        }
        scanner.push(decoder.decode(chunk, { stream: true }));
      }
      scanner.push(decoder.decode());
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      body.destroy();
      throw new ManagementError(
        'bad-response',
        `${this.origin} sent a job detail whose parts other than streams_config exceed ${mib(scanner.maxKeptBytes)} (floe's limit for what it keeps of a detail) for ${method} ${path}`,
      );
    }
    return scanner.text();
  }

  #parse<S extends z.ZodType>(status: number, text: string, path: string, schema: S): Reply<z.output<S>> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const kind = /^\s*</.test(text)
        ? 'an HTML page'
        : text.trim() === ''
          ? 'an empty body'
          : 'text that is not JSON';
      const hint =
        status >= 500
          ? ' (a proxy or load balancer in front of the OLake UI is failing, or the OLake UI is down)'
          : ' (is this URL the OLake UI?)';
      throw new ManagementError(
        'bad-response',
        `${this.origin} answered HTTP ${status} with ${kind} instead of the OLake UI's JSON${hint}`,
        status,
      );
    }
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success)
      throw new ManagementError(
        'bad-response',
        `${this.origin} answered HTTP ${status} with JSON that is not the OLake UI's {success, message, data} envelope`,
        status,
      );
    const { success, message, data } = envelope.data;
    if (status !== 200 || !success) throw statusError(status, message, path);
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ManagementError(
        'bad-response',
        `The OLake UI's answer to ${path.replace(/\/project\/[^/]+/, '/project/…')} has an unexpected shape (${issue?.path.join('.') || 'data'}: ${issue?.message})`,
        status,
      );
    }
    return { data: parsed.data, message };
  }

  async #call<S extends z.ZodType>(
    method: string,
    path: string,
    opts: CallOptions<S>,
  ): Promise<Reply<z.output<S>>> {
    const timeoutMs = opts.timeoutMs ?? this.#timeoutMs;
    let reply = await this.#send(method, path, opts.body, opts.query, opts.signal, timeoutMs, opts.scan?.());
    if (
      reply.status === 401 &&
      path.startsWith('/api/') &&
      /"message"\s*:\s*"Not authenticated"/.test(reply.text)
    )
      throw sessionsOffError(path);
    if (reply.status === 401 && opts.auth !== false && this.#reauthenticate) {
      this.#reauthenticating ??= this.#reauthenticate().finally(() => {
        this.#reauthenticating = undefined;
      });
      if (await this.#reauthenticating)
        reply = await this.#send(method, path, opts.body, opts.query, opts.signal, timeoutMs, opts.scan?.());
    }
    return this.#parse(reply.status, reply.text, path, opts.schema);
  }

  /** A call of one of ROUTES (its method, path with `params` filled in, and data schema). */
  route<R extends ManagementRoute>(
    route: R,
    params: Record<string, string | number>,
    opts: Omit<CallOptions<R['data']>, 'schema'>,
  ): Promise<Reply<z.output<R['data']>>> {
    return this.#call<R['data']>(route.method, routePath(route, params), { ...opts, schema: route.data });
  }
}
