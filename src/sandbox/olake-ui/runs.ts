// A job's runs, logs and actions as olake-ui serves them: tasks and the last run use the path's project
// (a never-run job's tasks are `null`); logs page by byte offsets (`utils/log_utils.go`, see logs.ts);
// `activate` binds `{}` as false (pauses); sync triggers the Temporal schedule with overlap policy SKIP
// (`services/temporal/client.go`), so during a run it answers 200 and starts nothing.
import { userOf } from './auth.js';
import { HttpError, isObject, iso, ok, readBody } from './http.js';
import { logFile, pageLogs } from './logs.js';
import { findJob, findTask, runLog, settle, startRun, type UiState } from './state.js';
import type { Call, Handlers } from './types.js';

/** Triggers the schedule: overlap policy SKIP, so during a run it answers 200 and starts nothing. */
function syncNow(state: UiState, { res, params, projectId, mine }: Call): void {
  const job = findJob(state, params.id);
  if (!job.activate)
    throw new HttpError(500, 'failed to trigger sync: job is paused, please unpause to run sync');
  if (!mine)
    throw new HttpError(
      500,
      `failed to trigger sync: failed to trigger sync: schedule not found: schedule-sync-${projectId}-${job.id}`,
    );
  settle(state, job);
  const running = job.tasks[0]?.status === 'Running' || state.pendingStarts.has(job.id);
  if (!running) {
    const delay = state.options.syncStartDelayMs ?? 0;
    if (delay > 0) state.pendingStarts.set(job.id, Date.now() + delay);
    else startRun(state, job, Date.now());
  }
  ok(res, `sync triggered successfully for job_id[${job.id}]`, {
    message: 'sync triggered successfully',
  });
}

export function runHandlers(
  state: UiState,
): Pick<Handlers, 'listTasks' | 'taskLogs' | 'syncNow' | 'setActive' | 'cancelRun'> {
  return {
    listTasks: ({ res, params, mine }) => {
      const job = findJob(state, params.id);
      settle(state, job);
      // `var tasks []dto.JobTask` stays nil when Temporal lists nothing: `"data": null`.
      const tasks = mine && job.tasks.length > 0 ? job.tasks.map(({ logs, partial, ...t }) => t) : null;
      return ok(res, `job '${job.id}' tasks listed successfully`, tasks);
    },
    taskLogs: async ({ req, res, url, params }) => {
      const job = findJob(state, params.id);
      const body = await readBody(req);
      if (!isObject(body) || typeof body.file_path !== 'string' || !body.file_path)
        throw new HttpError(400, 'failed to validate request: file_path is required');
      settle(state, job);
      const task = findTask(state, body.file_path);
      if (!task)
        throw new HttpError(
          500,
          `failed to get task logs: logs directory not found: /tmp/olake-config/${body.file_path}`,
        );
      return ok(
        res,
        'task logs retrieved successfully',
        pageLogs(logFile(runLog(state, task), task.partial), url.searchParams),
      );
    },
    syncNow: (call) => syncNow(state, call),
    setActive: async ({ req, res, params, session }) => {
      const username = userOf(session);
      const job = findJob(state, params.id);
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
      const job = findJob(state, params.id);
      settle(state, job);
      const running = mine ? job.tasks.find((t) => t.status === 'Running') : undefined;
      if (running) {
        // The lines it had not written yet never come.
        running.logs = runLog(state, running);
        running.status = 'Canceled';
        running.runtime = `${Math.max(1, Math.round((Date.now() - Date.parse(running.start_time)) / 1000))}s`;
        running.logs.push({
          level: 'warn',
          time: iso(),
          message: 'Workflow cancellation requested; stopping writers',
        });
        state.liveRuns.delete(running.file_path);
        job.last_run_state = job.tasks[0]?.status;
      }
      return ok(res, `job workflow cancel requested successfully for job_id[${job.id}]`);
    },
  };
}
