// The log pane: a run's log loading and arriving, following a new run, wrapping, and the log view's own
// keys (logview.ts).
import { EMPTY_VIEW, LOG_VIEW_ACTIONS, type LogViewAction, logViewReducer } from '../logview.js';
import { sameTask, updateDetail } from './detail.js';
import type { Action, JobsState } from './model.js';

function isLogViewAction(action: Action): action is LogViewAction {
  return LOG_VIEW_ACTIONS.has(action.type);
}

/** The log pane's actions; any other action leaves the state as it is. */
export function logsReducer(state: JobsState, action: Action): JobsState {
  switch (action.type) {
    case 'logs-start': {
      const previous = state.detail?.logs;
      const same = previous && sameTask(previous.task, action.task);
      return updateDetail(state, action.jobId, {
        pane: 'logs',
        logs: {
          task: action.task,
          page: same ? previous.page : undefined,
          loading: true,
          view: same ? previous.view : EMPTY_VIEW,
        },
      });
    }
    case 'run-follow': {
      const detail = state.detail;
      if (detail?.jobId !== action.jobId) return state;
      const known = detail.tasks?.findIndex((task) => sameTask(task, action.task)) ?? -1;
      const tasks = known >= 0 ? (detail.tasks ?? []) : [action.task, ...(detail.tasks ?? [])];
      return updateDetail(state, action.jobId, {
        tasks,
        taskCursor: Math.max(known, 0),
        pane: 'logs',
        logs: { task: action.task, loading: true, view: EMPTY_VIEW },
      });
    }
    case 'logs': {
      const logs = state.detail?.logs;
      if (!logs || !sameTask(logs.task, action.task)) return state;
      return updateDetail(state, action.jobId, {
        logs: {
          task: action.task,
          page: action.page,
          loading: false,
          view: { ...logs.view, line: undefined, whole: undefined },
        },
      });
    }
    case 'logs-failed': {
      const logs = state.detail?.logs;
      if (!logs || !sameTask(logs.task, action.task)) return state;
      return updateDetail(state, action.jobId, {
        logs: { ...logs, loading: false, failure: action.failure },
      });
    }
    case 'log-wrap-toggle':
      return state.detail ? { ...state, detail: { ...state.detail, wrap: !state.detail.wrap } } : state;
    case 'log-ended': {
      // The runs list shows the followed run's end at once, not at the next refresh.
      const detail = state.detail;
      if (!detail?.logs) return state;
      const tasks = detail.tasks?.map((task) =>
        sameTask(task, action.task) ? { ...task, status: action.status } : task,
      );
      return { ...state, detail: { ...detail, tasks, logs: logViewReducer(detail.logs, action) } };
    }
    default: {
      const logs = state.detail?.logs;
      if (!state.detail || !logs || !isLogViewAction(action)) return state;
      return { ...state, detail: { ...state.detail, logs: logViewReducer(logs, action) } };
    }
  }
}
