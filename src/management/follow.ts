// Following a running job's log through the OLake UI's byte cursors without losing a line. A forward
// read (`direction=newer`) that reaches the end of olake.log returns the file size as its cursor even
// when the last line is still being written: that partial line is skipped (not JSON yet) and a reader
// trusting the cursor would never see it (olake-ui `utils/log_utils.go` ReadLinesForward). So after a
// short read floe anchors on the last complete line instead: a backward read of one line from that
// cursor gives where it starts, and the next forward read starts there, dropping the repeated line.
import type { JobsApi, LogLine, Task } from './types.js';

export interface FollowCursor {
  /** Byte offset to read forward from. */
  base: number;
  /** The first line read from `base` was already delivered. */
  repeat: boolean;
}

export const FOLLOW_START: FollowCursor = { base: 0, repeat: false };

export interface FollowStep {
  lines: LogLine[];
  next: FollowCursor;
  /** More complete lines are waiting right now (the page was full). */
  more: boolean;
}

/** Where to resume after a read that ended at `end`: the start of the last complete line before it. */
async function anchor(
  api: JobsApi,
  project: string,
  id: number,
  task: Task,
  end: number,
  signal?: AbortSignal,
): Promise<FollowCursor> {
  const last = await api.taskLogs(project, id, task, { cursor: end, limit: 1, direction: 'older' }, signal);
  return last.logs.length === 0 ? FOLLOW_START : { base: last.older_cursor, repeat: true };
}

/** The last `limit` lines, and the cursor to follow on from. */
export async function followTail(
  api: JobsApi,
  project: string,
  id: number,
  task: Task,
  limit: number,
  signal?: AbortSignal,
): Promise<{ lines: LogLine[]; next: FollowCursor; olderCursor: number; hasOlder: boolean }> {
  const page = await api.taskLogs(project, id, task, { cursor: -1, limit, direction: 'older' }, signal);
  const next =
    page.logs.length === 0 ? FOLLOW_START : await anchor(api, project, id, task, page.newer_cursor, signal);
  return { lines: page.logs, next, olderCursor: page.older_cursor, hasOlder: page.has_more_older };
}

/** The lines written since `cursor`, each once, and the cursor to poll from next. */
export async function followStep(
  api: JobsApi,
  project: string,
  id: number,
  task: Task,
  cursor: FollowCursor,
  limit = 1000,
  signal?: AbortSignal,
): Promise<FollowStep> {
  const page = await api.taskLogs(
    project,
    id,
    task,
    { cursor: cursor.base, limit, direction: 'newer' },
    signal,
  );
  const lines = cursor.repeat ? page.logs.slice(1) : page.logs;
  if (cursor.repeat && page.logs.length === 0) return { lines, next: cursor, more: false };
  // "More waiting" counts only when the cursor moved: a server that says so without moving it would
  // otherwise be asked again at once, forever.
  if (page.has_more_newer && page.newer_cursor > cursor.base)
    return { lines, next: { base: page.newer_cursor, repeat: false }, more: true };
  if (page.logs.length === 0) return { lines, next: cursor, more: false };
  return { lines, next: await anchor(api, project, id, task, page.newer_cursor, signal), more: false };
}
