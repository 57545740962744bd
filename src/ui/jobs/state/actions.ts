// The overlays (help, project, the confirmation of an action), notices, the session, and which job the
// actions (n, p, c, t) act on.
import type { Job, JobDetail } from '../../../management/types.js';
import { detailJob } from './detail.js';
import { selectedJob } from './list.js';
import { type Action, initialState, type JobsState } from './model.js';

/** The job the actions (n, p, c, t) act on: the open detail's, else the selected row's. */
export function actionJob(state: JobsState): Job | JobDetail | undefined {
  return state.view === 'detail' ? detailJob(state) : selectedJob(state);
}

/** Whether a sync of the action job runs now, as far as the browser knows: its last run, or its runs' list. */
export function syncRunning(state: JobsState): boolean {
  const job = actionJob(state);
  if (!job) return false;
  const running = (status: string | undefined) => status?.toLowerCase() === 'running';
  const tasks = state.view === 'detail' ? state.detail?.tasks : undefined;
  return running(job.last_run_state) || (tasks?.some((task) => running(task.status)) ?? false);
}

/** Overlays, project switch, confirmation, notices and the session; undefined for any other action. */
export function actionsReducer(state: JobsState, action: Action): JobsState | undefined {
  switch (action.type) {
    case 'help-toggle':
      return { ...state, overlay: state.overlay.kind === 'help' ? { kind: 'none' } : { kind: 'help' } };
    case 'project-open':
      return { ...state, overlay: { kind: 'project', draft: state.project } };
    case 'project-change':
      return state.overlay.kind === 'project'
        ? { ...state, overlay: { kind: 'project', draft: action.draft } }
        : state;
    case 'project-switch':
      return {
        ...initialState(action.project, state.pageSize),
        sort: state.sort,
        filter: state.filter,
        session: state.session,
      };
    case 'overlay-close':
      return { ...state, overlay: { kind: 'none' } };
    case 'confirm':
      return {
        ...state,
        overlay: { kind: 'confirm', action: action.action, jobId: action.jobId, name: action.name },
      };
    case 'notice':
      return { ...state, notice: { tone: action.tone, text: action.text } };
    case 'session':
      return { ...state, session: action.session, passwordError: action.error };
    default:
      return undefined;
  }
}
