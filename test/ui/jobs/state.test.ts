import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ageStamp, relativeTime, stateLook } from '../../../src/ui/jobs/format.js';
import {
  type Action,
  initialState,
  type JobsState,
  jobsReducer,
  selectedJob,
  sortOrder,
} from '../../../src/ui/jobs/state.js';
import { makeJob, makeTask, NOW, neverRan } from './support.js';

const run = (state: JobsState, ...actions: Action[]) => actions.reduce(jobsReducer, state);
const names = (state: JobsState) => state.visible.map((index) => state.data.jobs[index]!.name);

const jobs = [
  makeJob(1, { name: 'orders', last_run_time: '2026-08-20T08:00:00Z', last_run_state: 'Completed' }),
  makeJob(2, {
    name: 'Customers',
    source: { name: 'mysql-crm', type: 'mysql' },
    last_run_time: '2026-08-20T10:00:00Z',
    last_run_state: 'Failed',
  }),
  neverRan(3, { name: 'audit' }),
  makeJob(4, { name: 'payments', last_run_time: '2026-08-20T11:00:00Z', last_run_state: 'Running' }),
];
const loaded = () => run(initialState('1', 2), { type: 'loaded', jobs, at: NOW });

describe('jobsReducer', () => {
  it('starts loading and lists the jobs sorted by name, case-insensitively', () => {
    expect(initialState('1').phase).toBe('loading');
    const state = loaded();
    expect(state.phase).toBe('ready');
    expect(names(state)).toEqual(['audit', 'Customers', 'orders', 'payments']);
    expect(selectedJob(state)?.name).toBe('audit');
    expect(state.loadedAt).toBe(NOW);
  });

  it('cycles the sort: name → last run (newest first, never-run last) → state (problems first) → name', () => {
    let state = run(loaded(), { type: 'sort-cycle' });
    expect(state.sort).toBe('last-run');
    expect(names(state)).toEqual(['payments', 'Customers', 'orders', 'audit']);
    state = run(state, { type: 'sort-cycle' });
    expect(state.sort).toBe('state');
    expect(names(state)).toEqual(['Customers', 'payments', 'orders', 'audit']);
    state = run(state, { type: 'sort-cycle' });
    expect(state.sort).toBe('name');
  });

  it('keeps the selected job, not the row number, when the sort changes', () => {
    const state = run(loaded(), { type: 'move', by: 2 }, { type: 'sort-cycle' });
    expect(selectedJob(state)?.name).toBe('orders');
    expect(state.cursor).toBe(2);
  });

  it('filters by name, source and destination, case-insensitively, and clears', () => {
    let state = run(loaded(), { type: 'filter-open' }, { type: 'filter-change', text: 'MYSQL' });
    expect(names(state)).toEqual(['Customers']);
    state = run(state, { type: 'filter-change', text: 'iceberg' });
    expect(state.visible).toHaveLength(4);
    state = run(state, { type: 'filter-change', text: 'ord' }, { type: 'filter-apply' });
    expect(state.overlay.kind).toBe('none');
    expect(names(state)).toEqual(['orders']);
    state = run(state, { type: 'filter-clear' });
    expect(state.filter).toBe('');
    expect(names(state)).toHaveLength(4);
    expect(selectedJob(state)?.name).toBe('orders');
  });

  it('keeps the selection by job id across a refresh that reorders and adds jobs', () => {
    const state = run(loaded(), { type: 'move', by: 3 });
    expect(selectedJob(state)?.id).toBe(4);
    const next = run(state, {
      type: 'loaded',
      jobs: [makeJob(9, { name: 'aaa-new' }), ...jobs].reverse(),
      at: NOW + 10_000,
    });
    expect(selectedJob(next)?.id).toBe(4);
    expect(next.loadedAt).toBe(NOW + 10_000);
  });

  it('moves to the nearest row when the selected job disappears', () => {
    const state = run(loaded(), { type: 'move-to', where: 'bottom' });
    const next = run(state, { type: 'loaded', jobs: jobs.slice(0, 2), at: NOW });
    expect(selectedJob(next)?.name).toBe('orders');
  });

  it('pages and scrolls the window with the cursor', () => {
    let state = loaded();
    expect(state.pageSize).toBe(2);
    state = run(state, { type: 'page', by: 1 });
    expect(state.cursor).toBe(2);
    expect(state.top).toBe(1);
    state = run(state, { type: 'move-to', where: 'bottom' });
    expect([state.cursor, state.top]).toEqual([3, 2]);
    state = run(state, { type: 'move-to', where: 'top' });
    expect([state.cursor, state.top]).toEqual([0, 0]);
  });

  it('keeps the cursor and the window in range whatever the keys', () => {
    const action = fc.oneof(
      fc.integer({ min: -30, max: 30 }).map((by): Action => ({ type: 'move', by })),
      fc.constantFrom<Action>(
        { type: 'page', by: 1 },
        { type: 'page', by: -1 },
        { type: 'move-to', where: 'top' },
        { type: 'move-to', where: 'bottom' },
        { type: 'sort-cycle' },
        { type: 'filter-clear' },
      ),
      fc.constantFrom('o', 'a', 'zz', 'mysql', '').map((text): Action => ({ type: 'filter-change', text })),
      fc.integer({ min: 1, max: 6 }).map((size): Action => ({ type: 'page-size', size })),
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 40 }), (actions) => {
        const state = run(loaded(), ...actions);
        if (state.visible.length === 0) {
          expect(selectedJob(state)).toBeUndefined();
          return;
        }
        expect(state.cursor).toBeGreaterThanOrEqual(0);
        expect(state.cursor).toBeLessThan(state.visible.length);
        expect(state.cursor).toBeGreaterThanOrEqual(state.top);
        expect(state.cursor).toBeLessThan(state.top + state.pageSize);
        expect(selectedJob(state)?.id).toBe(state.selectedId);
      }),
    );
  });

  it('shows an error screen when the first load fails, a status line when a refresh fails', () => {
    const failure = { kind: 'network' as const, message: 'connect ECONNREFUSED 127.0.0.1:8000' };
    expect(run(initialState('1'), { type: 'load-failed', failure }).phase).toBe('error');
    const state = run(loaded(), { type: 'load-start' }, { type: 'load-failed', failure });
    expect(state.phase).toBe('ready');
    expect(state.failure).toEqual(failure);
    expect(state.visible).toHaveLength(4);
  });

  it('opens the detail of the selected job and ignores answers about another job', () => {
    let state = run(loaded(), { type: 'move', by: 1 }, { type: 'detail-open' });
    expect(state.view).toBe('detail');
    expect(state.detail?.jobId).toBe(2);
    state = run(state, { type: 'tasks', jobId: 1, tasks: [makeTask(1)] });
    expect(state.detail?.tasks).toBeUndefined();
    state = run(
      state,
      { type: 'tasks', jobId: 2, tasks: [makeTask(1), makeTask(2)] },
      { type: 'task-move', by: 5 },
    );
    expect(state.detail?.taskCursor).toBe(1);
    state = run(state, { type: 'detail-close' });
    expect([state.view, state.detail]).toEqual(['list', undefined]);
    expect(selectedJob(state)?.id).toBe(2);
  });

  it('keeps the log page of a task until the next page arrives, and drops stale pages', () => {
    const task = makeTask(1);
    const page = { logs: [], older_cursor: 0, newer_cursor: 0, has_more_older: false, has_more_newer: false };
    let state = run(loaded(), { type: 'detail-open' }, { type: 'logs-start', jobId: 3, task });
    expect(state.detail?.pane).toBe('logs');
    state = run(state, { type: 'logs', jobId: 3, task, page }, { type: 'logs-start', jobId: 3, task });
    expect(state.detail?.logs).toMatchObject({ page, loading: true });
    state = run(state, { type: 'logs', jobId: 3, task: makeTask(2), page });
    expect(state.detail?.logs?.loading).toBe(true);
  });

  it('keeps an action’s message until the user moves on, but not while it is still running', () => {
    let state = run(loaded(), { type: 'notice', tone: 'busy', text: 'Starting a sync of audit…' });
    state = run(state, { type: 'move', by: 1 });
    expect(state.notice?.tone).toBe('busy');
    state = run(state, { type: 'notice', tone: 'ok', text: 'sync triggered' }, { type: 'help-toggle' });
    expect(state.notice?.text).toBe('sync triggered');
    state = run(state, { type: 'help-toggle' }, { type: 'move', by: 1 });
    expect(state.notice).toBeUndefined();
  });

  it('switching project starts over but keeps the sort and filter', () => {
    const state = run(
      loaded(),
      { type: 'sort-cycle' },
      { type: 'filter-change', text: 'o' },
      {
        type: 'project-switch',
        project: '7',
      },
    );
    expect(state).toMatchObject({
      project: '7',
      phase: 'loading',
      sort: 'last-run',
      filter: 'o',
      visible: [],
    });
  });
});

describe('sortOrder', () => {
  it('is a permutation of the jobs for every sort', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.string(), state: fc.option(fc.constantFrom('Completed', 'Failed')) })),
        fc.constantFrom('name' as const, 'last-run' as const, 'state' as const),
        (specs, sort) => {
          const list = specs.map((spec, id) =>
            spec.state
              ? makeJob(id, { name: spec.name, last_run_state: spec.state })
              : neverRan(id, { name: spec.name }),
          );
          expect([...sortOrder(list, sort)].sort((a, b) => a - b)).toEqual(list.map((_, index) => index));
        },
      ),
    );
  });
});

describe('formatters', () => {
  it('describes run states with a glyph and a word, never by colour alone', () => {
    expect(stateLook('Completed')).toMatchObject({ glyph: '✓', word: 'completed' });
    expect(stateLook('WORKFLOW_EXECUTION_STATUS_FAILED')).toMatchObject({ glyph: '✗', word: 'failed' });
    expect(stateLook('TimedOut')).toMatchObject({ glyph: '✗', word: 'timed out' });
    expect(stateLook(undefined)).toMatchObject({ word: 'never' });
    expect(stateLook('constructor')).toMatchObject({ glyph: '?', word: 'constructor' });
  });

  it('gives relative times', () => {
    expect(relativeTime('2026-08-20T09:00:00Z', NOW)).toBe('3 h ago');
    expect(relativeTime('2026-08-20T11:45:00Z', NOW)).toBe('15 min ago');
    expect(relativeTime('2026-08-17T12:00:00Z', NOW)).toBe('3 d ago');
    expect(relativeTime('2026-08-20T11:59:58Z', NOW)).toBe('just now');
    expect(relativeTime('2026-08-20T12:30:00Z', NOW)).toBe('in 30 min');
    expect(relativeTime('yesterday', NOW)).toBeUndefined();
    expect(relativeTime(undefined, NOW)).toBeUndefined();
    expect(ageStamp(NOW - 4_500, NOW)).toBe('updated 4s ago');
  });
});
