// floe jobs logs: print a run's log, follow a running one (--follow), or say what went wrong
// (--diagnose), through the OLake UI's log pages.

import { diagnosisLines } from '../check/text.js';
import type { Diagnosis } from '../check/types.js';
import { EXIT } from '../cli/io.js';
import { err, joined, line, out, printJson, type Shown } from '../cli/output.js';
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

export interface LogsTarget {
  api: JobsApi;
  project: string;
  id: number;
  task: Task;
}

export async function printLogs(t: LogsTarget, limit: number, json: boolean): Promise<number> {
  const page = await t.api.taskLogs(t.project, t.id, t.task, { cursor: -1, limit, direction: 'older' });
  if (json) printJson({ task: t.task, ...page });
  else {
    err`Run ${t.task.file_path} (${t.task.status}, started ${t.task.start_time})`;
    for (const entry of page.logs) out`${logLine(entry)}`;
    if (page.has_more_older) err`(older lines not shown; raise --limit to see more than ${limit})`;
  }
  return EXIT.OK;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Prints the last `limit` lines, then every new line until the run is no longer running. */
export async function followLogs(t: LogsTarget, limit: number, json: boolean): Promise<number> {
  const print = (entry: LogLine) => (json ? printJson(entry, 0) : out`${logLine(entry)}`);
  const tail = await followTail(t.api, t.project, t.id, t.task, limit);
  err`Following run ${t.task.file_path} (${t.task.status}); Ctrl-C stops.`;
  tail.lines.forEach(print);
  let cursor = tail.next;
  let running = t.task.status.toLowerCase() === 'running';
  let pause = FOLLOW_POLL_MS;
  let burst = 0;
  let lastLine = Date.now();
  for (;;) {
    const step = await followStep(t.api, t.project, t.id, t.task, cursor);
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
      err`No new line for ${FOLLOW_IDLE_END_MS / 60_000} min; stopped following (the run is still running). "floe jobs logs ${t.id} --follow" starts again.`;
      break;
    }
    await sleep(pause);
    pause = Math.min(pause * 2, FOLLOW_MAX_POLL_MS);
    const now = (await t.api.listTasks(t.project, t.id)).find((x) => x.file_path === t.task.file_path);
    running = now?.status.toLowerCase() === 'running';
    if (!running) err`Run ended: ${now?.status ?? 'no longer listed'}.`;
  }
  return EXIT.OK;
}

function diagnosisText(diagnoses: Diagnosis[]): Shown[] {
  return diagnoses.flatMap((d) => {
    const { heading, rows } = diagnosisLines(d);
    return [line`${heading}`, ...rows.map(([label, text]) => line`  ${label.padEnd(9)}${text}`)];
  });
}

/** Exits 1 when the log shows a failure (a diagnosis, recognized or not), 0 when it shows none. */
export async function diagnoseLogs(t: LogsTarget, json: boolean): Promise<number> {
  const lines = await readWholeLog(t.api, t.project, t.id, t.task, DIAGNOSE_MAX_LINES);
  // The job's hosts sharpen attribution; without them the lines still say what they can.
  const hosts = await t.api.getJob(t.project, t.id).then(runHosts, () => ({}));
  const diagnoses = diagnoseLog(lines, hosts);
  const code = diagnoses.length > 0 ? EXIT.FAILURE : EXIT.OK;
  if (json) {
    printJson({ task: t.task, lines: lines.length, diagnoses });
    return code;
  }
  err`Run ${t.task.file_path} (${t.task.status}, started ${t.task.start_time}), ${lines.length} lines`;
  if (diagnoses.length === 0) out`No errors in this run’s log.`;
  else out`${joined(diagnosisText(diagnoses))}`;
  return code;
}
