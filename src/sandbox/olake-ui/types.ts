// The OLake UI emulator's public types and what its route handlers share (the call, the session).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ROUTES } from '../../management/routes.js';
import type { SandboxLog } from '../log.js';
import type { ConnectionCheck } from './check.js';
import type { EmulatorJob } from './seed.js';

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

export interface Session {
  username: string;
  expires: number;
  seen: number;
}

export type RouteName = keyof typeof ROUTES;

/** What a route's handler gets: the request, the route's `:name` parameters (decoded) and the session. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  session: Session | undefined;
  /** The path's `:project` ('' outside /api/), and whether it is the emulator's project. */
  projectId: string;
  mine: boolean;
}
export type Handler = (call: Call) => void | Promise<void>;
/** A handler for every route of the client's table (management/routes.ts): tsc fails on a missing one. */
export type Handlers = { [Name in RouteName]: Handler };
