// A loopback emulator of the OLake UI backend (olake-ui v0.4.x, Gin), faithful to its routes and quirks:
// the `{success,message,data}` envelope, the `olake-session` cookie, 401 "Unauthorized, try login again",
// GET for cancel, POST for task logs, `last_run_*` absent for jobs that never ran, destination `config`
// as a JSON string, 404 JSON for unknown /api paths. Fault switches let tests and demos break it.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import type { LogLine } from '../../management/types.js';
import { answerText, hostileAnswers } from '../hostile.js';
import { type EmulatorJob, type EmulatorTask, seedJobs, taskLogs, workflowId } from './seed.js';

export type Fault =
  | { kind: 'status500' }
  | { kind: 'html502' }
  | { kind: 'malformed-json' }
  | { kind: 'huge-body'; bytes?: number }
  | { kind: 'redirect' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'hang' }
  /** Every text field of every JSON answer carries terminal control sequences (../hostile.ts). */
  | { kind: 'hostile-text' };

export interface FaultOptions {
  /** Only requests whose path matches (default: every request). */
  path?: RegExp;
}

export interface EmulatorDestination {
  id: number;
  name: string;
  type: string;
  version: string;
  config: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  cookie: string | undefined;
}

export interface ConnectionCheck {
  status: 'SUCCEEDED' | 'FAILED';
  message: string;
}

export interface OlakeUiEmulatorOptions {
  port?: number;
  host?: string;
  /** username → password (default admin/password, as docker compose's signup-init creates). */
  users?: Record<string, string>;
  project?: string;
  jobs?: EmulatorJob[];
  destinations?: EmulatorDestination[];
  /** Iceberg driver versions, newest first. */
  versions?: string[];
  /** Server-side session lifetime (the cookie always says Max-Age=2592000, as the real one does). */
  sessionTtlMs?: number;
  /** How long a sync started through the API stays Running. */
  runDurationMs?: number;
  /** Replaces the built-in `olake check` stand-in for destinations/test. */
  checkDestination?: (config: unknown) => Promise<ConnectionCheck>;
}

export interface OlakeUiEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
  setFault(fault: Fault | undefined, options?: FaultOptions): void;
  /** Ends every session on the server side, as if they had expired. */
  expireSessions(): void;
  /** Every request seen, with its Cookie header (for tests). */
  readonly requests: RecordedRequest[];
  readonly jobs: EmulatorJob[];
  readonly destinations: EmulatorDestination[];
}

const THIRTY_DAYS_S = 30 * 24 * 60 * 60;
const MAX_UPLOAD = 64 * 1024 * 1024;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function ulid(): string {
  let time = Date.now();
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32] + head;
    time = Math.floor(time / 32);
  }
  const tail = Array.from(randomBytes(16), (b) => CROCKFORD[b % 32]).join('');
  return head + tail;
}

function iso(ms = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = answerText(res, body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function ok(res: ServerResponse, message: string, data?: unknown): void {
  send(res, 200, data === undefined ? { success: true, message } : { success: true, message, data });
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_UPLOAD) throw new HttpError(413, 'request body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Invalid request format');
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isLoopback = (host: string) => ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host);

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** Iceberg's OAuth2 manager: a static `token`, or `credential` exchanged at the token endpoint. */
async function bearerFor(
  writer: Record<string, unknown>,
  uri: string,
): Promise<string | { error: string } | undefined> {
  const token = text(writer.token);
  const credential = text(writer.credential);
  if (token || !credential) return token;
  const endpoint = new URL(text(writer.oauth2_uri) ?? `${uri.replace(/\/+$/, '')}/v1/oauth/tokens`);
  if (!isLoopback(endpoint.hostname))
    return { error: `the emulator only reaches loopback token endpoints, not ${endpoint.host}` };
  const split = credential.indexOf(':');
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    scope: text(writer.scope) ?? 'catalog',
  });
  if (split >= 0) form.set('client_id', credential.slice(0, split));
  form.set('client_secret', split >= 0 ? credential.slice(split + 1) : credential);
  const res = await request(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    signal: AbortSignal.timeout(5000),
  });
  const body = (await res.body.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
  if (res.statusCode === 200 && typeof body.access_token === 'string') return body.access_token;
  return {
    error: `org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: ${typeof body.error === 'string' ? body.error : `HTTP ${res.statusCode}`}`,
  };
}

/**
 * A stand-in for `olake check`: OLake's own config validation, then what Iceberg's RESTCatalog does
 * first, GET <uri>/v1/config (with the bearer token, or one from the OAuth2 client-credentials
 * exchange), on loopback only. SigV4 and Google auth are not signed.
 */
export async function checkIcebergConfig(config: unknown): Promise<ConnectionCheck> {
  const prefix =
    'failed to initialize destination: failed to start iceberg server: failed to validate config: ';
  const writer = isObject(config) && isObject(config.writer) ? config.writer : undefined;
  if (!writer) return { status: 'FAILED', message: 'no connector config or destination config provided' };
  if (!writer.iceberg_s3_path) return { status: 'FAILED', message: `${prefix}s3_path is required` };
  const catalog =
    typeof writer.catalog_type === 'string' && writer.catalog_type ? writer.catalog_type : 'glue';
  if (catalog !== 'rest')
    return { status: 'FAILED', message: `${prefix}unsupported catalog_type: ${catalog}` };
  const uri = typeof writer.rest_catalog_url === 'string' ? writer.rest_catalog_url : '';
  if (!uri)
    return { status: 'FAILED', message: `${prefix}rest_catalog_url is required when using REST catalog` };
  let target: URL;
  try {
    target = new URL(`${uri.replace(/\/+$/, '')}/v1/config`);
  } catch {
    return { status: 'FAILED', message: `${prefix}invalid rest_catalog_url: ${uri}` };
  }
  const fail = (why: string): ConnectionCheck => ({
    status: 'FAILED',
    message: `failed to test destination: failed to create or get table: rpc error: code = Internal desc = Failed to process request: ${why}`,
  });
  if (!isLoopback(target.hostname))
    return fail(`the emulator only reaches loopback catalogs, not ${target.host}`);
  target.searchParams.set('warehouse', String(writer.iceberg_s3_path));
  const headers: Record<string, string> = {};
  try {
    const bearer = await bearerFor(writer, uri);
    if (typeof bearer === 'object') return fail(bearer.error);
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const res = await request(target, { headers, signal: AbortSignal.timeout(5000) });
    await res.body.dump();
    if (res.statusCode === 200) return { status: 'SUCCEEDED', message: '' };
    if (res.statusCode === 401 || res.statusCode === 403)
      return fail(
        `org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: HTTP ${res.statusCode}`,
      );
    return fail(`org.apache.iceberg.exceptions.RESTException: Unable to process: HTTP ${res.statusCode}`);
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).name;
    return fail(`java.net.ConnectException: ${code} connecting to ${target.host}`);
  }
}

export async function startOlakeUiEmulator(options: OlakeUiEmulatorOptions = {}): Promise<OlakeUiEmulator> {
  const users = new Map(Object.entries(options.users ?? { admin: 'password' }));
  const project = options.project ?? '123';
  const jobs = options.jobs ?? seedJobs(12, 1, Date.now(), project);
  const destinations = options.destinations ?? [];
  const versions = options.versions ?? ['v0.9.4', 'v0.9.3', 'v0.9.2', 'v0.9.1'];
  const sessionTtlMs = options.sessionTtlMs ?? THIRTY_DAYS_S * 1000;
  const runDurationMs = options.runDurationMs ?? 8000;
  const check = options.checkDestination ?? checkIcebergConfig;
  const sessions = new Map<string, { username: string; expires: number }>();
  const requests: RecordedRequest[] = [];
  /** Runs started through the API: file_path → when they end by themselves. */
  const liveRuns = new Map<string, number>();
  let fault: { fault: Fault; path?: RegExp } | undefined;

  const sessionOf = (req: IncomingMessage) => {
    const match = /(?:^|;\s*)olake-session=([^;]+)/.exec(req.headers.cookie ?? '');
    const session = match ? sessions.get(match[1] as string) : undefined;
    if (!session || session.expires <= Date.now()) return undefined;
    if (!users.has(session.username)) throw new HttpError(401, 'Invalid session: user not found');
    return session;
  };

  /** Finishes API-started runs whose time is up, as the worker would. */
  const settle = (job: EmulatorJob) => {
    for (const task of job.tasks) {
      const end = liveRuns.get(task.file_path);
      if (task.status !== 'Running' || end === undefined || end > Date.now()) continue;
      liveRuns.delete(task.file_path);
      task.status = 'Completed';
      task.runtime = `${Math.round(runDurationMs / 1000)}s`;
      task.logs.push({ level: 'info', time: iso(end), message: 'Sync completed; state committed' });
    }
    const latest = job.tasks[0];
    if (latest) job.last_run_state = latest.status;
  };

  const publicJob = (job: EmulatorJob, full: boolean) => {
    settle(job);
    const { tasks: _tasks, ...rest } = job;
    const out: Record<string, unknown> = { ...rest };
    if (!full) {
      delete out.streams_config;
      out.source = { ...job.source, config: undefined };
      out.destination = { ...job.destination, config: undefined };
    }
    return JSON.parse(JSON.stringify(out)) as unknown;
  };

  const findJob = (id: string) => {
    const job = jobs.find((j) => String(j.id) === id);
    if (!job) throw new HttpError(404, `failed to get job: job not found: id ${id}`);
    return job;
  };

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const path = url.pathname;
    if (path === '/health' && method === 'GET') return send(res, 200, { status: 'ok' });
    if (path === '/login' && method === 'POST') {
      const body = await readBody(req);
      if (
        !isObject(body) ||
        typeof body.username !== 'string' ||
        typeof body.password !== 'string' ||
        !body.username ||
        !body.password
      )
        throw new HttpError(400, 'Invalid request format');
      if (users.get(body.username) !== body.password) throw new HttpError(401, 'Invalid credentials');
      const id = ulid();
      sessions.set(id, { username: body.username, expires: Date.now() + sessionTtlMs });
      const secure = req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
      res.setHeader(
        'set-cookie',
        `olake-session=${id}; Path=/; Max-Age=${THIRTY_DAYS_S}; HttpOnly${secure}; SameSite=Lax`,
      );
      return ok(res, 'login successful', { username: body.username });
    }
    if (path === '/signup' && method === 'POST') {
      const body = await readBody(req);
      if (
        !isObject(body) ||
        !body.username ||
        !body.password ||
        typeof body.email !== 'string' ||
        !body.email.includes('@')
      )
        throw new HttpError(400, 'Invalid request format');
      if (users.has(String(body.username)))
        throw new HttpError(409, 'Username already exists: user already exists');
      users.set(String(body.username), String(body.password));
      return ok(res, 'user created successfully', { email: body.email, username: body.username });
    }
    if (path === '/auth/check' && method === 'GET') {
      if (!sessionOf(req)) throw new HttpError(401, 'Not authenticated');
      return ok(res, 'authenticated successfully');
    }
    if (path === '/telemetry-id' && method === 'GET')
      return ok(res, 'telemetry id retrieved', { user_id: 'emulator', version: 'v0.4.6' });
    if (!path.startsWith('/api/') && !path.startsWith('/internal/')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><html><head><title>OLake</title></head><body><div id="root"></div></body></html>',
      );
      return;
    }
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== 'api' || parts[1] !== 'v1') throw new HttpError(404, 'not found');
    const session = sessionOf(req);
    if (!session) throw new HttpError(401, 'Unauthorized, try login again');
    if (parts[2] !== 'project' || parts[3] === undefined) throw new HttpError(404, 'not found');
    const rest = parts.slice(4);
    const mine = parts[3] === project;
    const scoped = mine ? jobs : [];
    const named = ['versions', 'test', 'spec'];
    const key = `${method} ${rest.map((p, i) => ((i === 1 && !named.includes(p)) || i === 3 ? ':id' : p)).join('/')}`;

    switch (key) {
      case 'GET jobs':
        return ok(
          res,
          'jobs listed successfully',
          scoped.map((j) => publicJob(j, false)),
        );
      case 'GET jobs/:id':
        return ok(
          res,
          `job '${rest[1]}' retrieved successfully`,
          publicJob(findJob(mine ? String(rest[1]) : ''), true),
        );
      case 'POST jobs/:id/sync': {
        const job = findJob(mine ? String(rest[1]) : '');
        if (!job.activate)
          throw new HttpError(500, 'failed to trigger sync: job is paused, please unpause to run sync');
        settle(job);
        if (job.tasks[0]?.status === 'Running')
          throw new HttpError(500, 'failed to trigger sync: a sync is already running for this job');
        const start = Date.now();
        const task: EmulatorTask = {
          runtime: '',
          start_time: iso(start),
          status: 'Running',
          file_path: workflowId(project, job.id, new Date(start)),
          job_type: 'sync',
          logs: taskLogs(job, start, 'Running', Math.random),
        };
        job.tasks.unshift(task);
        liveRuns.set(task.file_path, start + runDurationMs);
        job.last_run_time = task.start_time;
        job.last_run_state = 'Running';
        job.last_run_type = 'sync';
        return ok(res, `sync triggered successfully for job_id[${job.id}]`, {
          message: 'sync triggered successfully',
        });
      }
      case 'POST jobs/:id/activate': {
        const job = findJob(mine ? String(rest[1]) : '');
        const body = await readBody(req);
        if (!isObject(body) || typeof body.activate !== 'boolean')
          throw new HttpError(
            400,
            "failed to validate request: Key: 'JobStatusRequest.Activate' Error:Field validation for 'Activate' failed on the 'required' tag",
          );
        job.activate = body.activate;
        job.updated_at = iso();
        job.updated_by = session.username;
        return ok(res, `job ${job.id} ${body.activate ? 'resumed' : 'paused'} successfully`);
      }
      case 'GET jobs/:id/cancel': {
        const job = findJob(mine ? String(rest[1]) : '');
        settle(job);
        const running = job.tasks.find((t) => t.status === 'Running');
        if (running) {
          running.status = 'Canceled';
          running.runtime = `${Math.max(1, Math.round((Date.now() - Date.parse(running.start_time)) / 1000))}s`;
          running.logs.push({
            level: 'warn',
            time: iso(),
            message: 'Workflow cancellation requested; stopping writers',
          });
          liveRuns.delete(running.file_path);
          job.last_run_state = job.tasks[0]?.status;
        }
        return ok(res, `job workflow cancel requested successfully for job_id[${job.id}]`);
      }
      case 'GET jobs/:id/tasks': {
        const job = findJob(mine ? String(rest[1]) : '');
        settle(job);
        return ok(
          res,
          `job '${job.id}' tasks listed successfully`,
          job.tasks.map(({ logs: _logs, ...t }) => t),
        );
      }
      case 'POST jobs/:id/tasks/:id/logs': {
        const job = findJob(mine ? String(rest[1]) : '');
        const body = await readBody(req);
        if (!isObject(body) || typeof body.file_path !== 'string' || !body.file_path)
          throw new HttpError(400, 'failed to validate request: file_path is required');
        settle(job);
        const task = job.tasks.find((t) => t.file_path === body.file_path);
        if (!task)
          throw new HttpError(
            500,
            `failed to get task logs: logs directory not found for workflow ${body.file_path}`,
          );
        return ok(res, 'task logs retrieved successfully', pageLogs(task.logs, url.searchParams));
      }
      case 'GET destinations':
        return ok(
          res,
          'destinations listed successfully',
          mine ? destinations.map((d) => destinationItem(d)) : [],
        );
      case 'GET destinations/versions': {
        const type = url.searchParams.get('type');
        if (type !== 'iceberg' && type !== 'parquet')
          throw new HttpError(400, 'failed to validate request: type is required');
        return ok(res, 'destination versions retrieved successfully', { version: versions });
      }
      case 'POST destinations/test': {
        const body = await readBody(req);
        if (!isObject(body) || !body.type || !body.version || typeof body.config !== 'string')
          throw new HttpError(400, 'failed to validate request: type, version and config are required');
        let config: unknown;
        try {
          config = JSON.parse(body.config);
        } catch {
          throw new HttpError(
            400,
            'failed to verify driver credentials: connection test failed: invalid config JSON',
          );
        }
        const result = await check(config);
        const logs: LogLine[] = [
          {
            level: 'info',
            time: iso(),
            message: `Running check for destination ${body.type} ${body.version}`,
          },
          result.status === 'SUCCEEDED'
            ? { level: 'info', time: iso(), message: 'Connection check succeeded' }
            : { level: 'error', time: iso(), message: result.message },
        ];
        return ok(res, `destination ${body.type} connection tested successfully`, {
          connection_result: result,
          logs,
        });
      }
      case 'POST destinations': {
        const body = await readBody(req);
        if (
          !isObject(body) ||
          !body.name ||
          !body.type ||
          !body.version ||
          typeof body.config !== 'string' ||
          !body.config
        )
          throw new HttpError(400, 'failed to validate request: name, type, version and config are required');
        if (body.type !== 'iceberg' && body.type !== 'parquet')
          throw new HttpError(
            400,
            `failed to validate request: invalid destination type '${body.type}', supported destinations are: [parquet iceberg]`,
          );
        if (!mine) throw new HttpError(500, `failed to create destination: project '${parts[3]}' not found`);
        if (destinations.some((d) => d.name === body.name))
          throw new HttpError(
            500,
            `failed to create destination: destination name '${body.name}' is not unique`,
          );
        const now = iso();
        destinations.push({
          id: destinations.reduce((m, d) => Math.max(m, d.id), 0) + 1,
          name: String(body.name),
          type: String(body.type),
          version: String(body.version),
          config: body.config,
          created_at: now,
          updated_at: now,
          created_by: session.username,
          updated_by: session.username,
        });
        return ok(res, `destination ${body.name} created successfully`, body);
      }
      case 'GET destinations/:id': {
        const dest = mine ? destinations.find((d) => String(d.id) === rest[1]) : undefined;
        if (!dest)
          throw new HttpError(404, `failed to get destination: destination not found: id ${rest[1]}`);
        return ok(res, `destination '${dest.id}' retrieved successfully`, destinationItem(dest));
      }
      case 'POST check-unique': {
        const body = await readBody(req);
        if (
          !isObject(body) ||
          !body.name ||
          !['job', 'source', 'destination'].includes(String(body.entity_type))
        )
          throw new HttpError(400, 'failed to validate request: name and entity_type are required');
        const names =
          body.entity_type === 'destination'
            ? destinations.map((d) => d.name)
            : body.entity_type === 'job'
              ? scoped.map((j) => j.name)
              : scoped.map((j) => j.source.name);
        if (mine && names.includes(String(body.name)))
          throw new HttpError(409, `${body.entity_type} name '${body.name}' is not unique`);
        return ok(res, 'name is unique', { unique: true });
      }
      default:
        throw new HttpError(404, 'not found');
    }
  }

  function destinationItem(d: EmulatorDestination) {
    const used = jobs.filter((j) => j.destination.name === d.name);
    return {
      ...d,
      jobs: used.map((j) => ({
        name: j.name,
        id: j.id,
        activate: j.activate,
        source_name: j.source.name,
        source_type: j.source.type,
        last_run_time: j.last_run_time,
        last_run_state: j.last_run_state,
      })),
    };
  }

  async function applyFault(res: ServerResponse, current: Fault): Promise<boolean> {
    switch (current.kind) {
      case 'status500':
        send(res, 500, { success: false, message: 'failed to list jobs: pq: connection refused' });
        return true;
      case 'html502':
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end(
          '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
        );
        return true;
      case 'malformed-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"success":true,"message":"jobs listed successfully","data":[{"id":1,');
        return true;
      case 'redirect':
        res.writeHead(302, { location: 'http://127.0.0.1:1/sso/login?next=%2F' });
        res.end();
        return true;
      case 'huge-body': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let left = current.bytes ?? 64 * 1024 * 1024;
        res.write('{"success":true,"message":"');
        let closed = false;
        res.once('close', () => {
          closed = true;
        });
        while (left > 0 && !closed) {
          if (!res.write(chunk))
            await new Promise<void>((resume) => {
              const done = () => {
                res.off('drain', done).off('close', done);
                resume();
              };
              res.on('drain', done).on('close', done);
            });
          left -= chunk.length;
        }
        res.end('"}');
        return true;
      }
      case 'slow':
        await new Promise((r) => setTimeout(r, current.delayMs));
        return false;
      case 'hang':
        return true;
      case 'hostile-text':
        hostileAnswers.add(res);
        return false;
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, cookie: req.headers.cookie });
    void (async () => {
      try {
        if (fault && (!fault.path || fault.path.test(url.pathname)) && (await applyFault(res, fault.fault)))
          return;
        await route(req, res, url);
      } catch (error) {
        if (res.headersSent) return void res.destroy();
        // Gin's NoRoute handler writes gin.H, whose keys come out sorted.
        if (error instanceof HttpError && error.status === 404 && error.message === 'not found')
          send(res, 404, { message: 'not found', success: false });
        else if (error instanceof HttpError)
          send(res, error.status, { success: false, message: error.message });
        else send(res, 500, { success: false, message: `internal error: ${(error as Error).message}` });
      }
    })();
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    requests,
    jobs,
    destinations,
    setFault(next, faultOptions = {}) {
      fault = next ? { fault: next, path: faultOptions.path } : undefined;
    },
    expireSessions() {
      sessions.clear();
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** `cursor=-1&limit=1000&direction=older`: a window of non-debug lines, counted from the tail. */
export function pageLogs(all: LogLine[], params: URLSearchParams) {
  const lines = all.filter((l) => l.level !== 'debug');
  const limit = Math.max(1, Math.min(Number(params.get('limit') ?? 1000) || 1000, 10_000));
  const cursor = Number(params.get('cursor') ?? -1);
  const direction = params.get('direction') === 'newer' ? 'newer' : 'older';
  let from: number;
  let to: number;
  if (direction === 'older') {
    to = cursor < 0 || Number.isNaN(cursor) ? lines.length : Math.min(cursor, lines.length);
    from = Math.max(0, to - limit);
  } else {
    from = cursor < 0 || Number.isNaN(cursor) ? 0 : Math.min(cursor, lines.length);
    to = Math.min(lines.length, from + limit);
  }
  return {
    logs: lines.slice(from, to),
    older_cursor: from,
    newer_cursor: to,
    has_more_older: from > 0,
    has_more_newer: to < lines.length,
  };
}
