// The jobs browser's state and the actions its reducer (../state.ts) takes.
import type { Job, JobDetail, LogPage, ManagementErrorKind, Task } from '../../../management/types.js';
import type { LogView, LogViewAction } from '../logview.js';

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
