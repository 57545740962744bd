// The jobs browser's state and its pure reducer, by concern: the list and its filter (state/list.ts), the
// overlays, notices and session (state/actions.ts), the detail and its runs (state/detail.ts), the log pane
// (state/logs.ts); the state's shape in state/model.ts. Side effects (API calls, timers) live in useJobsBrowser.
import { actionsReducer } from './state/actions.js';
import { detailReducer } from './state/detail.js';
import { listReducer } from './state/list.js';
import { logsReducer } from './state/logs.js';
import type { Action, JobsState } from './state/model.js';

export { actionJob, syncRunning } from './state/actions.js';
export { detailJob } from './state/detail.js';
export { listData, searchKey, selectedJob, sortOrder } from './state/list.js';
export {
  type Action,
  type DetailState,
  type Failure,
  FILTER_FIELDS,
  type FilterField,
  initialState,
  type JobAction,
  type JobsState,
  type ListData,
  type LogsState,
  type Overlay,
  type Session,
  SORTS,
  type SortKey,
} from './state/model.js';

/** Actions after which an action's message has been seen and gives way to the filter or refresh status. */
const DISMISS_NOTICE = new Set<Action['type']>(['move', 'move-to', 'page', 'filter-open', 'sort-cycle']);

export function jobsReducer(previous: JobsState, action: Action): JobsState {
  const state =
    previous.notice && previous.notice.tone !== 'busy' && DISMISS_NOTICE.has(action.type)
      ? { ...previous, notice: undefined }
      : previous;
  return (
    listReducer(state, action) ??
    actionsReducer(state, action) ??
    detailReducer(state, action) ??
    logsReducer(state, action)
  );
}
