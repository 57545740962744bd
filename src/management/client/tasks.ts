// A job's runs (its tasks) and one run's log, a page at a time.
import { ROUTES } from '../routes.js';
import type { LogPage, LogQuery, Task } from '../types.js';
import type { Transport } from './transport.js';

export async function listTasks(
  http: Transport,
  project: string,
  id: number,
  signal?: AbortSignal,
): Promise<Task[]> {
  return (await http.route(ROUTES.listTasks, { project, id }, { signal })).data;
}

export async function taskLogs(
  http: Transport,
  project: string,
  id: number,
  task: Task,
  query: LogQuery = {},
  signal?: AbortSignal,
): Promise<LogPage> {
  return (
    await http.route(
      ROUTES.taskLogs,
      { project, id, file: task.file_path },
      {
        body: { file_path: task.file_path },
        query: {
          cursor: query.cursor ?? -1,
          limit: query.limit ?? 1000,
          direction: query.direction ?? 'older',
        },
        signal,
      },
    )
  ).data;
}
