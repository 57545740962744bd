// The tables screen's state and its pure reducer (no React): rows arriving as `floe tables` reads them,
// sorted and filtered like the jobs list, one table's detail, and its maintenance lines. The loading
// (listTables, showTable) lives in useTables.
import type { TableDetail, TableRow } from '../../tables/index.js';
import { tableName } from '../../tables/text.js';

export type TableSort = 'name' | 'last-commit' | 'size' | 'problems';
export const TABLE_SORTS: readonly TableSort[] = ['name', 'last-commit', 'size', 'problems'];

export interface DetailState {
  /** NS.TABLE of the table shown. */
  name: string;
  detail?: TableDetail;
  failure?: string;
  /** "12 of 40 manifests" while reading. */
  progress?: string;
  /** First line shown of the detail (or maintenance) text. */
  scroll: number;
}

export interface TablesState {
  phase: 'loading' | 'ready' | 'error';
  failure?: string;
  /** Namespaces that could not be listed (the others are shown). */
  warnings: string[];
  rows: TableRow[];
  filter: string;
  filtering: boolean;
  sort: TableSort;
  /** Indices into rows, sorted and filtered. */
  visible: number[];
  cursor: number;
  /** NS.TABLE under the cursor, kept across re-sorts and new rows. */
  selected?: string;
  top: number;
  pageSize: number;
  view: 'list' | 'detail' | 'maintenance';
  detail?: DetailState;
  /** Counts the reads of the list: R reads it again (tables still being written appear). */
  generation: number;
}

export type TablesAction =
  | { type: 'reload' }
  | { type: 'row'; row: TableRow }
  | { type: 'loaded'; rows: TableRow[]; warnings: string[] }
  | { type: 'load-failed'; failure: string }
  | { type: 'page-size'; size: number }
  | { type: 'move'; by: number }
  | { type: 'filter-open' }
  | { type: 'filter-change'; text: string }
  | { type: 'filter-apply' }
  | { type: 'filter-clear' }
  | { type: 'sort-cycle' }
  | { type: 'open' }
  | { type: 'detail'; name: string; detail: TableDetail }
  | { type: 'detail-failed'; name: string; failure: string }
  | { type: 'detail-progress'; name: string; done: number; total: number }
  | { type: 'maintenance' }
  | { type: 'scroll'; by: number; max: number }
  | { type: 'back' };

export function initialTablesState(pageSize = 10): TablesState {
  return {
    phase: 'loading',
    warnings: [],
    rows: [],
    filter: '',
    filtering: false,
    sort: 'name',
    visible: [],
    cursor: 0,
    top: 0,
    pageSize: Math.max(1, pageSize),
    view: 'list',
    generation: 0,
  };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Row indices in `sort` order; names break ties. Unknown numbers sort last. */
export function tableOrder(rows: readonly TableRow[], sort: TableSort): number[] {
  const names = rows.map((row) => tableName(row).toLowerCase());
  const byName = (a: number, b: number) => compareText(names[a]!, names[b]!);
  const desc = (value: (row: TableRow) => number | null) => {
    const values = rows.map((row) => value(row) ?? Number.NEGATIVE_INFINITY);
    return (a: number, b: number) =>
      values[a] === values[b] ? byName(a, b) : values[b]! > values[a]! ? 1 : -1;
  };
  const indices = rows.map((_, i) => i);
  if (sort === 'name') return indices.sort(byName);
  if (sort === 'last-commit') return indices.sort(desc((row) => row.lastCommitMs));
  if (sort === 'size') return indices.sort(desc((row) => row.dataBytes));
  return indices.sort(desc((row) => row.problems.length));
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

function scrolled(state: TablesState): TablesState {
  let top = state.top;
  if (state.cursor < top) top = state.cursor;
  if (state.cursor >= top + state.pageSize) top = state.cursor - state.pageSize + 1;
  top = clamp(top, 0, Math.max(0, state.visible.length - state.pageSize));
  return top === state.top ? state : { ...state, top };
}

function select(state: TablesState, cursor: number): TablesState {
  const next = clamp(cursor, 0, Math.max(0, state.visible.length - 1));
  const index = state.visible[next];
  const selected = index === undefined ? undefined : tableName(state.rows[index]!);
  return scrolled({ ...state, cursor: next, selected });
}

/** Recomputes the visible rows; the cursor stays on the selected table when it is still shown. */
function refilter(state: TablesState): TablesState {
  const needle = state.filter.trim().toLowerCase();
  const order = tableOrder(state.rows, state.sort);
  const visible =
    needle === ''
      ? order
      : order.filter((i) => {
          const row = state.rows[i]!;
          return `${tableName(row)}\n${row.problems.map((p) => p.code).join('\n')}`
            .toLowerCase()
            .includes(needle);
        });
  const found =
    state.selected === undefined
      ? -1
      : visible.findIndex((i) => tableName(state.rows[i]!) === state.selected);
  return select({ ...state, visible }, found === -1 ? state.cursor : found);
}

export function tablesReducer(state: TablesState, action: TablesAction): TablesState {
  switch (action.type) {
    case 'reload':
      return refilter({
        ...state,
        phase: 'loading',
        rows: [],
        warnings: [],
        generation: state.generation + 1,
      });
    case 'row':
      return refilter({ ...state, rows: [...state.rows, action.row] });
    case 'loaded':
      return refilter({ ...state, phase: 'ready', rows: action.rows, warnings: action.warnings });
    case 'load-failed':
      return { ...state, phase: 'error', failure: action.failure };
    case 'page-size':
      return scrolled({ ...state, pageSize: Math.max(1, action.size) });
    case 'move':
      return select(state, state.cursor + action.by);
    case 'filter-open':
      return { ...state, filtering: true };
    case 'filter-change':
      return refilter({ ...state, filter: action.text });
    case 'filter-apply':
      return { ...state, filtering: false };
    case 'filter-clear':
      return refilter({ ...state, filter: '', filtering: false });
    case 'sort-cycle':
      return refilter({
        ...state,
        sort: TABLE_SORTS[(TABLE_SORTS.indexOf(state.sort) + 1) % TABLE_SORTS.length]!,
      });
    case 'open': {
      if (state.selected === undefined) return state;
      return { ...state, view: 'detail', detail: { name: state.selected, scroll: 0 } };
    }
    case 'detail':
    case 'detail-failed':
    case 'detail-progress': {
      if (state.detail?.name !== action.name) return state;
      if (action.type === 'detail')
        return { ...state, detail: { name: action.name, detail: action.detail, scroll: 0 } };
      if (action.type === 'detail-failed')
        return { ...state, detail: { name: action.name, failure: action.failure, scroll: 0 } };
      return {
        ...state,
        detail: { ...state.detail, progress: `${action.done} of ${action.total} manifests` },
      };
    }
    case 'maintenance':
      return state.view === 'detail' && state.detail?.detail
        ? { ...state, view: 'maintenance', detail: { ...state.detail, scroll: 0 } }
        : state;
    case 'scroll':
      return state.detail
        ? {
            ...state,
            detail: {
              ...state.detail,
              scroll: clamp(state.detail.scroll + action.by, 0, Math.max(0, action.max)),
            },
          }
        : state;
    case 'back':
      if (state.view === 'maintenance')
        return { ...state, view: 'detail', detail: { ...state.detail!, scroll: 0 } };
      if (state.view === 'detail') {
        const { detail: _left, ...rest } = state;
        return { ...rest, view: 'list' };
      }
      return state;
  }
}

/** The maintenance of every problem, as lines to copy: each engine's statements unindented. */
export function maintenanceLines(detail: TableDetail): string[] {
  const lines: string[] = [];
  for (const problem of detail.problems) {
    if (!problem.maintenance) continue;
    lines.push(`-- ${problem.code}: ${problem.what}`, '-- Spark', ...problem.maintenance.spark);
    lines.push('-- Trino', ...problem.maintenance.trino);
    lines.push('# pyiceberg', ...problem.maintenance.pyiceberg, '');
  }
  return lines.length ? lines.slice(0, -1) : ['No problem of this table calls for maintenance.'];
}
