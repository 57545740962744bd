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
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ManagementRoute, ROUTES } from '../../management/routes.js';
import { hostileAnswers } from '../hostile.js';
import { logFailure, logRequests } from '../log.js';
import { authHandlers, sessionOf, signup } from './auth.js';
import { destinationTestHandlers } from './destination-test.js';
import { destinationHandlers } from './destinations.js';
import { deadlines, HttpError, send, spa } from './http.js';
import { jobHandlers } from './jobs.js';
import { runHandlers } from './runs.js';
import { completeLines, createState, findTask, type UiState } from './state.js';
import type {
  Fault,
  Handlers,
  OlakeUiEmulator,
  OlakeUiEmulatorOptions,
  RecordedRequest,
  RouteName,
} from './types.js';

export type {
  EmulatorDestination,
  Fault,
  FaultOptions,
  OlakeUiEmulator,
  OlakeUiEmulatorOptions,
  RecordedRequest,
} from './types.js';

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

/** Every route of the client's table (management/routes.ts), answered as the OLake UI answers it. */
function handlersOf(state: UiState): Handlers {
  return {
    ...authHandlers(state),
    ...jobHandlers(state),
    ...runHandlers(state),
    ...destinationHandlers(state),
    ...destinationTestHandlers(state),
  };
}

async function route(
  state: UiState,
  handlers: Handlers,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const method = req.method ?? 'GET';
  const path = url.pathname;
  if (path === '/health' && method === 'GET' && !state.beego) return send(res, 200, { status: 'ok' });
  if (path === '/signup' && method === 'POST') return signup(state, req, res);
  const top = TOP_ROUTES.find(([, r]) => r.method === method && r.path === path);
  if (top)
    return handlers[top[0]]({ req, res, url, params: {}, session: undefined, projectId: '', mine: false });
  if (!path.startsWith('/api/') && !path.startsWith('/internal/')) return spa(res);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== 'api' || parts[1] !== 'v1') throw new HttpError(404, 'not found');
  const session = sessionOf(state, req);
  if (!session && state.sessionsOn) throw new HttpError(401, 'Unauthorized, try login again');
  const match = matchApiRoute(method, parts);
  if (!match) throw new HttpError(404, 'not found');
  const projectId = match.params.project ?? '';
  const call = { req, res, url, params: match.params, session, projectId, mine: projectId === state.project };
  return handlers[match.name](call);
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

/** An error as the server answers it: Gin's NoRoute, Beego's SPA and 404 page, the JSON envelope. */
function answerError(state: UiState, req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (res.headersSent) return void res.destroy();
  const unmatched = error instanceof HttpError && error.status === 404 && error.message === 'not found';
  if (unmatched && state.beego) {
    // `web.Router("/*", …, "get:ServeFrontend")`; other methods get Beego's own 404 page.
    if (req.method === 'GET') spa(res);
    else {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><body><h1>404</h1><p>Page Not Found</p></body></html>');
    }
    return;
  }
  // Gin's NoRoute handler writes gin.H, whose keys come out sorted.
  if (unmatched) send(res, 404, { message: 'not found', success: false });
  else if (error instanceof HttpError)
    send(res, state.beego && error.status === 404 ? 500 : error.status, {
      success: false,
      message: error.message,
    });
  else {
    logFailure(state.options.log, 'olake-ui', req, error);
    send(res, 500, { success: false, message: `internal error: ${(error as Error).message}` });
  }
}

export async function startOlakeUiEmulator(options: OlakeUiEmulatorOptions = {}): Promise<OlakeUiEmulator> {
  const state = createState(options);
  const handlers = handlersOf(state);
  const requests: RecordedRequest[] = [];
  let fault: { fault: Fault; path?: RegExp } | undefined;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, cookie: req.headers.cookie });
    if (options.writeTimeoutMs !== undefined) deadlines.set(res, Date.now() + options.writeTimeoutMs);
    void (async () => {
      try {
        if (fault && (!fault.path || fault.path.test(url.pathname)) && (await applyFault(res, fault.fault)))
          return;
        await route(state, handlers, req, res, url);
      } catch (error) {
        answerError(state, req, res, error);
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
    jobs: state.jobs,
    destinations: state.destinations,
    appendLog(filePath, text) {
      const task = findTask(state, filePath);
      if (!task) throw new Error(`no run ${filePath}`);
      task.logs.push(...completeLines(task, text));
    },
    setFault(next, faultOptions = {}) {
      fault = next ? { fault: next, path: faultOptions.path } : undefined;
    },
    expireSessions() {
      state.sessions.clear();
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
