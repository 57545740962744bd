// The jobs browser's state and its pure reducer. Side effects (API calls, timers) live in useJobsBrowser.
import type { Job, JobDetail, LogPage, ManagementErrorKind, Task } from '../../management/types.js';
import { stateLook, stateRank } from './format.js';
import { EMPTY_VIEW, LOG_VIEW_ACTIONS, type LogView, type LogViewAction, logViewReducer } from './logview.js';

export type SortKey = 'name' | 'last-run' | 'state';
export const SORTS: readonly SortKey[] = ['name', 'last-run', 'state'];

export type JobAction = 'sync' | 'pause' | 'resume' | 'cancel';

export interface Failure {
  kind: ManagementErrorKind | 'unknown';
  message: string;
}

/** What the filter looks in, in the order of a job's search key (searchKey). */
export const FILTER_FIELDS = [
  'name',
  'source',
  'source type',
  'destination',
  'destination type',
  'last run',
] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

/** Jobs of one load with what filtering and sorting need, computed once per load. */
export interface ListData {
  jobs: Job[];
  /** Per job, its FILTER_FIELDS in lowercase, one a line, for the filter. */
  keys: string[];
  /** Job indices in each sort order computed so far. */
  orders: Partial<Record<SortKey, number[]>>;
}

export interface LogsState {
  task: Task;
  page?: LogPage;
  loading: boolean;
  failure?: Failure;
  view: LogView;
}

export interface DetailState {
  jobId: number;
  job?: JobDetail;
  jobFailure?: Failure;
  tasks?: Task[];
  tasksFailure?: Failure;
  taskCursor: number;
  pane: 'runs' | 'logs';
  logs?: LogsState;
  /** Log lines wrap (w toggles); kept across runs. */
  wrap: boolean;
}

export type Overlay =
  | { kind: 'none' }
  | { kind: 'filter' }
  | { kind: 'help' }
  | { kind: 'project'; draft: string }
  | { kind: 'confirm'; action: JobAction; jobId: number; name: string };

/** ok; relogin: signing in again; password: asking for it; expired: gave up, R retries. */
export type Session = 'ok' | 'relogin' | 'password' | 'expired';

export interface JobsState {
  project: string;
  phase: 'loading' | 'ready' | 'error';
  /** Why the last list load failed (an error screen in phase "error", a status line otherwise). */
  failure?: Failure;
  refreshing: boolean;
  data: ListData;
  loadedAt?: number;
  filter: string;
  sort: SortKey;
  /** Indices into data.jobs, sorted and filtered. */
  visible: number[];
  /** While a filter is set: the fields it matched in, and in how many of the visible jobs each. */
  matched?: { field: FilterField; jobs: number }[];
  /** Position of the selection in `visible`. */
  cursor: number;
  selectedId?: number;
  /** First row of `visible` on screen. */
  top: number;
  pageSize: number;
  view: 'list' | 'detail';
  detail?: DetailState;
  overlay: Overlay;
  notice?: { tone: 'ok' | 'warn' | 'error' | 'busy'; text: string };
  session: Session;
  passwordError?: string;
}

export type Action =
  | { type: 'load-start' }
  | { type: 'loaded'; jobs: Job[]; at: number }
  | { type: 'load-failed'; failure: Failure }
  | { type: 'page-size'; size: number }
  | { type: 'move'; by: number }
  | { type: 'move-to'; where: 'top' | 'bottom' }
  | { type: 'page'; by: 1 | -1 }
  | { type: 'filter-open' }
  | { type: 'filter-change'; text: string }
  | { type: 'filter-apply' }
  | { type: 'filter-clear' }
  | { type: 'sort-cycle' }
  | { type: 'help-toggle' }
  | { type: 'project-open' }
  | { type: 'project-change'; draft: string }
  | { type: 'project-switch'; project: string }
  | { type: 'overlay-close' }
  | { type: 'confirm'; action: JobAction; jobId: number; name: string }
  | { type: 'notice'; tone: 'ok' | 'warn' | 'error' | 'busy'; text: string }
  | { type: 'detail-open' }
  | { type: 'detail-close' }
  | { type: 'detail-job'; jobId: number; job: JobDetail }
  | { type: 'detail-job-failed'; jobId: number; failure: Failure }
  | { type: 'tasks'; jobId: number; tasks: Task[] }
  | { type: 'tasks-failed'; jobId: number; failure: Failure }
  | { type: 'task-move'; by: number }
  | { type: 'pane-toggle' }
  | { type: 'log-wrap-toggle' }
  | { type: 'logs-start'; jobId: number; task: Task }
  /** Selects `task` in the runs (added when the list does not have it yet) and opens its log. */
  | { type: 'run-follow'; jobId: number; task: Task }
  | { type: 'logs'; jobId: number; task: Task; page: LogPage }
  | { type: 'logs-failed'; jobId: number; task: Task; failure: Failure }
  | { type: 'session'; session: Session; error?: string }
  | LogViewAction;

const EMPTY: ListData = { jobs: [], keys: [], orders: {} };

export function initialState(project: string, pageSize = 10): JobsState {
  return {
    project,
    phase: 'loading',
    refreshing: true,
    data: EMPTY,
    filter: '',
    sort: 'name',
    visible: [],
    cursor: 0,
    top: 0,
    pageSize: Math.max(1, pageSize),
    view: 'list',
    overlay: { kind: 'none' },
    session: 'ok',
  };
}

export function searchKey(job: Job): string {
  const fields = [
    job.name,
    job.source.name,
    job.source.type,
    job.destination.name,
    job.destination.type,
    job.last_run_state ? stateLook(job.last_run_state).word : 'never',
  ];
  return fields.join('\n').toLowerCase();
}

/** The fields `needle` (lowercase) matched in, over the jobs `visible`, with how many jobs each. */
function matchedFields(data: ListData, visible: number[], needle: string): JobsState['matched'] {
  const counts = FILTER_FIELDS.map(() => 0);
  for (const index of visible)
    data.keys[index]!.split('\n').forEach((value, field) => {
      if (value.includes(needle)) counts[field]! += 1;
    });
  return FILTER_FIELDS.map((field, i) => ({ field, jobs: counts[i]! })).filter((m) => m.jobs > 0);
}

export function listData(jobs: Job[]): ListData {
  return { jobs, keys: jobs.map(searchKey), orders: {} };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Job indices in `sort` order; names break ties so the order is stable across loads. */
export function sortOrder(jobs: Job[], sort: SortKey): number[] {
  const names = jobs.map((job) => job.name.toLowerCase());
  const byName = (a: number, b: number) => compareText(names[a]!, names[b]!) || jobs[a]!.id - jobs[b]!.id;
  const indices = jobs.map((_, index) => index);
  if (sort === 'name') return indices.sort(byName);
  if (sort === 'state') {
    const ranks = jobs.map((job) => stateRank(job.last_run_state));
    return indices.sort((a, b) => ranks[a]! - ranks[b]! || byName(a, b));
  }
  const times = jobs.map((job) => {
    const at = job.last_run_time ? Date.parse(job.last_run_time) : Number.NaN;
    return Number.isNaN(at) ? Number.NEGATIVE_INFINITY : at;
  });
  return indices.sort((a, b) => (times[a]! === times[b]! ? byName(a, b) : times[b]! > times[a]! ? 1 : -1));
}

function withOrder(data: ListData, sort: SortKey): ListData {
  if (data.orders[sort]) return data;
  return { ...data, orders: { ...data.orders, [sort]: sortOrder(data.jobs, sort) } };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/** Keeps `top` so the cursor is on screen. */
function scrolled(state: JobsState): JobsState {
  const { cursor, pageSize } = state;
  let top = state.top;
  if (cursor < top) top = cursor;
  if (cursor >= top + pageSize) top = cursor - pageSize + 1;
  top = clamp(top, 0, Math.max(0, state.visible.length - pageSize));
  return top === state.top ? state : { ...state, top };
}

function select(state: JobsState, cursor: number): JobsState {
  const next = clamp(cursor, 0, Math.max(0, state.visible.length - 1));
  const index = state.visible[next];
  const selectedId = index === undefined ? undefined : state.data.jobs[index]?.id;
  return scrolled({ ...state, cursor: next, selectedId });
}

/** Recomputes the visible rows and puts the cursor back on the selected job (by id) when it is still there. */
function refilter(state: JobsState): JobsState {
  const data = withOrder(state.data, state.sort);
  const order = data.orders[state.sort]!;
  const needle = state.filter.trim().toLowerCase();
  const visible = needle === '' ? order : order.filter((index) => data.keys[index]!.includes(needle));
  const matched = needle === '' ? undefined : matchedFields(data, visible, needle);
  const found =
    state.selectedId === undefined
      ? -1
      : visible.findIndex((index) => data.jobs[index]!.id === state.selectedId);
  return select({ ...state, data, visible, matched }, found >= 0 ? found : state.cursor);
}

export function selectedJob(state: JobsState): Job | undefined {
  const index = state.visible[state.cursor];
  return index === undefined ? undefined : state.data.jobs[index];
}

/** The job the detail view shows: the full one when fetched, else the row from the list. */
export function detailJob(state: JobsState): JobDetail | undefined {
  const detail = state.detail;
  if (!detail) return undefined;
  return detail.job ?? state.data.jobs.find((job) => job.id === detail.jobId);
}

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

function updateDetail(state: JobsState, jobId: number, change: Partial<DetailState>): JobsState {
  if (state.detail?.jobId !== jobId) return state;
  return { ...state, detail: { ...state.detail, ...change } };
}

function sameTask(a: Task, b: Task): boolean {
  return a.file_path === b.file_path && a.start_time === b.start_time;
}

/** Actions after which an action's message has been seen and gives way to the filter or refresh status. */
const DISMISS_NOTICE = new Set<Action['type']>(['move', 'move-to', 'page', 'filter-open', 'sort-cycle']);

export function jobsReducer(previous: JobsState, action: Action): JobsState {
  const state =
    previous.notice && previous.notice.tone !== 'busy' && DISMISS_NOTICE.has(action.type)
      ? { ...previous, notice: undefined }
      : previous;
  switch (action.type) {
    case 'load-start':
      return { ...state, refreshing: true };
    case 'loaded':
      return refilter({
        ...state,
        phase: 'ready',
        refreshing: false,
        failure: undefined,
        loadedAt: action.at,
        data: listData(action.jobs),
      });
    case 'load-failed':
      return {
        ...state,
        refreshing: false,
        failure: action.failure,
        phase: state.phase === 'ready' ? 'ready' : 'error',
      };
    case 'page-size':
      return scrolled({ ...state, pageSize: Math.max(1, action.size) });
    case 'move':
      return select(state, state.cursor + action.by);
    case 'move-to':
      return select(state, action.where === 'top' ? 0 : state.visible.length - 1);
    case 'page':
      return select(state, state.cursor + action.by * state.pageSize);
    case 'filter-open':
      return { ...state, overlay: { kind: 'filter' } };
    case 'filter-change':
      return refilter({ ...state, filter: action.text });
    case 'filter-apply':
      return { ...state, overlay: { kind: 'none' } };
    case 'filter-clear':
      return refilter({ ...state, filter: '', overlay: { kind: 'none' } });
    case 'sort-cycle': {
      const sort = SORTS[(SORTS.indexOf(state.sort) + 1) % SORTS.length]!;
      return refilter({ ...state, sort });
    }
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
    case 'session':
      return { ...state, session: action.session, passwordError: action.error };
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
      if (!state.detail || !logs || !LOG_VIEW_ACTIONS.has(action.type)) return state;
      return { ...state, detail: { ...state.detail, logs: logViewReducer(logs, action) } };
    }
  }
}
