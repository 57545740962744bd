// floe jobs logs: print a run's log, follow a running one (--follow), or say what went wrong
// (--diagnose), through the OLake UI's log pages.

import type { Diagnosis } from '../check/types.js';
import type { Io } from '../cli/command-io.js';
import { guarded } from '../cli/interrupt.js';
import { EXIT } from '../cli/io.js';
import { joined, line, printJson, type Shown } from '../cli/output.js';
import { diagnosisLines } from '../connection/text.js';
import { diagnoseLog, runHosts } from '../management/diagnose.js';
import { followStep, followTail } from '../management/follow.js';
import { readWholeLog } from '../management/logs.js';
import type { JobsApi, LogLine, Task } from '../management/types.js';

export const FOLLOW_POLL_MS = 1000;
/** A quiet log is polled less and less often, down to this. */
export const FOLLOW_MAX_POLL_MS = 8000;
/** Pages read back to back (a burst of lines) before a pause, whatever the server says is waiting. */
const FOLLOW_BURST_PAGES = 50;
/** Following ends when a running run has written nothing for this long. */
export const FOLLOW_IDLE_END_MS = 60 * 60 * 1000;
/** A diagnosis reads the whole log, up to this many lines from the end. */
const DIAGNOSE_MAX_LINES = 50_000;

function logLine(entry: LogLine): Shown {
  return line`${entry.time} ${entry.level.toUpperCase().padEnd(5)} ${entry.message}`;
}

/** Where the log and the messages about it go. */
export type Streams = Pick<Io, 'out' | 'err'>;

export interface LogsTarget {
  api: JobsApi;
  project: string;
  id: number;
  task: Task;
}

export async function printLogs(io: Streams, t: LogsTarget, limit: number, json: boolean): Promise<number> {
  const page = await t.api.taskLogs(t.project, t.id, t.task, { cursor: -1, limit, direction: 'older' });
  if (json) printJson({ task: t.task, ...page }, io.out);
  else {
    io.err`Run ${t.task.file_path} (${t.task.status}, started ${t.task.start_time})`;
    for (const entry of page.logs) io.out`${logLine(entry)}`;
    if (page.has_more_older) io.err`(older lines not shown; raise --limit to see more than ${limit})`;
  }
  return EXIT.OK;
}

/** Waits `ms`, or less when `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Prints the last `limit` lines, then every new line until the run is no longer running. */
export async function followLogs(io: Streams, t: LogsTarget, limit: number, json: boolean): Promise<number> {
  io.err`Following run ${t.task.file_path} (${t.task.status}); Ctrl-C stops.`;
  await follow(io, t, limit, (entry) => (json ? printJson(entry, io.out, 0) : io.out`${logLine(entry)}`));
  return EXIT.OK;
}

/**
 * Prints (through `print`) the last `limit` lines, then every new line until the run is no longer
 * running or `signal` aborts; returns the run as last listed (undefined when it is no longer listed, or
 * when following stopped before it ended).
 */
async function follow(
  io: Streams,
  t: LogsTarget,
  limit: number,
  print: (entry: LogLine) => void,
  signal?: AbortSignal,
): Promise<Task | undefined> {
  const tail = await followTail(t.api, t.project, t.id, t.task, limit, signal);
  tail.lines.forEach(print);
  let cursor = tail.next;
  let running = t.task.status.toLowerCase() === 'running';
  let ended: Task | undefined = running ? undefined : t.task;
  let pause = FOLLOW_POLL_MS;
  let burst = 0;
  let lastLine = Date.now();
  for (;;) {
    if (signal?.aborted) return undefined;
    const step = await followStep(t.api, t.project, t.id, t.task, cursor, 1000, signal);
    step.lines.forEach(print);
    cursor = step.next;
    if (step.lines.length > 0) {
      lastLine = Date.now();
      pause = FOLLOW_POLL_MS;
    }
    // Catch up on a burst at once, but a page at a time only so often: then poll as usual.
    if (step.more && ++burst < FOLLOW_BURST_PAGES) continue;
    burst = 0;
    if (!running) break;
    if (Date.now() - lastLine > FOLLOW_IDLE_END_MS) {
      io.err`No new line for ${FOLLOW_IDLE_END_MS / 60_000} min; stopped following (the run is still running). "floe jobs logs ${t.id} --follow" starts again.`;
      return undefined;
    }
    await sleep(pause, signal);
    if (signal?.aborted) return undefined;
    pause = Math.min(pause * 2, FOLLOW_MAX_POLL_MS);
    const now = (await t.api.listTasks(t.project, t.id, signal)).find(
      (x) => x.file_path === t.task.file_path,
    );
    running = now?.status.toLowerCase() === 'running';
    if (!running) {
      ended = now;
      io.err`Run ended: ${now?.status ?? 'no longer listed'}.`;
    }
  }
  return ended;
}

/**
 * `floe jobs sync ID --follow`: the run the sync started, followed to its end; a failed end is
 * diagnosed as `floe jobs logs ID --diagnose` does. Exit 0 when the run completed, 1 otherwise. Ctrl-C
 * stops following only: nothing is sent to the server, the sync goes on.
 */
export async function followSync(io: Streams, t: LogsTarget, limit: number, json: boolean): Promise<number> {
  io.err`Sync started: following run ${t.task.file_path}. Ctrl-C stops following, not the sync ("floe jobs cancel ${t.id}" stops the sync).`;
  let stopped = false;
  const ended = await guarded(
    async (signal) => {
      const last = await follow(io, t, limit, json ? () => {} : (entry) => io.out`${logLine(entry)}`, signal);
      stopped = signal.aborted;
      return last;
    },
    undefined,
    `floe: stopped following; the sync goes on ("floe jobs logs ${t.id} --follow" follows it again, "floe jobs cancel ${t.id}" stops it).`,
  );
  if (stopped) return EXIT.INTERRUPTED;
  const run = ended ?? { ...t.task, status: 'no longer listed' };
  const completed = run.status.toLowerCase() === 'completed';
  const diagnoses = completed ? [] : (await diagnosed({ ...t, task: run })).diagnoses;
  const code = completed ? EXIT.OK : EXIT.FAILURE;
  if (json) printJson({ run, diagnoses }, io.out);
  else if (diagnoses.length > 0) io.out`${joined(diagnosisText(diagnoses))}`;
  else if (!completed) io.out`✗ Run ${run.file_path} ended ${run.status}; its log names no error.`;
  else io.out`✓ Run ${run.file_path} completed.`;
  return code;
}

function diagnosisText(diagnoses: Diagnosis[]): Shown[] {
  return diagnoses.flatMap((d) => {
    const { heading, rows } = diagnosisLines(d);
    return [line`${heading}`, ...rows.map(([label, text]) => line`  ${label.padEnd(9)}${text}`)];
  });
}

/** The run's whole log (up to DIAGNOSE_MAX_LINES) and what went wrong in it. */
async function diagnosed(t: LogsTarget): Promise<{ lines: LogLine[]; diagnoses: Diagnosis[] }> {
  const lines = await readWholeLog(t.api, t.project, t.id, t.task, DIAGNOSE_MAX_LINES);
  // The job's hosts sharpen attribution; without them the lines still say what they can.
  const hosts = await t.api.getJob(t.project, t.id).then(runHosts, () => ({}));
  return { lines, diagnoses: diagnoseLog(lines, hosts) };
}

/** Exits 1 when the log shows a failure (a diagnosis, recognized or not), 0 when it shows none. */
export async function diagnoseLogs(io: Streams, t: LogsTarget, json: boolean): Promise<number> {
  const { lines, diagnoses } = await diagnosed(t);
  const code = diagnoses.length > 0 ? EXIT.FAILURE : EXIT.OK;
  if (json) {
    printJson({ task: t.task, lines: lines.length, diagnoses }, io.out);
    return code;
  }
  io.err`Run ${t.task.file_path} (${t.task.status}, started ${t.task.start_time}), ${lines.length} lines`;
  if (diagnoses.length === 0) io.out`No errors in this run’s log.`;
  else io.out`${joined(diagnosisText(diagnoses))}`;
  return code;
}
