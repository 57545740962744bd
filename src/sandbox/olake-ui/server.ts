// A loopback emulator of the OLake UI backend, faithful to the source it was read from, never kinder.
// Versions and files (datazip-inc/olake-ui):
// - gin (default): v0.4.6 (Gin since v0.4.2). Routes `server/routes/router.go`; envelope
//   `server/internal/utils/gin_utils.go`; session cookie `handlers/session.go` (30 days, `olake-session`);
//   middleware `handlers/middleware.go` (401 "Unauthorized, try login again"); jobs
//   `services/etl/job.go`: the list has no config strings, the detail (buildJobResponse,
//   includeConfig=true) carries `streams_config` and the source and destination `config` strings;
//   GetJobByID ignores the project while tasks and the last run use the path's project (`null` tasks);
//   a never-run job's tasks are `null`; `activate` binds `{}` as false (pauses); sync triggers the
//   Temporal schedule with overlap policy SKIP (`services/temporal/client.go`), so during a run it
//   answers 200 and starts nothing; destinations are created under any project id (no check).
//   Logs: byte-offset cursors, partial last line skipped (`utils/log_utils.go`, see logs.ts).
//   Destination test: olake ≥ v0.9.0 exits non-zero on a failed check and the worker returns the whole
//   container log, which `handlers/etl/destination.go` answers as 400 "failed to verify driver
//   credentials: …"; older drivers answer 200 with status FAILED.
// - beego: v0.4.1 and earlier (`handlers/etl/job.go` @v0.4.1, `handlers/job.go` @v0.3.3): every handler
//   error is a 500 (a missing job too), unmatched GETs serve the SPA's index.html with 200, no /health,
//   and sessions end after about an hour idle (the postgres provider's SessionRelease + Beego's GC).
// - sessions off (`SESSION_ON=false`): the middleware lets everything through, but `/auth/check` and
//   the handlers that need a user id (activate, create) answer 401 "Not authenticated".
// - write timeout: v0.4.2–v0.4.3 hard-code `WriteTimeout: 60s` (`internal/httpserver/server.go`): a
//   response not finished by then never arrives and the connection closes.
// Fault switches (500, HTML 502, bad JSON, huge body, redirect, slow, hang) let tests and demos break it.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ManagementRoute, ROUTES } from '../../management/routes.js';
import type { LogLine } from '../../management/types.js';
import { answerText, hostileAnswers } from '../hostile.js';
import { logFailure, logRequests, type SandboxLog } from '../log.js';
import { type ConnectionCheck, checkIcebergConfig } from './check.js';
import { logFile, pageLogs } from './logs.js';
import {
  type EmulatorJob,
  type EmulatorTask,
  failedEnd,
  seedJobs,
  streamsConfig,
  taskLogs,
  workflowId,
} from './seed.js';

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
  /** The project id it was created under (any id: the server does not check). */
  project_id: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  cookie: string | undefined;
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
  /** `gin` (v0.4.2+, default) or `beego` (v0.4.1 and earlier). */
  mode?: 'gin' | 'beego';
  /** SESSION_ON (default true). */
  sessions?: boolean;
  /** The server's write timeout (v0.4.2–v0.4.3: 60 s); none by default. */
  writeTimeoutMs?: number;
  /** Beego: a session ends after this long without a request (default 3600 s). */
  idleTimeoutMs?: number;
  /** What `/telemetry-id` says (default v0.4.6, v0.4.1 for beego, v0.4.3 with a write timeout). */
  uiVersion?: string;
  /** Where every request and error goes (the sandbox's log). */
  log?: SandboxLog;
  /** How long after a sync is triggered its run appears in the tasks (default 0). */
  syncStartDelayMs?: number;
  /** How a sync started through the API ends (default: Completed); a failed one logs a seeded failure. */
  syncOutcome?: (job: EmulatorJob) => 'Completed' | 'Failed';
}

export interface OlakeUiEmulator {
  url: string;
  port: number;
  close(): Promise<void>;
  setFault(fault: Fault | undefined, options?: FaultOptions): void;
  /** Ends every session on the server side, as if they had expired. */
  expireSessions(): void;
  /** Appends raw bytes to a run's olake.log (a partial line stays partial until its newline). */
  appendLog(filePath: string, text: string): void;
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

interface Session {
  username: string;
  expires: number;
  seen: number;
}

type RouteName = keyof typeof ROUTES;

/** What a route's handler gets: the request, the route's `:name` parameters (decoded) and the session. */
interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  session: Session | undefined;
  /** The path's `:project` ('' outside /api/), and whether it is the emulator's project. */
  projectId: string;
  mine: boolean;
}
type Handler = (call: Call) => void | Promise<void>;

const ROUTE_LIST = Object.entries(ROUTES) as [RouteName, ManagementRoute][];
/** Routes outside /api/, matched on the exact path (`/login`, `/auth/check`, `/telemetry-id`). */
const TOP_ROUTES = ROUTE_LIST.filter(([, route]) => !route.path.startsWith('/api/'));
const API_ROUTES = ROUTE_LIST.filter(([, route]) => route.path.startsWith('/api/'));
/** Path words an `:id` never is: the real router's static routes there win (`destinations/versions`). */
const NOT_IDS = ['versions', 'test', 'spec'];

/** The /api/ route `parts` (the path's decoded, non-empty segments) names, with its parameters. */
function matchApiRoute(
  method: string,
  parts: string[],
): { name: RouteName; params: Record<string, string> } | undefined {
  for (const [name, route] of API_ROUTES) {
    const segments = route.path.split('/').filter(Boolean);
    if (route.method !== method || segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const fits = segments.every((segment, i) => {
      const part = parts[i] as string;
      if (!segment.startsWith(':')) return segment === part;
      if (segment === ':id' && NOT_IDS.includes(part)) return false;
      params[segment.slice(1)] = part;
      return true;
    });
    if (fits) return { name, params };
  }
  return undefined;
}

/** Handlers that need a user id (GetCurrentUserID); with sessions off there is none. */
function userOf(session: Session | undefined): string {
  if (!session) throw new HttpError(401, 'Not authenticated');
  return session.username;
}

/** Responses that must be finished by then, or the connection closes unanswered (a write timeout). */
const deadlines = new WeakMap<ServerResponse, number>();

function send(res: ServerResponse, status: number, body: unknown): void {
  const deadline = deadlines.get(res);
  if (deadline !== undefined && Date.now() > deadline) {
    res.destroy();
    return;
  }
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

/** Adds raw bytes to a run's log; returns the lines they complete (non-JSON lines are dropped). */
function completeLines(task: EmulatorTask, text: string): LogLine[] {
  const pieces = `${task.partial ?? ''}${text}`.split('\n');
  task.partial = pieces.pop() || undefined;
  const lines: LogLine[] = [];
  for (const piece of pieces) {
    try {
      const line = JSON.parse(piece) as LogLine;
      if (isObject(line)) lines.push(line);
    } catch {
      // olake.log holds JSON lines only; the reader skips anything else, so it is not kept.
    }
  }
  return lines;
}

/** olake v0.9.0 made `check` exit non-zero on failure (before, it printed a FAILED status and exited 0). */
function exitsOnFailedCheck(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > 0 || minor >= 9;
}

/**
 * What the worker returns for a failed `check` container (olake-helm `worker/executor/docker/
 * container.go` ErrExecutionFailed): the whole container log after "exited with status 1".
 */
function containerLog(version: string, result: ConnectionCheck): string {
  const at = iso();
  const lines = [
    `{"level":"info","time":"${at}","message":"OLake ${version} starting check for destination iceberg"}`,
    `{"level":"info","time":"${at}","message":"Starting Iceberg Java writer (JVM) on port 50051"}`,
    `{"level":"debug","time":"${at}","message":"writer config loaded: catalog_type, rest_catalog_url, iceberg_s3_path"}`,
    `{"level":"info","time":"${at}","message":"Creating namespace test_olake and table test_olake"}`,
    `{"level":"error","time":"${at}","message":"${result.message.replace(/"/g, '\\"')}"}`,
    `{"level":"fatal","time":"${at}","message":"check failed: ${result.message.replace(/"/g, '\\"')}"}`,
  ];
  return `connection test failed: workflow execution failed: activity error: container olake-check-${ulid().toLowerCase()} exited with status 1: ${lines.join('\n')}`;
}

/**
 * The destinations the jobs write to, as records of their own: in the OLake UI a job refers to a
 * destination row (olake-ui `server/internal/models/db.go`: Job.DestID, a foreign key), so no job
 * points at a destination the destinations list lacks.
 */
function destinationsOf(jobs: EmulatorJob[], project: string): EmulatorDestination[] {
  const byId = new Map<number, EmulatorDestination>();
  for (const job of jobs) {
    const { id, name, type, version, config } = job.destination;
    if (id === undefined || byId.has(id)) continue;
    byId.set(id, {
      id,
      name,
      type,
      version: version ?? '',
      config: config ?? '{}',
      created_at: job.created_at ?? iso(),
      updated_at: job.updated_at ?? iso(),
      created_by: job.created_by ?? 'admin',
      updated_by: job.updated_by ?? 'admin',
      project_id: project,
    });
  }
  return [...byId.values()];
}

export async function startOlakeUiEmulator(options: OlakeUiEmulatorOptions = {}): Promise<OlakeUiEmulator> {
  const users = new Map(Object.entries(options.users ?? { admin: 'password' }));
  const project = options.project ?? '123';
  const jobs = options.jobs ?? seedJobs(12, 1, Date.now(), project);
  const destinations = options.destinations ?? destinationsOf(jobs, project);
  const versions = options.versions ?? ['v0.9.4', 'v0.9.3', 'v0.9.2', 'v0.9.1'];
  const sessionTtlMs = options.sessionTtlMs ?? THIRTY_DAYS_S * 1000;
  const runDurationMs = options.runDurationMs ?? 8000;
  const check = options.checkDestination ?? checkIcebergConfig;
  const beego = options.mode === 'beego';
  const sessionsOn = options.sessions ?? true;
  const idleMs = options.idleTimeoutMs ?? 3_600_000;
  const uiVersion =
    options.uiVersion ?? (beego ? 'v0.4.1' : options.writeTimeoutMs !== undefined ? 'v0.4.3' : 'v0.4.6');
  const sessions = new Map<string, Session>();
  const requests: RecordedRequest[] = [];
  /** Runs started through the API: file_path → when they end by themselves. */
  const liveRuns = new Map<string, number>();
  /** Syncs triggered but not visible yet: job id → when their run appears. */
  const pendingStarts = new Map<number, number>();
  let fault: { fault: Fault; path?: RegExp } | undefined;

  /** The request's session; with SESSION_ON=false, none (the middleware lets it through anyway). */
  const sessionOf = (req: IncomingMessage) => {
    if (!sessionsOn) return undefined;
    const match = /(?:^|;\s*)olake-session=([^;]+)/.exec(req.headers.cookie ?? '');
    const session = match ? sessions.get(match[1] as string) : undefined;
    if (!session || session.expires <= Date.now()) return undefined;
    if (beego && Date.now() - session.seen > idleMs) return undefined;
    if (!users.has(session.username)) throw new HttpError(401, 'Invalid session: user not found');
    session.seen = Date.now();
    return session;
  };

  const startRun = (job: EmulatorJob, start: number) => {
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
  };

  /** Starts triggered runs whose time came and finishes API-started runs whose time is up. */
  const settle = (job: EmulatorJob) => {
    const due = pendingStarts.get(job.id);
    if (due !== undefined && due <= Date.now()) {
      pendingStarts.delete(job.id);
      startRun(job, due);
    }
    for (const task of job.tasks) {
      const end = liveRuns.get(task.file_path);
      if (task.status !== 'Running' || end === undefined || end > Date.now()) continue;
      liveRuns.delete(task.file_path);
      task.status = options.syncOutcome?.(job) ?? 'Completed';
      task.runtime = `${Math.round(runDurationMs / 1000)}s`;
      if (task.partial) task.logs.push(...completeLines(task, '\n'));
      if (task.status === 'Failed') task.logs.push(...failedEnd(job.id, end));
      else task.logs.push({ level: 'info', time: iso(end), message: 'Sync completed; state committed' });
    }
    const latest = job.tasks[0];
    if (latest) job.last_run_state = latest.status;
  };

  /** The list omits the config strings; the detail carries them; another project sees no runs. */
  const publicJob = (job: EmulatorJob, full: boolean, sameProject: boolean) => {
    settle(job);
    const { tasks: _tasks, stream_count: _count, ...rest } = job;
    const out: Record<string, unknown> = { ...rest };
    if (full) out.streams_config = streamsConfig(job);
    else {
      delete out.streams_config;
      out.source = { ...job.source, config: undefined };
      out.destination = { ...job.destination, config: undefined };
    }
    if (!sameProject) {
      delete out.last_run_time;
      delete out.last_run_state;
      delete out.last_run_type;
    }
    return JSON.parse(JSON.stringify(out)) as unknown;
  };

  /** GetJobByID: by id alone, whatever the project in the path. */
  const findJob = (id: string | undefined) => {
    const job = jobs.find((j) => String(j.id) === id);
    if (!job) throw new HttpError(404, `failed to get job: job not found: id ${id}`);
    return job;
  };

  const findTask = (filePath: string) => {
    for (const job of jobs) {
      const task = job.tasks.find((t) => t.file_path === filePath);
      if (task) return task;
    }
    return undefined;
  };

  function spa(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html><head><title>OLake</title></head><body><div id="root"></div></body></html>',
    );
  }

  /** Every route of the client's table (management/routes.ts), answered as the OLake UI answers it. */
  const handlers: { [Name in RouteName]: Handler } = {
    login: async ({ req, res }) => {
      const body = await readBody(req);
      if (
        !isObject(body) ||
        typeof body.username !== 'string' ||
        typeof body.password !== 'string' ||
        !body.username ||
        !body.password
      )
        throw new HttpError(400, 'Invalid request format');
      if (beego && !users.has(body.username))
        throw new HttpError(401, 'user not found, sign up first: record not found');
      if (users.get(body.username) !== body.password)
        throw new HttpError(
          401,
          beego
            ? 'Invalid credentials: crypto/bcrypt: hashedPassword is not the hash of the given password'
            : 'Invalid credentials',
        );
      const id = ulid();
      sessions.set(id, { username: body.username, expires: Date.now() + sessionTtlMs, seen: Date.now() });
      const secure = req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
      res.setHeader(
        'set-cookie',
        `olake-session=${id}; Path=/; Max-Age=${THIRTY_DAYS_S}; HttpOnly${secure}; SameSite=Lax`,
      );
      return ok(res, 'login successful', { username: body.username });
    },
    authCheck: ({ req, res }) => {
      if (!sessionOf(req)) throw new HttpError(401, 'Not authenticated');
      return ok(res, 'authenticated successfully');
    },
    telemetry: ({ res }) => ok(res, 'telemetry id retrieved', { user_id: 'emulator', version: uiVersion }),
    listJobs: ({ res, mine }) =>
      ok(
        res,
        'jobs listed successfully',
        (mine ? jobs : []).map((j) => publicJob(j, false, true)),
      ),
    getJob: ({ res, params, mine }) =>
      ok(res, `job '${params.id}' retrieved successfully`, publicJob(findJob(params.id), true, mine)),
    listTasks: ({ res, params, mine }) => {
      const job = findJob(params.id);
      settle(job);
      // `var tasks []dto.JobTask` stays nil when Temporal lists nothing: `"data": null`.
      const tasks = mine && job.tasks.length > 0 ? job.tasks.map(({ logs, partial, ...t }) => t) : null;
      return ok(res, `job '${job.id}' tasks listed successfully`, tasks);
    },
    taskLogs: async ({ req, res, url, params }) => {
      const job = findJob(params.id);
      const body = await readBody(req);
      if (!isObject(body) || typeof body.file_path !== 'string' || !body.file_path)
        throw new HttpError(400, 'failed to validate request: file_path is required');
      settle(job);
      const task = findTask(body.file_path);
      if (!task)
        throw new HttpError(
          500,
          `failed to get task logs: logs directory not found: /tmp/olake-config/${body.file_path}`,
        );
      return ok(
        res,
        'task logs retrieved successfully',
        pageLogs(logFile(task.logs, task.partial), url.searchParams),
      );
    },
    syncNow: ({ res, params, projectId, mine }) => {
      const job = findJob(params.id);
      if (!job.activate)
        throw new HttpError(500, 'failed to trigger sync: job is paused, please unpause to run sync');
      if (!mine)
        throw new HttpError(
          500,
          `failed to trigger sync: failed to trigger sync: schedule not found: schedule-sync-${projectId}-${job.id}`,
        );
      settle(job);
      const running = job.tasks[0]?.status === 'Running' || pendingStarts.has(job.id);
      if (!running) {
        const delay = options.syncStartDelayMs ?? 0;
        if (delay > 0) pendingStarts.set(job.id, Date.now() + delay);
        else startRun(job, Date.now());
      }
      return ok(res, `sync triggered successfully for job_id[${job.id}]`, {
        message: 'sync triggered successfully',
      });
    },
    setActive: async ({ req, res, params, session }) => {
      const username = userOf(session);
      const job = findJob(params.id);
      const body = await readBody(req);
      if (!isObject(body))
        throw new HttpError(
          400,
          `failed to validate request: ${body === undefined ? 'EOF' : 'json: cannot unmarshal into Go value of type dto.JobStatusRequest'}`,
        );
      // `Activate bool` has no binding: `{}` is false, and pauses the job.
      const activate = body.activate === true;
      if (job.activate !== activate) {
        job.activate = activate;
        job.updated_at = iso();
        job.updated_by = username;
      }
      return ok(res, `job ${job.id} ${activate ? 'resumed' : 'paused'} successfully`);
    },
    cancelRun: ({ res, params, mine }) => {
      const job = findJob(params.id);
      settle(job);
      const running = mine ? job.tasks.find((t) => t.status === 'Running') : undefined;
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
    },
    listDestinations: ({ res, projectId }) =>
      ok(
        res,
        'destinations listed successfully',
        destinations.filter((d) => d.project_id === projectId).map((d) => destinationItem(d)),
      ),
    destinationVersions: ({ res, url }) => {
      const type = url.searchParams.get('type');
      if (type !== 'iceberg' && type !== 'parquet')
        throw new HttpError(400, 'failed to validate request: type is required');
      return ok(res, 'destination versions retrieved successfully', { version: versions });
    },
    getDestination: ({ res, params }) => {
      const dest = destinations.find((d) => String(d.id) === params.id);
      if (!dest)
        throw new HttpError(404, `failed to get destination: destination not found: id ${params.id}`);
      return ok(res, `destination '${dest.id}' retrieved successfully`, destinationItem(dest));
    },
    testDestination: async ({ req, res }) => {
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
      const version = String(body.version);
      if (result.status === 'FAILED' && exitsOnFailedCheck(version))
        throw new HttpError(400, `failed to verify driver credentials: ${containerLog(version, result)}`);
      const logs: LogLine[] = [
        { level: 'info', time: iso(), message: `Running check for destination ${body.type} ${version}` },
        result.status === 'SUCCEEDED'
          ? { level: 'info', time: iso(), message: 'Connection check succeeded' }
          : { level: 'error', time: iso(), message: result.message },
      ];
      return ok(res, `destination ${body.type} connection tested successfully`, {
        connection_result: result,
        logs,
      });
    },
    createDestination: async ({ req, res, session, projectId }) => {
      const username = userOf(session);
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
      if (destinations.some((d) => d.name === body.name && d.project_id === projectId))
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
        created_by: username,
        updated_by: username,
        project_id: projectId,
      });
      return ok(res, `destination ${body.name} created successfully`, body);
    },
    checkUnique: async ({ req, res, projectId, mine }) => {
      const body = await readBody(req);
      if (
        !isObject(body) ||
        !body.name ||
        !['job', 'source', 'destination'].includes(String(body.entity_type))
      )
        throw new HttpError(400, 'failed to validate request: name and entity_type are required');
      const scoped = mine ? jobs : [];
      const names =
        body.entity_type === 'destination'
          ? destinations.filter((d) => d.project_id === projectId).map((d) => d.name)
          : body.entity_type === 'job'
            ? scoped.map((j) => j.name)
            : scoped.map((j) => j.source.name);
      if (names.includes(String(body.name)))
        throw new HttpError(409, `${body.entity_type} name '${body.name}' is not unique`);
      return ok(res, 'name is unique', { unique: true });
    },
  };

  /** Routes the emulator serves beyond the client's table: docker compose's signup-init. */
  async function signup(req: IncomingMessage, res: ServerResponse): Promise<void> {
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

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const path = url.pathname;
    if (path === '/health' && method === 'GET' && !beego) return send(res, 200, { status: 'ok' });
    if (path === '/signup' && method === 'POST') return signup(req, res);
    const top = TOP_ROUTES.find(([, r]) => r.method === method && r.path === path);
    if (top)
      return handlers[top[0]]({ req, res, url, params: {}, session: undefined, projectId: '', mine: false });
    if (!path.startsWith('/api/') && !path.startsWith('/internal/')) return spa(res);
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== 'api' || parts[1] !== 'v1') throw new HttpError(404, 'not found');
    const session = sessionOf(req);
    if (!session && sessionsOn) throw new HttpError(401, 'Unauthorized, try login again');
    const match = matchApiRoute(method, parts);
    if (!match) throw new HttpError(404, 'not found');
    const projectId = match.params.project ?? '';
    const call = { req, res, url, params: match.params, session, projectId, mine: projectId === project };
    return handlers[match.name](call);
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
    if (options.writeTimeoutMs !== undefined) deadlines.set(res, Date.now() + options.writeTimeoutMs);
    void (async () => {
      try {
        if (fault && (!fault.path || fault.path.test(url.pathname)) && (await applyFault(res, fault.fault)))
          return;
        await route(req, res, url);
      } catch (error) {
        if (res.headersSent) return void res.destroy();
        const unmatched = error instanceof HttpError && error.status === 404 && error.message === 'not found';
        if (unmatched && beego) {
          // `web.Router("/*", …, "get:ServeFrontend")`; other methods get Beego's own 404 page.
          if (req.method === 'GET') return spa(res);
          res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
          return void res.end('<html><body><h1>404</h1><p>Page Not Found</p></body></html>');
        }
        // Gin's NoRoute handler writes gin.H, whose keys come out sorted.
        if (unmatched) send(res, 404, { message: 'not found', success: false });
        else if (error instanceof HttpError)
          send(res, beego && error.status === 404 ? 500 : error.status, {
            success: false,
            message: error.message,
          });
        else {
          logFailure(options.log, 'olake-ui', req, error);
          send(res, 500, { success: false, message: `internal error: ${(error as Error).message}` });
        }
      }
    })();
  });
  logRequests(server, 'olake-ui', options.log);
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
    appendLog(filePath, text) {
      const task = findTask(filePath);
      if (!task) throw new Error(`no run ${filePath}`);
      task.logs.push(...completeLines(task, text));
    },
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
