// The OLake UI emulator's state (users, sessions, jobs, destinations, runs) and what the handlers do
// with its jobs and runs: a sync's run starts and ends as olake-ui's Temporal workflow would
// (`services/temporal/client.go`), a job reads back as `services/etl/job.go` builds it.
import type { LogLine } from '../../management/types.js';
import { type ConnectionCheck, checkIcebergConfig } from './check.js';
import { HttpError, isObject, iso } from './http.js';
import {
  type EmulatorJob,
  type EmulatorTask,
  failedEnd,
  seedJobs,
  streamsConfig,
  taskLogs,
  workflowId,
} from './seed.js';
import type { EmulatorDestination, OlakeUiEmulatorOptions, Session } from './types.js';

export const THIRTY_DAYS_S = 30 * 24 * 60 * 60;

export interface UiState {
  options: OlakeUiEmulatorOptions;
  users: Map<string, string>;
  project: string;
  jobs: EmulatorJob[];
  destinations: EmulatorDestination[];
  versions: string[];
  sessionTtlMs: number;
  runDurationMs: number;
  check: (config: unknown) => Promise<ConnectionCheck>;
  beego: boolean;
  sessionsOn: boolean;
  idleMs: number;
  uiVersion: string;
  sessions: Map<string, Session>;
  /** Runs started through the API: file_path → when they end by themselves. */
  liveRuns: Map<string, number>;
  /** Syncs triggered but not visible yet: job id → when their run appears. */
  pendingStarts: Map<number, number>;
}

export function createState(options: OlakeUiEmulatorOptions): UiState {
  const project = options.project ?? '123';
  const jobs = options.jobs ?? seedJobs(12, 1, Date.now(), project);
  const beego = options.mode === 'beego';
  return {
    options,
    users: new Map(Object.entries(options.users ?? { admin: 'password' })),
    project,
    jobs,
    destinations: options.destinations ?? destinationsOf(jobs, project),
    versions: options.versions ?? ['v0.9.4', 'v0.9.3', 'v0.9.2', 'v0.9.1'],
    sessionTtlMs: options.sessionTtlMs ?? THIRTY_DAYS_S * 1000,
    runDurationMs: options.runDurationMs ?? 8000,
    check: options.checkDestination ?? checkIcebergConfig,
    beego,
    sessionsOn: options.sessions ?? true,
    idleMs: options.idleTimeoutMs ?? 3_600_000,
    uiVersion:
      options.uiVersion ?? (beego ? 'v0.4.1' : options.writeTimeoutMs !== undefined ? 'v0.4.3' : 'v0.4.6'),
    sessions: new Map(),
    liveRuns: new Map(),
    pendingStarts: new Map(),
  };
}

/** Adds raw bytes to a run's log; returns the lines they complete (non-JSON lines are dropped). */
export function completeLines(task: EmulatorTask, text: string): LogLine[] {
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

/**
 * A run's lines spread over the first 90 % of its time, the first at its start: a sync writes its log
 * as it goes, so one that is followed shows lines coming and its end soon after it (runLog shows the
 * lines whose time has come).
 */
function spreadOver(lines: LogLine[], start: number, durationMs: number): LogLine[] {
  const first = Date.parse(lines[0]?.time ?? '');
  const span = Date.parse(lines.at(-1)?.time ?? '') - first;
  if (!(span > 0)) return lines.map((line) => ({ ...line, time: iso(start) }));
  return lines.map((line) => ({
    ...line,
    time: iso(start + ((Date.parse(line.time) - first) * 0.9 * durationMs) / span),
  }));
}

export function startRun(state: UiState, job: EmulatorJob, start: number): void {
  const task: EmulatorTask = {
    runtime: '',
    start_time: iso(start),
    status: 'Running',
    file_path: workflowId(state.project, job.id, new Date(start)),
    job_type: 'sync',
    logs: spreadOver(taskLogs(job, start, 'Running', Math.random), start, state.runDurationMs),
  };
  job.tasks.unshift(task);
  state.liveRuns.set(task.file_path, start + state.runDurationMs);
  job.last_run_time = task.start_time;
  job.last_run_state = 'Running';
  job.last_run_type = 'sync';
}

/** Starts triggered runs whose time came and finishes API-started runs whose time is up. */
export function settle(state: UiState, job: EmulatorJob): void {
  const due = state.pendingStarts.get(job.id);
  if (due !== undefined && due <= Date.now()) {
    state.pendingStarts.delete(job.id);
    startRun(state, job, due);
  }
  for (const task of job.tasks) {
    const end = state.liveRuns.get(task.file_path);
    if (task.status !== 'Running' || end === undefined || end > Date.now()) continue;
    state.liveRuns.delete(task.file_path);
    task.status = state.options.syncOutcome?.(job) ?? 'Completed';
    task.runtime = `${Math.round(state.runDurationMs / 1000)}s`;
    if (task.partial) task.logs.push(...completeLines(task, '\n'));
    if (task.status === 'Failed') task.logs.push(...failedEnd(job.id, end));
    else task.logs.push({ level: 'info', time: iso(end), message: 'Sync completed; state committed' });
  }
  const latest = job.tasks[0];
  if (latest) job.last_run_state = latest.status;
}

/** What a run's log holds now: a run started through the API has written the lines whose time has come. */
export function runLog(state: UiState, task: EmulatorTask): LogLine[] {
  if (!state.liveRuns.has(task.file_path)) return task.logs;
  const now = Date.now();
  const written = task.logs.findIndex((line) => Date.parse(line.time) > now);
  return written === -1 ? task.logs : task.logs.slice(0, written);
}

/** The list omits the config strings; the detail carries them; another project sees no runs. */
export function publicJob(state: UiState, job: EmulatorJob, full: boolean, sameProject: boolean): unknown {
  settle(state, job);
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
}

/** GetJobByID: by id alone, whatever the project in the path. */
export function findJob(state: UiState, id: string | undefined): EmulatorJob {
  const job = state.jobs.find((j) => String(j.id) === id);
  if (!job) throw new HttpError(404, `failed to get job: job not found: id ${id}`);
  return job;
}

export function findTask(state: UiState, filePath: string): EmulatorTask | undefined {
  for (const job of state.jobs) {
    const task = job.tasks.find((t) => t.file_path === filePath);
    if (task) return task;
  }
  return undefined;
}
