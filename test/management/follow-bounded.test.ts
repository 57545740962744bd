// Following a log is bounded whatever the server says: "more lines waiting" without the cursor moving
// is not a reason to ask again at once, a quiet log is polled less and less often, following ends
// after an hour without a line, and the server's run path and status reach stderr sanitized.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { err, out } from '../../src/cli/output.js';
import { FOLLOW_IDLE_END_MS, followLogs } from '../../src/commands/jobs-logs.js';
import type { JobsApi, Task } from '../../src/management/types.js';

const TASK: Task = {
  runtime: '1m',
  start_time: '2026-11-26T00:00:00Z',
  status: 'running',
  file_path: 'run-1\u001b]0;pwned\u0007\nforged line',
} as Task;

/** A server that always says more lines are waiting, never moves its cursor and never sends a line. */
function liar() {
  const calls = { taskLogs: 0, listTasks: 0 };
  const api = {
    taskLogs: async (_p: string, _id: number, _t: Task, query: { direction: string }) => {
      calls.taskLogs++;
      return {
        logs: [],
        older_cursor: 0,
        newer_cursor: 100,
        has_more_older: false,
        has_more_newer: query.direction === 'newer',
      };
    },
    listTasks: async () => {
      calls.listTasks++;
      return [TASK];
    },
  } as unknown as JobsApi;
  return { api, calls };
}

/** The process's writers: the spies below read what they write. */
const streams = { out, err };

let stderr: string[] = [];
beforeEach(() => {
  vi.useFakeTimers();
  stderr = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('floe jobs logs --follow', () => {
  it('a server always saying "more waiting": a handful of requests a minute, not thousands', async () => {
    const { api, calls } = liar();
    const following = followLogs(streams, { api, project: '123', id: 1, task: TASK }, 10, false);
    await vi.advanceTimersByTimeAsync(60_000);
    // Backoff: 1, 2, 4, 8, 8, … s between polls; each poll is one log read and one status read.
    expect(calls.taskLogs).toBeLessThan(15);
    expect(calls.listTasks).toBeLessThan(12);
    await vi.advanceTimersByTimeAsync(FOLLOW_IDLE_END_MS);
    await following;
    expect(stderr.join('')).toContain('No new line for 60 min; stopped following');
  });

  it('prints the run’s path and status without its control characters or newlines', async () => {
    const { api } = liar();
    const following = followLogs(streams, { api, project: '123', id: 1, task: TASK }, 10, false);
    await vi.advanceTimersByTimeAsync(FOLLOW_IDLE_END_MS + 60_000);
    await following;
    const header = stderr[0] ?? '';
    expect(header).toMatch(/^Following run run-1/);
    expect(header).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(header.trimEnd().split('\n')).toHaveLength(1);
  });
});
