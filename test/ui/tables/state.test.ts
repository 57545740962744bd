// The tables screen's reducer alone: rows arriving one by one, the sorts, the filter, the cursor kept
// on its table, detail and maintenance views and Esc going back one level at a time.
import { describe, expect, it } from 'vitest';
import {
  initialTablesState,
  maintenanceLines,
  type TablesAction,
  type TablesState,
  tablesReducer,
} from '../../../src/ui/tables/state.js';
import { detailOf, ROWS, SESSIONS } from './support.js';

const run = (actions: TablesAction[], from: TablesState = initialTablesState(5)) =>
  actions.reduce(tablesReducer, from);
const names = (s: TablesState) => s.visible.map((i) => s.rows[i]!.name);

describe('tables reducer', () => {
  it('shows rows as they arrive, sorted by name, the cursor staying on its table', () => {
    let s = run([{ type: 'row', row: ROWS[0]! }]);
    expect(s.phase).toBe('loading');
    expect(s.selected).toBe('public.orders');
    s = run(
      [
        { type: 'row', row: ROWS[1]! },
        { type: 'row', row: ROWS[2]! },
      ],
      s,
    );
    expect(names(s)).toEqual(['customers', 'orders', 'sessions']);
    expect(s.selected).toBe('public.orders');
    expect(s.cursor).toBe(1);
    s = run([{ type: 'loaded', rows: ROWS, warnings: [] }], s);
    expect(s.phase).toBe('ready');
    expect(s.selected).toBe('public.orders');
  });

  it('sorts by last commit, size and problems (newest, largest, most first)', () => {
    const s = run([{ type: 'loaded', rows: ROWS, warnings: [] }]);
    const last = run([{ type: 'sort-cycle' }], s);
    expect(last.sort).toBe('last-commit');
    expect(names(last)).toEqual(['sessions', 'customers', 'orders']);
    const size = run([{ type: 'sort-cycle' }], last);
    expect(names(size)).toEqual(['sessions', 'orders', 'customers']);
    const problems = run([{ type: 'sort-cycle' }], size);
    expect(names(problems)[0]).toBe('sessions');
    expect(run([{ type: 'sort-cycle' }], problems).sort).toBe('name');
  });

  it('filters on the name and the problem codes; clearing brings every row back', () => {
    const s = run([
      { type: 'loaded', rows: ROWS, warnings: [] },
      { type: 'filter-open' },
      { type: 'filter-change', text: 'snapshots' },
    ]);
    expect(names(s)).toEqual(['sessions']);
    expect(s.selected).toBe('public.sessions');
    expect(names(run([{ type: 'filter-change', text: 'ORD' }], s))).toEqual(['orders']);
    const cleared = run([{ type: 'filter-clear' }], s);
    expect(cleared.filtering).toBe(false);
    expect(names(cleared)).toHaveLength(3);
  });

  it('opens the detail of the selected table, ignores a late answer for another, goes back with Esc', () => {
    const s = run([{ type: 'loaded', rows: ROWS, warnings: [] }, { type: 'move', by: 2 }, { type: 'open' }]);
    expect(s.view).toBe('detail');
    expect(s.detail?.name).toBe('public.sessions');
    const stale = run([{ type: 'detail', name: 'public.orders', detail: detailOf(ROWS[0]!) }], s);
    expect(stale.detail?.detail).toBeUndefined();
    const progress = run([{ type: 'detail-progress', name: 'public.sessions', done: 2, total: 3 }], s);
    expect(progress.detail?.progress).toBe('2 of 3 manifests');
    const shown = run([{ type: 'detail', name: 'public.sessions', detail: detailOf(SESSIONS) }], s);
    expect(shown.detail?.detail?.snapshots).toBe(150);
    const maint = run([{ type: 'maintenance' }], shown);
    expect(maint.view).toBe('maintenance');
    expect(run([{ type: 'back' }], maint).view).toBe('detail');
    const list = run([{ type: 'back' }, { type: 'back' }], maint);
    expect(list.view).toBe('list');
    expect(list.detail).toBeUndefined();
    expect(list.selected).toBe('public.sessions');
  });

  it('has no maintenance view before the detail is read', () => {
    const s = run([{ type: 'loaded', rows: ROWS, warnings: [] }, { type: 'open' }, { type: 'maintenance' }]);
    expect(s.view).toBe('detail');
  });

  it('lists the maintenance to paste, each engine unindented', () => {
    const lines = maintenanceLines(detailOf(SESSIONS));
    expect(lines[0]).toBe('-- TABLE_MANY_SNAPSHOTS: 150 snapshots (above 100)');
    expect(lines).toContain(
      "CALL olake.system.expire_snapshots(table => 'public.sessions', older_than => TIMESTAMP '2026-08-15 12:00:00', retain_last => 1);",
    );
    expect(
      lines.some((l) => l.startsWith('ALTER TABLE "olake"."public"."sessions" EXECUTE expire_snapshots')),
    ).toBe(true);
    expect(maintenanceLines(detailOf(ROWS[0]!))).toEqual(['No problem of this table calls for maintenance.']);
  });
});
