// Reading a whole run log through the OLake UI's pages (newest first, 1000 lines a page).
import type { JobsApi, LogLine, Task } from './types.js';

/** Every line of the run, up to `maxLines` from the end, oldest first. */
export async function readWholeLog(
  api: JobsApi,
  project: string,
  id: number,
  task: Task,
  maxLines: number,
  signal?: AbortSignal,
): Promise<LogLine[]> {
  const pages: LogLine[][] = [];
  let cursor = -1;
  let count = 0;
  for (;;) {
    const page = await api.taskLogs(project, id, task, { cursor, limit: 1000, direction: 'older' }, signal);
    pages.unshift(page.logs);
    count += page.logs.length;
    if (!page.has_more_older || count >= maxLines || page.logs.length === 0) break;
    cursor = page.older_cursor;
  }
  return pages.flat();
}
