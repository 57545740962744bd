// The list: its jobs with their search keys and sort orders, the filter, the sort, the cursor and scrolling.
import type { Job } from '../../../management/types.js';
import { stateLook, stateRank } from '../format.js';
import { type Action, FILTER_FIELDS, type JobsState, type ListData, SORTS, type SortKey } from './model.js';

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

export function clamp(value: number, min: number, max: number): number {
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

/** The list's actions: loading, moving, filtering and sorting; undefined for any other action. */
export function listReducer(state: JobsState, action: Action): JobsState | undefined {
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
    default:
      return undefined;
  }
}
