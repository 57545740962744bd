// The detail view of one job: its full record, its runs (tasks) and the cursor over them, the pane shown.
import type { JobDetail, Task } from '../../../management/types.js';
import { clamp, selectedJob } from './list.js';
import type { Action, DetailState, JobsState } from './model.js';

/** The job the detail view shows: the full one when fetched, else the row from the list. */
export function detailJob(state: JobsState): JobDetail | undefined {
  const detail = state.detail;
  if (!detail) return undefined;
  return detail.job ?? state.data.jobs.find((job) => job.id === detail.jobId);
}

export function updateDetail(state: JobsState, jobId: number, change: Partial<DetailState>): JobsState {
  if (state.detail?.jobId !== jobId) return state;
  return { ...state, detail: { ...state.detail, ...change } };
}

export function sameTask(a: Task, b: Task): boolean {
  return a.file_path === b.file_path && a.start_time === b.start_time;
}

/** Opening and closing the detail, its job and runs arriving, moving over the runs; undefined otherwise. */
export function detailReducer(state: JobsState, action: Action): JobsState | undefined {
  switch (action.type) {
    case 'detail-open': {
      const job = selectedJob(state);
      if (!job) return state;
      return {
        ...state,
        view: 'detail',
        notice: undefined,
        detail: { jobId: job.id, taskCursor: 0, pane: 'runs', wrap: true },
      };
    }
    case 'detail-close':
      return { ...state, view: 'list', detail: undefined, notice: undefined };
    case 'detail-job':
      return updateDetail(state, action.jobId, { job: action.job, jobFailure: undefined });
    case 'detail-job-failed':
      return updateDetail(state, action.jobId, { jobFailure: action.failure });
    case 'tasks': {
      const previous = state.detail?.tasks?.[state.detail.taskCursor];
      const kept = previous ? action.tasks.findIndex((task) => sameTask(task, previous)) : -1;
      return updateDetail(state, action.jobId, {
        tasks: action.tasks,
        tasksFailure: undefined,
        taskCursor: Math.max(kept, 0),
      });
    }
    case 'tasks-failed':
      return updateDetail(state, action.jobId, { tasksFailure: action.failure });
    case 'task-move': {
      const detail = state.detail;
      if (!detail?.tasks) return state;
      const taskCursor = clamp(detail.taskCursor + action.by, 0, Math.max(0, detail.tasks.length - 1));
      return { ...state, detail: { ...detail, taskCursor } };
    }
    case 'pane-toggle': {
      const detail = state.detail;
      if (!detail) return state;
      return { ...state, detail: { ...detail, pane: detail.pane === 'runs' ? 'logs' : 'runs' } };
    }
    default:
      return undefined;
  }
}
