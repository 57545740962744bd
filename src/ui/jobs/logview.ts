// The log pane's own state: the selected line, wrapping, one line opened whole, search, following a
// running run, and the diagnosis of the run. Pure; the jobs reducer hands log-view actions here.
import type { Diagnosis } from '../../check/types.js';
import type { FollowCursor } from '../../management/follow.js';
import type { LogLine, LogPage, Task } from '../../management/types.js';

export interface LogView {
  /** Index of the selected line in the page (defaults to the last). */
  line?: number;
  /** A line opened whole: its index and the first wrapped row shown. */
  whole?: { index: number; top: number };
  /** The search text; `searching` while it is typed. */
  search: string;
  searching: boolean;
  /** Set while following: where the next poll reads from. */
  follow?: FollowCursor;
  /** What went wrong in the run (failed runs only); undefined until read. */
  diagnoses?: Diagnosis[];
}

export const EMPTY_VIEW: LogView = { search: '', searching: false };

export type LogViewAction =
  | { type: 'log-line-move'; by: number }
  | { type: 'log-whole-open' }
  | { type: 'log-whole-close' }
  | { type: 'log-whole-scroll'; by: number }
  | { type: 'log-search-open' }
  | { type: 'log-search-change'; text: string }
  | { type: 'log-search-next' }
  | { type: 'log-search-close' }
  | { type: 'log-follow'; cursor?: FollowCursor }
  | { type: 'logs-append'; task: Task; lines: LogLine[]; next: FollowCursor; keep: number }
  /** The followed run is no longer running: following stops and the pane shows its final status. */
  | { type: 'log-ended'; task: Task; status: string }
  | { type: 'diagnoses'; task: Task; diagnoses: Diagnosis[] };

export const LOG_VIEW_ACTIONS = new Set<string>([
  'log-line-move',
  'log-whole-open',
  'log-whole-close',
  'log-whole-scroll',
  'log-search-open',
  'log-search-change',
  'log-search-next',
  'log-search-close',
  'log-follow',
  'logs-append',
  'log-ended',
  'diagnoses',
]);

const clamp = (n: number, lo: number, hi: number) => Math.min(Math.max(n, lo), hi);

export function selectedLine(view: LogView, page: LogPage | undefined): number {
  const count = page?.logs.length ?? 0;
  return clamp(view.line ?? count - 1, 0, Math.max(0, count - 1));
}

/** The next line at or after `from` (wrapping around) whose text contains `query`, any case. */
export function findLine(lines: LogLine[], query: string, from: number): number | undefined {
  const needle = query.toLowerCase();
  if (!needle) return undefined;
  for (let step = 0; step < lines.length; step++) {
    const index = (from + step) % lines.length;
    const line = lines[index] as LogLine;
    if (`${line.level} ${line.message}`.toLowerCase().includes(needle)) return index;
  }
  return undefined;
}

export interface LogsSlice {
  task: Task;
  page?: LogPage;
  view: LogView;
}

/** Applies a log-view action to the open logs (same task only for task-bound actions). */
export function logViewReducer<T extends LogsSlice>(logs: T, action: LogViewAction): T {
  const { view, page } = logs;
  const lines = page?.logs ?? [];
  const at = selectedLine(view, page);
  const set = (change: Partial<LogView>): T => ({ ...logs, view: { ...view, ...change } });
  switch (action.type) {
    case 'log-line-move':
      return set({ line: clamp(at + action.by, 0, Math.max(0, lines.length - 1)) });
    case 'log-whole-open':
      return lines.length === 0 ? logs : set({ whole: { index: at, top: 0 } });
    case 'log-whole-close':
      return set({ whole: undefined });
    case 'log-whole-scroll':
      return view.whole
        ? set({ whole: { ...view.whole, top: Math.max(0, view.whole.top + action.by) } })
        : logs;
    case 'log-search-open':
      return set({ searching: true });
    case 'log-search-change':
      return set({ search: action.text });
    case 'log-search-next': {
      const found = findLine(lines, view.search, view.searching ? at : at + 1);
      return set({ searching: false, line: found ?? view.line });
    }
    case 'log-search-close':
      return set({ searching: false, search: '' });
    case 'log-follow':
      return set({ follow: action.cursor, line: undefined });
    case 'logs-append': {
      if (logs.task.file_path !== action.task.file_path || !view.follow || !page) return logs;
      const kept = [...page.logs, ...action.lines].slice(-action.keep);
      return {
        ...logs,
        page: {
          ...page,
          logs: kept,
          has_more_older: page.has_more_older || kept.length < page.logs.length + action.lines.length,
        },
        view: { ...view, follow: action.next, line: undefined },
      };
    }
    case 'log-ended':
      if (logs.task.file_path !== action.task.file_path) return logs;
      return { ...logs, task: { ...logs.task, status: action.status }, view: { ...view, follow: undefined } };
    case 'diagnoses':
      return logs.task.file_path === action.task.file_path ? set({ diagnoses: action.diagnoses }) : logs;
  }
}
