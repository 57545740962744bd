// floe jobs: the jobs of an OLake UI project. Interactive browser on a terminal; `--json`, a table, or
// one action (show, sync, pause, resume, cancel, tasks, logs, test) otherwise.

import { openManagement } from '../app/management.js';
import { parseTimeout } from '../app/timeout.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { printJson, type Writer } from '../cli/output.js';
import { actionDone, serverSaid } from '../management/actions.js';
import { explained } from '../management/exit.js';
import { pickTask, publicJob, resolveJob, sortTasks } from '../management/jobref.js';
import { prepareJobTest } from '../management/jobtest-prepare.js';
import { type Session, urlFlag } from '../management/session.js';
import { type SyncOutcome, syncAndConfirm } from '../management/sync.js';
import type { Job } from '../management/types.js';
import { sanitize } from '../text/sanitize.js';
import { scheduleText } from '../ui/jobs/cron.js';
import { loadScreen } from '../ui/load.js';
import { diagnoseLogs, followLogs, followSync, printLogs } from './jobs-logs.js';
import { showJob } from './jobs-show.js';
import { jobTestSources, testJob } from './jobs-test.js';

export const HELP = `Usage: floe jobs [--json] [--project ID] [--url URL] [--refresh SECONDS]
       floe jobs show ID [--json]
       floe jobs sync ID [--follow] [--json]
       floe jobs pause|resume|cancel ID
       floe jobs tasks ID [--json]
       floe jobs logs ID [--task TASK] [--limit N] [--follow] [--diagnose] [--json]
       floe jobs test ID [--profile NAME] [--read-only] [--timeout SECONDS] [--json]

Without an action: the interactive jobs browser on a terminal; a table (or --json) otherwise.
ID is a job's number or its exact name (floe jobs show mysql_orders_2); a name several jobs share
lists them (exit 2).
Actions:
  list        print the jobs as a table (what a non-terminal run does by default)
  show ID     a job's detail: schedule, source, destination, streams (secrets never shown)
  sync ID     start a sync now, then say whether a run started, is still pending, or was skipped
              because one is running (exit 1); with --follow, print the new run's log to its end,
              then its diagnosis when it failed (exit 1 unless the run completed)
  pause ID / resume ID   pause or resume the schedule
  cancel ID   cancel the running sync
  tasks ID    list the runs of a job
  logs ID     print a run's log lines (default: the latest run)
  test ID     floe's connection test on the destination config the OLake UI holds for the job
              (nothing is saved; hidden secrets come from a local profile of the same catalog)

Flags:
  --project ID        project (default: the one "floe login" saved, else 123)
  --url URL           the OLake UI (default: the one "floe login" used)
  --json              machine-readable output on stdout (sync --follow: the run and its diagnoses)
  --task TASK         for logs: a run's number in "floe jobs tasks" (1 = latest) or its file path
  --limit N           for logs: how many of the last lines (default 1000)
  --follow            for logs: keep printing new lines of a running job until it ends (Ctrl-C stops);
                      for sync: follow the run the sync started (Ctrl-C stops following, not the sync)
  --diagnose          for logs: what went wrong in the run (what, cause, remedy, evidence);
                      exits 1 when the run's log shows a failure, 0 when it shows none
  --profile NAME      for test: take hidden secrets from this profile (default: one with the same
                      catalog URL) and name the keys that differ from it
  --read-only         for test: skip the object-store writes (PUT/GET/DELETE of a probe object)
  --timeout SECONDS   for test: timeout of each request (default 10, at most 300), as floe test
  --refresh SECONDS   browser refresh interval (default 10)
  --help              this help

Uses the session stored by "floe login"; when it has expired floe logs in again with FLOE_PASSWORD
or the remembered password (or asks, on a terminal). Exit codes: 0 ok, 1 failure, 2 usage,
4 not logged in.`;

export const ACTIONS = [
  'sync',
  'pause',
  'resume',
  'cancel',
  'tasks',
  'logs',
  'list',
  'show',
  'test',
] as const;
type Action = (typeof ACTIONS)[number];

/** `sync --follow` waits up to this many seconds for the run the sync starts. */
const SYNC_FOLLOW_POLLS = 60;

function needId(raw: string | undefined, action: string): string {
  if (raw === undefined || raw.trim() === '')
    throw new UsageError(
      [`"${action}" needs a job ID (its number or name), e.g. floe jobs ${action} 3`],
      'jobs',
    );
  return raw;
}

function positive(raw: string | undefined, flag: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError([`${flag} must be a positive number, not "${raw}"`], 'jobs');
  return n;
}

/** The server parses limit with strconv.Atoi and silently uses 1000 for anything else. */
function positiveInteger(raw: string | undefined, flag: string, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^[1-9]\d{0,8}$/.test(raw))
    throw new UsageError([`${flag} must be a whole number of lines, e.g. ${flag} 200, not "${raw}"`], 'jobs');
  return Number(raw);
}

function lastRun(job: Job): string {
  if (!job.last_run_state) return 'never ran';
  const state = job.last_run_state.toLowerCase();
  const glyph = state === 'completed' ? '✓' : state === 'running' ? '●' : state === 'failed' ? '✗' : '○';
  return `${glyph} ${job.last_run_state} ${job.last_run_time ?? ''}`.trim();
}

/** Prints rows as aligned columns, measured as shown (a control character in a cell shows as ^X). */
function printTable(out: Writer, cells: string[][]): void {
  const rows = cells.map((row) => row.map((cell) => sanitize(cell)));
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  for (const row of rows)
    out`${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')}`;
}

export interface Options extends ActOptions {
  help: boolean;
  action: Action;
  /** The job's number or name; '' for list. */
  ref: string;
  /** `floe jobs` with no action: the browser on a terminal (unless --json). */
  bare: boolean;
  project?: string;
  url?: string;
  refreshMs?: number;
}

/** The Options of a bare `floe jobs` (the browser on a terminal; the home screen's j). */
export function options(): Options {
  return {
    help: false,
    action: 'list',
    ref: '',
    bare: true,
    json: false,
    limit: 1000,
    follow: false,
    diagnose: false,
    readOnly: false,
    timeoutMs: parseTimeout(undefined, 'jobs'),
  };
}

export function parse(argv: string[]): Options {
  const { values: flags, positionals } = parseCommandArgs(
    'jobs',
    argv,
    {
      project: { type: 'string' },
      url: { type: 'string' },
      json: { type: 'boolean' },
      task: { type: 'string' },
      limit: { type: 'string' },
      refresh: { type: 'string' },
      follow: { type: 'boolean' },
      diagnose: { type: 'boolean' },
      profile: { type: 'string' },
      'read-only': { type: 'boolean' },
      timeout: { type: 'string' },
      help: { type: 'boolean' },
    },
    true,
  );
  if (flags.help) return { ...options(), help: true };
  const [rawAction, rawId, ...extra] = positionals;
  if (rawAction !== undefined && !ACTIONS.includes(rawAction as Action))
    throw new UsageError([`unknown action "${rawAction}"; use one of ${ACTIONS.join(', ')}`], 'jobs');
  if (extra.length > 0) throw new UsageError([`unexpected argument "${extra[0]}"`], 'jobs');
  const action = (rawAction ?? 'list') as Action;
  if (action === 'list' && rawId !== undefined)
    throw new UsageError([`unexpected argument "${rawId}"`], 'jobs');
  const ref = action === 'list' ? '' : needId(rawId, action);
  const limit = positiveInteger(flags.limit, '--limit', 1000);
  if (flags.follow && action !== 'logs' && action !== 'sync')
    throw new UsageError(
      [`--follow goes with "logs" or "sync", e.g. floe jobs sync ${rawId ?? 3} --follow`],
      'jobs',
    );
  if (flags.diagnose && action !== 'logs')
    throw new UsageError(
      [`--diagnose goes with "logs", e.g. floe jobs logs ${rawId ?? 3} --diagnose`],
      'jobs',
    );
  if ((flags.profile !== undefined || flags['read-only'] || flags.timeout !== undefined) && action !== 'test')
    throw new UsageError(
      [
        `--${flags.profile !== undefined ? 'profile' : flags['read-only'] ? 'read-only' : 'timeout'} goes with "test", e.g. floe jobs test 3 --profile lake`,
      ],
      'jobs',
    );
  const timeoutMs = parseTimeout(flags.timeout, 'jobs');
  if (flags.follow && flags.diagnose)
    throw new UsageError(
      ['--follow and --diagnose do not go together; diagnose a run once it ended'],
      'jobs',
    );
  const refreshMs = flags.refresh === undefined ? undefined : positive(flags.refresh, '--refresh', 10) * 1000;
  const url = urlFlag(flags.url, 'jobs');
  return {
    help: false,
    action,
    ref,
    bare: rawAction === undefined,
    json: Boolean(flags.json),
    limit,
    follow: Boolean(flags.follow),
    diagnose: Boolean(flags.diagnose),
    readOnly: Boolean(flags['read-only']),
    timeoutMs,
    task: flags.task,
    profile: flags.profile,
    project: flags.project,
    url,
    refreshMs,
  };
}

export async function run(options: Options, io: Io): Promise<number> {
  if (options.help) return showHelp(HELP, io);
  const { action, ref, refreshMs } = options;
  const browse = action === 'list' && options.bare && !options.json && io.canPrompt();

  // The browser asks for the password itself, on its own screen; without a session, the sign-in form.
  const session = browse
    ? await browserSession(io, options)
    : await openManagement(io, 'jobs', options, { prompt: io.canPrompt() });
  if (typeof session === 'number') return session;
  try {
    if (browse) {
      const { runJobsBrowser } = await loadScreen(() => import('../ui/jobs/index.js'));
      return await explained(() =>
        runJobsBrowser({
          api: session.client,
          project: session.project,
          refreshMs,
          relogin: session.relogin,
          account: { url: session.url, username: session.username, hadSession: session.hadSession },
          prepareTest: async (job, typed) =>
            prepareJobTest(job, { ...(await jobTestSources(io)), typed, collect: true }),
          env: io.env,
          prepareTables: async (job) =>
            (await import('./jobs-tables.js')).prepareJobTables(job, {
              env: io.env,
              prepare: async (j) => prepareJobTest(j, { ...(await jobTestSources(io)), collect: true }),
            }),
        }),
      );
    }
    return await explained(async () =>
      act(io, session, action, action === 'list' ? { id: 0 } : await resolveJob(session, ref), options),
    );
  } finally {
    await session.client.close();
  }
}

/** The session the browser needs; not logged in, the sign-in form first (Esc: the "not logged in" error). */
async function browserSession(io: Io, flags: Pick<Options, 'url' | 'project'>): Promise<Session | number> {
  try {
    return await openManagement(io, 'jobs', flags, { prompt: false });
  } catch (error) {
    if (!(error instanceof FloeError) || error.exitCode !== EXIT.AUTH) throw error;
    const { signInOnScreen } = await import('./login-screen.js');
    const outcome = await signInOnScreen(io, error.message, flags.url);
    if (outcome === 'interrupt') return EXIT.INTERRUPTED;
    if (outcome === 'back') throw error;
    return openManagement(io, 'jobs', flags, { prompt: false });
  }
}

interface ActOptions {
  json: boolean;
  task?: string;
  limit: number;
  follow: boolean;
  diagnose: boolean;
  profile?: string;
  readOnly: boolean;
  timeoutMs: number;
}

async function act(
  io: Io,
  session: Session,
  action: Action,
  job: { id: number; name?: string },
  opts: ActOptions,
): Promise<number> {
  const { client, project } = session;
  const { id } = job;
  switch (action) {
    case 'list': {
      const jobs = (await client.listJobs(project)).map(publicJob);
      if (opts.json) printJson(jobs, io.out);
      else if (jobs.length === 0) io.out`No jobs in project ${project} at ${session.url}.`;
      else
        printTable(io.out, [
          ['ID', 'NAME', 'SCHEDULE', 'FREQUENCY', 'LAST RUN'],
          ...jobs.map((j) => [
            String(j.id),
            j.name,
            j.activate ? '● active' : '‖ paused',
            scheduleText(j.frequency),
            lastRun(j),
          ]),
        ]);
      return EXIT.OK;
    }
    case 'sync': {
      let outcome: SyncOutcome;
      try {
        // Following waits longer for the new run to appear: a busy server may start it late.
        outcome = await syncAndConfirm(client, project, id, opts.follow ? { polls: SYNC_FOLLOW_POLLS } : {});
      } catch (error) {
        const message = error instanceof Error ? error.message : '';
        if (/paused/i.test(message))
          throw new FloeError(`${message}.`, `Resume the schedule first: floe jobs resume ${id}`);
        throw error;
      }
      if (outcome.kind === 'skipped')
        throw new FloeError(`${outcome.text}.`, `Wait for it to end, or cancel it: floe jobs cancel ${id}`);
      if (outcome.kind === 'started' && opts.follow)
        return followSync(io, { api: client, project, id, task: outcome.run }, opts.limit, opts.json);
      if (outcome.kind === 'started') io.out`✓ ${outcome.text}`;
      else if (opts.follow)
        throw new FloeError(
          `${outcome.text}.`,
          `See "floe jobs tasks ${id}", then "floe jobs logs ${id} --follow".`,
        );
      else io.out`! ${outcome.text}; see "floe jobs tasks ${id}" in a moment.`;
      return EXIT.OK;
    }
    case 'show':
      return showJob(io.out, client, project, id, opts.json);
    case 'test':
      return testJob(io, session, id, {
        profile: opts.profile,
        json: opts.json,
        readOnly: opts.readOnly,
        timeoutMs: opts.timeoutMs,
      });
    case 'pause':
    case 'resume':
    case 'cancel': {
      const said =
        action === 'cancel'
          ? await client.cancelRun(project, id)
          : await client.setActive(project, id, action === 'resume');
      io.out`✓ ${actionDone(action, id, job.name)}`;
      if (serverSaid(said)) io.out`  ${serverSaid(said)}`;
      return EXIT.OK;
    }
    case 'tasks': {
      const tasks = sortTasks(await client.listTasks(project, id));
      if (opts.json) printJson(tasks, io.out);
      else if (tasks.length === 0) io.out`Job ${id} has never run.`;
      else
        printTable(io.out, [
          ['#', 'STARTED', 'STATUS', 'RUNTIME', 'FILE PATH'],
          ...tasks.map((t, i) => [String(i + 1), t.start_time, t.status, t.runtime || '-', t.file_path]),
        ]);
      return EXIT.OK;
    }
    case 'logs': {
      const task = pickTask(await client.listTasks(project, id), opts.task, id);
      const target = { api: client, project, id, task };
      if (opts.diagnose) return diagnoseLogs(io, target, opts.json);
      if (opts.follow) return followLogs(io, target, opts.limit, opts.json);
      return printLogs(io, target, opts.limit, opts.json);
    }
  }
}
