import { describe, expect, it } from 'vitest';
import type { Step } from '../../../src/check/types.js';
import { type CheckAction, checkReducer, initialCheckState } from '../../../src/connection/reducer.js';
import {
  diagnosisPanel,
  panelHeight,
  scrolled,
  scrollPanel,
  stepLayout,
  stepRows,
  stepText,
  titleWidth,
  tracePanel,
} from '../../../src/ui/test/layout.js';
import { diagnosisFor } from '../../connection/fakes.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `line ${i}` }));

describe('test screen layout', () => {
  const step = (chain: Step['chain'], n: number, state: Step['state'] = 'ok'): Step[] =>
    Array.from({ length: n }, (_, i) => ({ id: `${chain}.${i}`, chain, title: `step ${i}`, state }));

  it('leaves the panel the rows a 24-row terminal has left, keeping one free', () => {
    const readOnly = [...step('catalog', 4), ...step('storage', 5)];
    expect(panelHeight(24, stepLayout(readOnly, 80, 24, 1, 1))).toBe(24 - 8 - 9 - 1);
    expect(panelHeight(10, stepLayout(readOnly, 80, 10, 1, 1))).toBe(1);
  });

  it('folds passed chains into one row when three chains would leave the panel fewer rows than it needs', () => {
    const running = [...step('catalog', 4), ...step('storage', 5), ...step('write', 6, 'running')];
    const layout = stepLayout(running, 80, 24, 1, 6);
    const groups = layout.groups;
    expect(groups.map((g) => [g.chain, g.collapsed, g.steps.length])).toEqual([
      ['catalog', '✓ 4 steps passed', 0],
      ['storage', '✓ 5 steps passed', 0],
      ['write', null, 6],
    ]);
    expect(panelHeight(24, layout)).toBe(24 - 6 - 3 - 6 - 1);
    // A failed chain stays open: its failing step is what the user needs to see.
    const failed = [...step('catalog', 4), ...step('storage', 5, 'failed'), ...step('write', 6, 'skipped')];
    expect(stepLayout(failed, 80, 24, 1, 6).groups.map((g) => g.collapsed)).toEqual([
      '✓ 4 steps passed',
      null,
      '– 6 skipped',
    ]);
    // A tall terminal folds nothing.
    expect(stepLayout(running, 80, 40, 1, 6).groups.every((g) => g.collapsed === null)).toBe(true);
  });

  // Issue 30, item 3: diagnoses get the rows the steps do not need.
  it('folds passed and skipped steps into their header when the diagnoses need the rows', () => {
    const steps = [
      ...step('catalog', 1),
      ...step('catalog', 1, 'failed').map((s) => ({ ...s, id: 'catalog.f' })),
      ...step('storage', 4, 'skipped'),
      ...step('storage', 1, 'failed').map((s) => ({ ...s, id: 'storage.f' })),
    ];
    const roomy = stepLayout(steps, 80, 24, 1, 3);
    expect(roomy.groups.every((g) => g.collapsed === null)).toBe(true);
    const tight = stepLayout(steps, 80, 24, 1, 40);
    expect(tight.groups.map((g) => [g.collapsed, g.steps.map((s) => s.state)])).toEqual([
      ['✓ 1 passed', ['failed']],
      ['– 4 skipped', ['failed']],
    ]);
    expect(panelHeight(24, tight)).toBe(24 - 6 - 4 - 1);
  });

  it('wraps a cut detail under its step while the panel has what it needs, else lists it after the diagnoses', () => {
    const detail =
      `bucket "warehouse" exists in region us-east-1 ${'and answers HeadBucket '.repeat(3)}`.trim();
    const passed: Step = {
      id: 'storage.head',
      chain: 'storage',
      title: 'Bucket exists (HeadBucket)',
      state: 'ok',
      durationMs: 4,
      detail,
    };
    const done = [{ type: 'start' }, { type: 'step', step: passed }, { type: 'done' }].reduce(
      (s, a) => checkReducer(s, a as CheckAction),
      initialCheckState,
    );
    const wrapping = stepLayout(done.steps, 80, 24, 1, 1);
    expect(wrapping.wrap).toBe(true);
    const { row, under } = stepRows(passed, 80, wrapping);
    expect(row).toMatch(/^Bucket exists \(HeadBucket\) +4 ms$/);
    expect(under.join(' ').replace(/\s+/g, ' ')).toBe(` ${detail}`);
    expect(diagnosisPanel(done, 80, wrapping).map((l) => l.text)).toEqual(['No problems found.']);
    // Too short for the wrapped rows: the row cuts the detail and the panel has it whole.
    const cut = stepLayout(done.steps, 80, 9, 1, 1);
    expect(cut.wrap).toBe(false);
    expect(stepRows(passed, 80, cut).row).toMatch(/…$/);
    const panel = diagnosisPanel(done, 80, cut).map((l) => l.text);
    expect(panel.slice(0, 3)).toEqual(['No problems found.', 'Step details', '✓ Bucket exists (HeadBucket)']);
    expect(panel.slice(3).join(' ').replace(/\s+/g, ' ').trim()).toBe(detail);
  });

  it('scrolls the panel within its lines and says where it is', () => {
    expect(scrollPanel(lines(3), 5, 4)).toEqual({
      visible: lines(3).map((l, row) => ({ ...l, row })),
      offset: 0,
      position: '',
    });
    const end = scrollPanel(lines(10), 99, 4);
    expect(end.offset).toBe(6);
    expect(end.visible.map((l) => l.text)).toEqual(['line 6', 'line 7', 'line 8', 'line 9']);
    expect(end.position).toBe('lines 7–10 of 10');
    expect(scrollPanel(lines(10), -3, 4).offset).toBe(0);
  });

  it('pages like the jobs browser: ↑/↓ one line, PgUp/PgDn a page less one line, g/G the ends', () => {
    expect(scrolled(5, 'up', 6)).toBe(4);
    expect(scrolled(5, 'down', 6)).toBe(6);
    expect(scrolled(5, 'pageDown', 6)).toBe(10);
    expect(scrolled(5, 'pageUp', 6)).toBe(0);
    expect(scrolled(5, 'top', 6)).toBe(0);
    expect(scrollPanel(lines(88), scrolled(0, 'bottom', 6), 6).position).toBe('lines 83–88 of 88');
  });

  it('cuts step rows, diagnoses and trace lines to the width', () => {
    const long = 'x'.repeat(200);
    const state = [
      { type: 'start' },
      { type: 'warning', message: `warn ${long}` },
      { type: 'diagnosis', diagnosis: { ...diagnosisFor('catalog.connect'), cause: `${long} ${long}` } },
      {
        type: 'trace',
        entry: {
          method: 'GET',
          url: `http://127.0.0.1/${long}`,
          status: 200,
          durationMs: 5,
          requestHeaders: { authorization: 'Bearer ••••' },
          responseHeaders: { 'x-long': long },
        },
      },
    ].reduce((s, a) => checkReducer(s, a as CheckAction), initialCheckState);
    for (const line of [...diagnosisPanel(state, 80), ...tracePanel(state, 80)])
      expect(line.text.length).toBeLessThanOrEqual(80);
    const trace = tracePanel(state, 80).map((l) => l.text);
    expect(trace.slice(0, 4).join('\n')).toMatch(/→ 200 · 5\s+ms$/);
    expect(trace).toContain('  > authorization: Bearer ••••');
    expect(
      stepText({ id: 'a', chain: 'catalog', title: long, state: 'ok', durationMs: 3, detail: long }, 76, 44)
        .length,
    ).toBe(76);
  });

  it('sizes the title column to the longest title, up to 44 columns', () => {
    const step = (title: string) => ({ id: title, chain: 'storage' as const, title, state: 'ok' as const });
    expect(titleWidth([step('List'), step('Read it back')])).toBe(12);
    expect(titleWidth([step('x'.repeat(60))])).toBe(44);
    expect(stepText({ ...step('List'), durationMs: 5, detail: 'ok' }, 76, 12)).toBe(
      'List            5 ms  ok',
    );
  });

  // Issue 19, item 11: at 80 columns a step row cuts its detail to ~22 characters; the panel shows it whole.
  it('shows the whole detail of a step whose row cuts it, wrapped at 80 columns', () => {
    const detail =
      '127.0.0.1:8181: DNS 0 addresses; connect ECONNREFUSED 127.0.0.1:8181 after 3 attempts within 10 s';
    const failed: Step = {
      id: 'catalog.connect',
      chain: 'catalog',
      title: 'Connect to the catalog host (TCP and TLS)',
      state: 'failed',
      durationMs: 12,
      detail,
    };
    const short: Step = {
      id: 'storage.list',
      chain: 'storage',
      title: 'List',
      state: 'failed',
      detail: 'no',
    };
    const passed: Step = { ...failed, id: 'catalog.config', state: 'ok' };
    let state = checkReducer(initialCheckState, { type: 'start' });
    for (const step of [failed, short, passed]) state = checkReducer(state, { type: 'step', step });
    const layout = stepLayout(state.steps, 80, 24, 1, 100);
    expect(layout.wrap).toBe(false);
    expect(stepText(failed, 76, layout.titleColumn)).toMatch(/…$/);
    const lines = diagnosisPanel(state, 80, layout).map((line) => line.text);
    expect(lines.slice(0, 2)).toEqual(['Step details', '✗ Connect to the catalog host (TCP and TLS)']);
    expect(lines.slice(1).join(' ').replace(/\s+/g, ' ')).toContain(detail);
    expect(lines.every((line) => line.length <= 80)).toBe(true);
    expect(lines.join('\n')).not.toContain('List');
    expect(lines.filter((line) => line.startsWith('✗')).length).toBe(1);
    // The passed step folded into its chain's header: its detail is here too.
    expect(lines.filter((line) => line.startsWith('✓'))).toEqual([
      '✓ Connect to the catalog host (TCP and TLS)',
    ]);
  });

  it('says when nothing went wrong only once the run is done', () => {
    const running = checkReducer(initialCheckState, { type: 'start' });
    expect(diagnosisPanel(running, 80)).toEqual([]);
    expect(diagnosisPanel(checkReducer(running, { type: 'done' }), 80)[0]?.text).toBe('No problems found.');
  });

  it('never says "No problems found" after a cancelled run', () => {
    const running = checkReducer(initialCheckState, { type: 'start' });
    const cancelled = checkReducer(checkReducer(running, { type: 'cancel' }), { type: 'done' });
    const text = diagnosisPanel(cancelled, 60)
      .map((line) => line.text)
      .join('\n');
    expect(text).toMatch(/^Cancelled: the steps that did not finish checked nothing/);
    expect(text).not.toMatch(/No problems found/);
    expect(diagnosisPanel(checkReducer(cancelled, { type: 'start' }), 60)).toEqual([]);
  });
});
