// HTTP client for the OLake UI backend: undici requests with a timeout and an AbortSignal each, the
// `olake-session` cookie kept in a tough-cookie jar bound to one origin, the `{success,message,data}`
// envelope parsed with zod, and every failure turned into a ManagementError with a readable message.
import { CookieJar } from 'tough-cookie';
import { request } from 'undici';
import type * as z from 'zod';
import { proxyAwareAgent, proxyFor, proxyLabel } from '../net/proxy.js';
import { reduceCheckFailure } from './checklog.js';
import { DetailScanner, type StreamsSummary } from './detail.js';
import { type ManagementRoute, ROUTES, routePath } from './routes.js';
import {
  type ConnectionTest,
  type Destination,
  type DestinationRequest,
  envelopeSchema,
  type Job,
  type JobDetail,
  type JobsApi,
  type LogPage,
  type LogQuery,
  ManagementError,
  type Task,
} from './types.js';

export const DEFAULT_TIMEOUT_MS = 15_000;
/** `olake check` runs as a Temporal workflow with a 10-minute timeout. */
export const TEST_TIMEOUT_MS = 11 * 60_000;
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/**
 * A job detail is read as it arrives and its `streams_config` is not kept (see detail.ts), so it may
 * be far larger than MAX_BODY_BYTES; this only stops a server that never ends.
 */
export const MAX_DETAIL_BYTES = 2 * 1024 * 1024 * 1024;
/** A job's `streams_config` up to this size is kept (for its tables); a larger one is only counted. */
export const STREAMS_KEEP_BYTES = 1024 * 1024;

export interface ClientOptions {
  /** The OLake UI's address, e.g. http://localhost:8000 (a sub-path behind a proxy is kept). */
  url: string;
  jar?: CookieJar;
  timeoutMs?: number;
  maxBodyBytes?: number;
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

interface Reply<T> {
  data: T;
  message: string;
}

/** Parses and checks a user-supplied URL; returns it without a trailing slash. */
export function normalizeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ManagementError('bad-request', `"${raw}" is not a URL; use e.g. http://localhost:8000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ManagementError('bad-request', `"${raw}" must start with http:// or https://`);
  if (url.username || url.password)
    throw new ManagementError('bad-request', 'Put no credentials in the URL; floe asks for the password');
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

/** undici's ProxyAgent when the proxy answers its CONNECT with anything but 200. */
const PROXY_REFUSED = /Proxy response \((\d+)\) !== 200/;

function describeNetworkError(error: unknown, origin: string, timeoutMs: number): ManagementError {
  const err = error as { name?: string; code?: string; cause?: { code?: string }; message?: string };
  const code = err.code ?? err.cause?.code;
  const refused = PROXY_REFUSED.exec(err.message ?? '');
  if (refused) {
    const proxy = proxyFor(new URL(origin));
    const via = proxy ? `The proxy ${proxyLabel(proxy)}` : 'The proxy';
    const status = Number(refused[1]);
    return new ManagementError(
      'network',
      status === 407
        ? `${via} wants credentials to reach ${origin} (HTTP 407 Proxy Authentication Required): put them in HTTPS_PROXY / HTTP_PROXY (http://user:password@proxy:3128), or add the host to NO_PROXY if it is reachable directly`
        : `${via} could not open a connection to ${origin} (HTTP ${status}): check that the proxy may reach it, or add the host to NO_PROXY if it is reachable directly`,
    );
  }
  if (err.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return new ManagementError(
      'network',
      `${origin} did not answer within ${Math.round(timeoutMs / 1000)} s (is the OLake UI overloaded or stuck?)`,
    );
  if (code === 'ECONNREFUSED')
    return new ManagementError(
      'network',
      `Cannot connect to ${origin}: connection refused. Is the OLake UI running there? (docker compose up, or "floe sandbox")`,
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new ManagementError('network', `Cannot resolve the host of ${origin}; check the URL`);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return new ManagementError('network', `${origin} closed the connection before answering`);
  if (typeof code === 'string' && /CERT|SSL|TLS/.test(code))
    return new ManagementError('network', `TLS with ${origin} failed (${code}); check its certificate`);
  return new ManagementError(
    'network',
    `Cannot reach ${origin}: ${code ?? err.message ?? 'unknown network error'}`,
  );
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

function statusError(status: number, message: string, path: string): ManagementError {
  const said = message || `HTTP ${status}`;
  if (status === 400)
    return new ManagementError(
      'bad-request',
      `The OLake UI rejected the request as invalid: ${said}`,
      status,
      message,
    );
  if (status === 401)
    return path === '/login'
      ? new ManagementError(
          'unauthorized',
          `Invalid credentials: the OLake UI did not accept that username and password (${said})`,
          status,
          message,
        )
      : new ManagementError(
          'unauthorized',
          `Not logged in, or the OLake UI session has expired (${said})`,
          status,
          message,
        );
  if (status === 404) return new ManagementError('not-found', `Not found: ${said}`, status, message);
  if (status === 409) return new ManagementError('conflict', said, status, message);
  if (status === 413)
    return new ManagementError(
      'bad-request',
      `The OLake UI refused the request as too large (${said})`,
      status,
      message,
    );
  // Beego (olake-ui ≤ v0.4.1) answers every handler error with 500, a missing job too.
  if (status === 500 && /\bnot found\b/i.test(message))
    return new ManagementError('not-found', `Not found: ${said}`, status, message);
  return new ManagementError('server', `The OLake UI failed (HTTP ${status}): ${said}`, status, message);
}

/**
 * With SESSION_ON=false the middleware lets every call through, but handlers that need a user id
 * (pause, resume, create) answer 401 "Not authenticated"; logging in again cannot help.
 */
function sessionsOffError(path: string): ManagementError {
  return new ManagementError(
    'server',
    `The OLake UI answered "Not authenticated" to ${path.replace(/\/project\/[^/]+/, '/project/…')} although it lets other calls through without a session: it runs with sessions switched off (SESSION_ON=false), and then refuses actions that record who made them (pause, resume, creating destinations). Turn sessions on in the OLake UI's configuration to use them`,
    401,
    'Not authenticated',
  );
}

export class ManagementClient implements JobsApi {
  readonly url: string;
  readonly origin: string;
  readonly jar: CookieJar;
  readonly #timeoutMs: number;
  readonly #maxBodyBytes: number;
  // HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured (src/net/proxy.ts).
  readonly #agent = proxyAwareAgent({ keepAliveTimeout: 1_000, connections: 8 });
  #reauthenticate: (() => Promise<boolean>) | undefined;
  #reauthenticating: Promise<boolean> | undefined;

  constructor(options: ClientOptions) {
    this.url = normalizeUrl(options.url);
    this.origin = new URL(this.url).origin;
    this.#proxied = proxyFor(new URL(this.url)) !== undefined;
    this.jar = options.jar ?? new CookieJar();
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
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
        if (size > this.#maxBodyBytes) {
          res.body.destroy();
          throw new ManagementError(
            'bad-response',
            `${this.origin} sent more than ${Math.round(this.#maxBodyBytes / 1024 / 1024)} MiB for ${method} ${path}; floe stopped reading (is that really the OLake UI?)`,
            res.statusCode,
          );
        }
        chunks.push(chunk as Buffer);
      }
      return { status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      if (error instanceof ManagementError) throw error;
      if (outer?.aborted) throw new ManagementError('cancelled', 'Cancelled');
      throw describeNetworkError(timeout.aborted ? { name: 'TimeoutError' } : error, this.origin, timeoutMs);
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
  #route<R extends ManagementRoute>(
    route: R,
    params: Record<string, string | number>,
    opts: Omit<CallOptions<R['data']>, 'schema'>,
  ): Promise<Reply<z.output<R['data']>>> {
    return this.#call<R['data']>(route.method, routePath(route, params), { ...opts, schema: route.data });
  }

  /** POST /login; the session cookie lands in the jar. */
  async login(username: string, password: string, signal?: AbortSignal): Promise<string> {
    const reply = await this.#route(
      ROUTES.login,
      {},
      {
        body: { username, password },
        auth: false,
        signal,
      },
    );
    return reply.message;
  }

  /** GET /auth/check: true for a valid session, false for a 401. */
  async authCheck(signal?: AbortSignal): Promise<boolean> {
    try {
      await this.#route(ROUTES.authCheck, {}, { auth: false, signal });
      return true;
    } catch (error) {
      if (error instanceof ManagementError && error.kind === 'unauthorized') return false;
      throw error;
    }
  }

  /** The OLake UI's version from GET /telemetry-id, or undefined when it does not say. */
  async uiVersion(signal?: AbortSignal): Promise<string | undefined> {
    try {
      const reply = await this.#route(
        ROUTES.telemetry,
        {},
        {
          auth: false,
          signal,
          timeoutMs: 5_000,
        },
      );
      return reply.data.version || undefined;
    } catch {
      return undefined;
    }
  }

  async listJobs(project: string, signal?: AbortSignal): Promise<Job[]> {
    return (await this.#route(ROUTES.listJobs, { project }, { signal })).data;
  }

  /**
   * The job's detail with its configs; `streams_config` is summarised (detail.ts) and kept only up to
   * STREAMS_KEEP_BYTES (its tables are named from it).
   */
  async getJob(project: string, id: number, signal?: AbortSignal): Promise<JobDetail> {
    let streams: StreamsSummary | undefined;
    const { data } = await this.#route(
      ROUTES.getJob,
      { project, id },
      {
        signal,
        scan: () => {
          const scanner = new DetailScanner(this.#maxBodyBytes, STREAMS_KEEP_BYTES);
          streams = scanner.streams;
          return scanner;
        },
      },
    );
    const { streams_config: _skipped, ...job } = data;
    return { ...job, streams: streams && streams.bytes > 0 ? { ...streams } : undefined };
  }

  async listTasks(project: string, id: number, signal?: AbortSignal): Promise<Task[]> {
    return (
      await this.#route(
        ROUTES.listTasks,
        { project, id },
        {
          signal,
        },
      )
    ).data;
  }

  async taskLogs(
    project: string,
    id: number,
    task: Task,
    query: LogQuery = {},
    signal?: AbortSignal,
  ): Promise<LogPage> {
    return (
      await this.#route(
        ROUTES.taskLogs,
        { project, id, file: task.file_path },
        {
          body: { file_path: task.file_path },
          query: {
            cursor: query.cursor ?? -1,
            limit: query.limit ?? 1000,
            direction: query.direction ?? 'older',
          },
          signal,
        },
      )
    ).data;
  }

  async syncNow(project: string, id: number): Promise<string> {
    return (await this.#route(ROUTES.syncNow, { project, id }, { body: {} })).message;
  }

  async setActive(project: string, id: number, active: boolean): Promise<string> {
    return (
      await this.#route(
        ROUTES.setActive,
        { project, id },
        {
          body: { activate: active },
        },
      )
    ).message;
  }

  /** The OLake UI cancels with a GET. */
  async cancelRun(project: string, id: number): Promise<string> {
    return (await this.#route(ROUTES.cancelRun, { project, id }, {})).message;
  }

  /** The project's destinations, each with the jobs that use it. */
  async listDestinations(project: string, signal?: AbortSignal): Promise<Destination[]> {
    return (
      await this.#route(
        ROUTES.listDestinations,
        { project },
        {
          signal,
        },
      )
    ).data;
  }

  async getDestination(project: string, id: number, signal?: AbortSignal): Promise<Destination> {
    return (
      await this.#route(
        ROUTES.getDestination,
        { project, id },
        {
          signal,
        },
      )
    ).data;
  }

  async destinationVersions(project: string, signal?: AbortSignal): Promise<string[]> {
    return (
      await this.#route(
        ROUTES.destinationVersions,
        { project },
        {
          query: { type: 'iceberg' },
          signal,
        },
      )
    ).data.version;
  }

  /**
   * POST …/destinations/test. A 400 (the check workflow itself failed; on olake ≥ v0.9.0 with the
   * container's whole log) becomes a FAILED result: its error lines as the message, the log as `logs`.
   * A connection closed unanswered on olake-ui v0.4.2–v0.4.3 is named as their 60 s write timeout.
   */
  async testDestination(
    project: string,
    destination: Omit<DestinationRequest, 'name'>,
    signal?: AbortSignal,
  ): Promise<ConnectionTest> {
    const started = Date.now();
    try {
      return (
        await this.#route(
          ROUTES.testDestination,
          { project },
          {
            body: { ...destination, source_type: '', source_version: '' },
            signal,
            timeoutMs: TEST_TIMEOUT_MS,
          },
        )
      ).data;
    } catch (error) {
      if (error instanceof ManagementError && error.kind === 'bad-request' && error.serverMessage) {
        const reduced = reduceCheckFailure(error.serverMessage);
        return { connection_result: { status: 'FAILED', message: reduced.message }, logs: reduced.logs };
      }
      if (
        error instanceof ManagementError &&
        error.kind === 'network' &&
        /closed the connection/.test(error.message)
      )
        throw await this.#writeTimeout(error, Date.now() - started);
      throw error;
    }
  }

  async #writeTimeout(error: ManagementError, elapsedMs: number): Promise<ManagementError> {
    const version = await this.uiVersion();
    const cuts = version !== undefined && /^v?0\.4\.[23]\b/.test(version);
    if (!cuts && elapsedMs < 59_000) return error;
    const seconds = Math.round(elapsedMs / 1000);
    return new ManagementError(
      'server',
      `${this.origin} closed the connection after ${seconds} s without answering the destination test: ${cuts ? `olake-ui ${version}` : 'the OLake UI (or a proxy in front of it)'} cuts every response at 60 s (a server write timeout, hard-coded in olake-ui v0.4.2 and v0.4.3), and the test took longer. Upgrade the OLake UI to v0.4.4 or newer (its write timeout is 600 s), or test the profile from here with "floe test", which runs the same catalog and storage checks locally`,
    );
  }

  async createDestination(
    project: string,
    destination: DestinationRequest,
    signal?: AbortSignal,
  ): Promise<string> {
    return (
      await this.#route(
        ROUTES.createDestination,
        { project },
        {
          body: destination,
          signal,
        },
      )
    ).message;
  }

  /** POST …/check-unique: false when the name is taken (409). */
  async isNameUnique(
    project: string,
    name: string,
    entity: 'job' | 'source' | 'destination',
    signal?: AbortSignal,
  ): Promise<boolean> {
    try {
      return (
        await this.#route(
          ROUTES.checkUnique,
          { project },
          {
            body: { name, entity_type: entity },
            signal,
          },
        )
      ).data.unique;
    } catch (error) {
      if (error instanceof ManagementError && error.kind === 'conflict') return false;
      throw error;
    }
  }
}
