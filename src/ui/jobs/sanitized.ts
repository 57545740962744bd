// Where server text enters the jobs browser: every string the OLake UI sends back (job names, task
// paths, log lines, action messages) and every error message is sanitized once, here, before it
// reaches the state the screen renders. `floe jobs --json` does not come through here: it keeps the
// raw text.
import type { JobsApi } from '../../management/types.js';
import { sanitize, sanitizeDeep } from '../../text/sanitize.js';

function sanitizedError(error: unknown): never {
  if (error instanceof Error) error.message = sanitize(error.message);
  throw error;
}

/** `call` with its result's strings and its error's message sanitized. */
export function sanitizedCall<A extends unknown[], R>(call: (...args: A) => Promise<R>) {
  return (...args: A): Promise<R> => call(...args).then((result) => sanitizeDeep(result), sanitizedError);
}

/** The API as the browser sees it. */
export function sanitizedApi(api: JobsApi): JobsApi {
  return {
    listJobs: sanitizedCall(api.listJobs.bind(api)),
    getJob: sanitizedCall(api.getJob.bind(api)),
    // A run's file_path is the server's own name for it, sent back as it is to read its logs; it is
    // never shown.
    listTasks: (...args: Parameters<JobsApi['listTasks']>) =>
      api
        .listTasks(...args)
        .then((tasks) => tasks.map((task) => ({ ...sanitizeDeep(task), file_path: task.file_path })))
        .catch(sanitizedError),
    taskLogs: sanitizedCall(api.taskLogs.bind(api)),
    syncNow: sanitizedCall(api.syncNow.bind(api)),
    setActive: sanitizedCall(api.setActive.bind(api)),
    cancelRun: sanitizedCall(api.cancelRun.bind(api)),
  };
}
