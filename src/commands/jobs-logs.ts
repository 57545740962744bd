// floe jobs logs: print a run's log, follow a running one (--follow), or say what went wrong
// (--diagnose), through the OLake UI's log pages.

import { diagnosisLines } from '../check/text.js';
import type { Diagnosis } from '../check/types.js';
import { EXIT, printJson } from '../cli/io.js';
import { diagnoseLog } from '../management/diagnose.js';
import { followStep, followTail } from '../management/follow.js';
import { readWholeLog } from '../management/logs.js';
import { serverText } from '../management/text.js';
import type { JobsApi, LogLine, Task } from '../management/types.js';
import { sanitize } from '../text/sanitize.js';

export const FOLLOW_POLL_MS = 1000;
/** A quiet log is polled less and less often, down to this. */
export const FOLLOW_MAX_POLL_MS = 8000;
/** Pages read back to back (a burst of lines) before a pause, whatever the server says is waiting. */
const FOLLOW_BURST_PAGES = 50;
/** Following ends when a running run has written nothing for this long. */
export const FOLLOW_IDLE_END_MS = 60 * 60 * 1000;
/** A diagnosis reads the whole log, up to this many lines from the end. */
const DIAGNOSE_MAX_LINES = 50_000;

export function logLine(line: LogLine): string {
  return serverText(`${line.time} ${line.level.toUpperCase().padEnd(5)} ${line.message}`);
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
    process.stderr.write(
      `${sanitize(`Run ${t.task.file_path} (${t.task.status}, started ${t.task.start_time})`)}\n`,
    );
    for (const line of page.logs) process.stdout.write(`${logLine(line)}\n`);
    if (page.has_more_older)
      process.stderr.write(`(older lines not shown; raise --limit to see more than ${limit})\n`);
  }
  return EXIT.OK;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Prints the last `limit` lines, then every new line until the run is no longer running. */
export async function followLogs(t: LogsTarget, limit: number, json: boolean): Promise<number> {
  const out = (line: LogLine) =>
    process.stdout.write(json ? `${JSON.stringify(line)}\n` : `${logLine(line)}\n`);
  const tail = await followTail(t.api, t.project, t.id, t.task, limit);
  process.stderr.write(
    `${sanitize(`Following run ${t.task.file_path} (${t.task.status})`)}; Ctrl-C stops.\n`,
  );
  tail.lines.forEach(out);
  let cursor = tail.next;
  let running = t.task.status.toLowerCase() === 'running';
  let pause = FOLLOW_POLL_MS;
  let burst = 0;
  let lastLine = Date.now();
  for (;;) {
    const step = await followStep(t.api, t.project, t.id, t.task, cursor);
    step.lines.forEach(out);
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
      process.stderr.write(
        `No new line for ${FOLLOW_IDLE_END_MS / 60_000} min; stopped following (the run is still running). "floe jobs logs ${t.id} --follow" starts again.\n`,
      );
      break;
    }
    await sleep(pause);
    pause = Math.min(pause * 2, FOLLOW_MAX_POLL_MS);
    const now = (await t.api.listTasks(t.project, t.id)).find((x) => x.file_path === t.task.file_path);
    running = now?.status.toLowerCase() === 'running';
    if (!running) process.stderr.write(`Run ended: ${sanitize(now?.status ?? 'no longer listed')}.\n`);
  }
  return EXIT.OK;
}

export function diagnosisText(diagnoses: Diagnosis[]): string[] {
  const out: string[] = [];
  for (const d of diagnoses) {
    const { heading, rows } = diagnosisLines(d);
    out.push(serverText(heading), ...rows.map(([label, text]) => serverText(`  ${label.padEnd(9)}${text}`)));
  }
  return out;
}

export async function diagnoseLogs(t: LogsTarget, json: boolean): Promise<number> {
  const lines = await readWholeLog(t.api, t.project, t.id, t.task, DIAGNOSE_MAX_LINES);
  const diagnoses = diagnoseLog(lines);
  if (json) {
    printJson({ task: t.task, lines: lines.length, diagnoses });
    return EXIT.OK;
  }
  process.stderr.write(
    `${sanitize(`Run ${t.task.file_path} (${t.task.status}, started ${t.task.start_time})`)}, ${lines.length} lines\n`,
  );
  if (diagnoses.length === 0) {
    const errors = lines.filter((l) => ['error', 'fatal'].includes(l.level.toLowerCase()));
    process.stdout.write(
      errors.length === 0
        ? 'No errors in this run’s log.\n'
        : `No known cause found; the run's last error:\n  ${logLine(errors.at(-1) as LogLine)}\n`,
    );
    return EXIT.OK;
  }
  process.stdout.write(`${diagnosisText(diagnoses).join('\n')}\n`);
  return EXIT.OK;
}
