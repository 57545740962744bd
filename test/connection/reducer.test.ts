import { describe, expect, it } from 'vitest';
import { checkReportSchema, type Step } from '../../src/check/types.js';
import {
  abandonedReport,
  type CheckAction,
  type CheckState,
  checkReducer,
  initialCheckState,
  TRACE_LIMIT,
  toReport,
  unfinishedSteps,
} from '../../src/connection/reducer.js';
import { diagnosisFor } from './fakes.js';

const step = (id: string, state: Step['state'], chain: Step['chain'] = 'catalog'): CheckAction => ({
  type: 'step',
  step: { id, chain, title: id, state },
});

const fold = (actions: CheckAction[], from: CheckState = initialCheckState) =>
  actions.reduce(checkReducer, from);

describe('checkReducer', () => {
  it('keeps steps in the order they were announced and updates them in place', () => {
    const state = fold([
      { type: 'start' },
      step('catalog.connect', 'pending'),
      step('storage.head', 'pending', 'storage'),
      step('catalog.config', 'pending'),
      step('storage.head', 'running', 'storage'),
      step('catalog.connect', 'ok'),
    ]);
    expect(state.steps.map((s) => `${s.id}:${s.state}`)).toEqual([
      'catalog.connect:ok',
      'storage.head:running',
      'catalog.config:pending',
    ]);
  });

  it('ignores events before a run starts and after it is done', () => {
    expect(fold([step('catalog.connect', 'ok')])).toEqual(initialCheckState);
    const done = fold([{ type: 'start' }, step('catalog.connect', 'ok'), { type: 'done' }]);
    expect(fold([step('catalog.connect', 'failed'), { type: 'warning', message: 'late' }], done)).toBe(done);
  });

  it('starts a new run from a clean slate and counts runs', () => {
    const first = fold([
      { type: 'start' },
      step('catalog.connect', 'failed'),
      { type: 'diagnosis', diagnosis: diagnosisFor('catalog.connect') },
      { type: 'done' },
    ]);
    const second = checkReducer(first, { type: 'start' });
    expect(second).toMatchObject({ phase: 'running', run: 2, steps: [], diagnoses: [], trace: [] });
  });

  it('moves to cancelling only from a running test', () => {
    const running = fold([{ type: 'start' }]);
    expect(checkReducer(running, { type: 'cancel' }).phase).toBe('cancelling');
    const done = checkReducer(running, { type: 'done' });
    expect(checkReducer(done, { type: 'cancel' }).phase).toBe('done');
    const cancelling = fold([{ type: 'cancel' }, step('catalog.connect', 'cancelled')], running);
    expect(cancelling.steps[0]?.state).toBe('cancelled');
  });

  it('keeps only the latest trace entries and each warning once', () => {
    const entries: CheckAction[] = Array.from({ length: TRACE_LIMIT + 5 }, (_, i) => ({
      type: 'trace',
      entry: {
        method: 'GET',
        url: `http://127.0.0.1/${i}`,
        durationMs: 1,
        requestHeaders: {},
        responseHeaders: {},
      },
    }));
    const state = fold([
      { type: 'start' },
      ...entries,
      { type: 'warning', message: 'w' },
      { type: 'warning', message: 'w' },
    ]);
    expect(state.trace).toHaveLength(TRACE_LIMIT);
    expect(state.trace[0]?.url).toBe('http://127.0.0.1/5');
    expect(state.warnings).toEqual(['w']);
  });
});

describe('reports', () => {
  it('passes only with steps, all ok or skipped, and no diagnosis', () => {
    expect(toReport(fold([{ type: 'start' }])).ok).toBe(false);
    const passing = fold([{ type: 'start' }, step('a', 'ok'), step('b', 'skipped')]);
    expect(toReport(passing).ok).toBe(true);
    expect(toReport(checkReducer(passing, step('c', 'cancelled'))).ok).toBe(false);
    const diagnosed = checkReducer(passing, {
      type: 'diagnosis',
      diagnosis: diagnosisFor('a'),
    });
    expect(toReport(diagnosed).ok).toBe(false);
    expect(checkReportSchema.parse(toReport(diagnosed))).toEqual(toReport(diagnosed));
  });

  it('ends unfinished steps as cancelled or failed, without stale durations', () => {
    const state = fold([
      { type: 'start' },
      step('a', 'ok'),
      { type: 'step', step: { id: 'b', chain: 'storage', title: 'b', state: 'running', durationMs: 3 } },
      step('c', 'pending'),
    ]);
    expect(unfinishedSteps(state, 'cancelled')).toEqual([
      { id: 'b', chain: 'storage', title: 'b', state: 'cancelled' },
      { id: 'c', chain: 'catalog', title: 'c', state: 'cancelled' },
    ]);
    expect(unfinishedSteps(state, 'failed').map((s) => s.detail)).toEqual([
      'the check ended without a result',
      'the check ended without a result',
    ]);
    const abandoned = abandonedReport(state);
    expect(abandoned.steps.map((s) => s.state)).toEqual(['ok', 'cancelled', 'cancelled']);
    expect(abandoned.ok).toBe(false);
  });
});
