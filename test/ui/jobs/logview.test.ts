// The log pane's reducer: line selection, search, whole-line view and appending while following.
import { describe, expect, it } from 'vitest';
import type { LogLine, LogPage } from '../../../src/management/types.js';
import { logRows } from '../../../src/ui/jobs/LogPane.js';
import {
  EMPTY_VIEW,
  findLine,
  type LogsSlice,
  logViewReducer,
  selectedLine,
} from '../../../src/ui/jobs/logview.js';
import { makeTask } from './support.js';

const line = (message: string): LogLine => ({ level: 'info', time: '2026-01-01T00:00:00Z', message });
const page = (messages: string[]): LogPage => ({
  logs: messages.map(line),
  older_cursor: 0,
  newer_cursor: 100,
  has_more_older: false,
  has_more_newer: false,
});
const task = makeTask(1);

describe('logViewReducer', () => {
  const open = (messages: string[]): LogsSlice => ({ task, page: page(messages), view: EMPTY_VIEW });

  it('selects the last line first and moves within the page', () => {
    let logs = open(['a', 'b', 'c']);
    expect(selectedLine(logs.view, logs.page)).toBe(2);
    logs = logViewReducer(logs, { type: 'log-line-move', by: -5 });
    expect(selectedLine(logs.view, logs.page)).toBe(0);
    logs = logViewReducer(logs, { type: 'log-whole-open' });
    expect(logs.view.whole).toEqual({ index: 0, top: 0 });
    logs = logViewReducer(logs, { type: 'log-whole-scroll', by: -1 });
    expect(logs.view.whole?.top).toBe(0);
  });

  it('searches forward from the selection, wrapping around, any case', () => {
    expect(findLine(page(['Error one', 'ok', 'error two']).logs, 'ERROR', 1)).toBe(2);
    expect(findLine(page(['Error one', 'ok', 'error two']).logs, 'error', 3)).toBe(0);
    expect(findLine(page(['ok']).logs, 'nope', 0)).toBeUndefined();
    let logs = logViewReducer(open(['x error', 'ok', 'y error']), { type: 'log-search-open' });
    logs = logViewReducer(logs, { type: 'log-search-change', text: 'error' });
    logs = logViewReducer(logs, { type: 'log-search-next' });
    expect([logs.view.searching, selectedLine(logs.view, logs.page)]).toEqual([false, 2]);
    logs = logViewReducer(logs, { type: 'log-search-next' });
    expect(selectedLine(logs.view, logs.page)).toBe(0);
  });

  it('appends followed lines only while following the same run, keeping the last `keep`', () => {
    let logs = open(['a', 'b']);
    const next = { base: 10, repeat: true };
    expect(logViewReducer(logs, { type: 'logs-append', task, lines: [line('c')], next, keep: 2 })).toBe(logs);
    logs = logViewReducer(logs, { type: 'log-follow', cursor: { base: 5, repeat: true } });
    logs = logViewReducer(logs, { type: 'logs-append', task, lines: [line('c')], next, keep: 2 });
    expect(logs.page?.logs.map((l) => l.message)).toEqual(['b', 'c']);
    expect(logs.page?.has_more_older).toBe(true);
    expect(logs.view.follow).toEqual(next);
    const other = makeTask(2, { file_path: 'other' });
    expect(
      logViewReducer(logs, { type: 'logs-append', task: other, lines: [line('d')], next, keep: 2 }),
    ).toBe(logs);
  });
});

describe('logRows', () => {
  it('wraps long lines and keeps the selected line in a window that starts at a line', () => {
    const lines = [line('short'), line(`${'word '.repeat(30)}end`), line('last')];
    const rows = logRows(lines, 1, true, 40, 8);
    expect(rows.every((r) => r.text.length <= 38)).toBe(true);
    expect(rows.filter((r) => r.selected).at(-1)?.text).toContain('end');
    expect(rows[0]?.key.endsWith(':0')).toBe(true);
    const tall = logRows(lines, 1, true, 40, 2);
    expect(tall.map((r) => r.key)).toEqual(['1:0', '1:1']);
    expect(logRows(lines, 2, false, 40, 2).map((r) => r.selected)).toEqual([false, true]);
  });
});
