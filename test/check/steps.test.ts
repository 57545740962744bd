// The one step runner every chain keeps its steps on: the events it emits, in order, with timing,
// skip after a failure, cancellation and a cleanup that runs whatever happened.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type StepOutcome, StepRunner } from '../../src/check/steps.js';
import type { CheckEvent, Diagnosis } from '../../src/check/types.js';

const STEPS = [
  { id: 'a', title: 'First (one)' },
  { id: 'b', title: 'Second' },
  { id: 'c', title: 'Third' },
] as const;
type Id = (typeof STEPS)[number]['id'];

const DIAGNOSIS: Diagnosis = {
  code: 'X_FAILED',
  step: 'b',
  what: 'b failed with secret-1',
  cause: 'a cause',
  remedy: 'a remedy',
  evidence: {},
};

function runner(controller = new AbortController()) {
  const events: CheckEvent[] = [];
  const steps = new StepRunner<Id>({
    chain: 'catalog',
    steps: STEPS,
    emit: (event) => events.push(event),
    signal: controller.signal,
    scrub: (text) => text.replaceAll('secret-1', '••••'),
    scrubDiagnosis: (d) => ({ ...d, what: d.what.replaceAll('secret-1', '••••') }),
  });
  /** Each event as [type, id, state, detail?] (durations left out). */
  const seen = () =>
    events.map((e) =>
      e.type === 'step'
        ? ['step', e.step.id, e.step.state, ...(e.step.detail === undefined ? [] : [e.step.detail])]
        : e.type === 'diagnosis'
          ? ['diagnosis', e.diagnosis.code, e.diagnosis.what]
          : [e.type],
    );
  return { steps, events, seen, controller };
}

const notRun = (title: string, cancelled: boolean) =>
  `not run: “${title}” ${cancelled ? 'was cancelled' : 'failed'}`;

afterEach(() => {
  vi.useRealTimers();
});

describe('StepRunner', () => {
  it('emits every step pending, then each change in order, with the chain and title', () => {
    const { steps, events, seen } = runner();
    steps.begin();
    steps.start('a');
    steps.ok('a', 'fine');
    expect(seen()).toEqual([
      ['step', 'a', 'pending'],
      ['step', 'b', 'pending'],
      ['step', 'c', 'pending'],
      ['step', 'a', 'running'],
      ['step', 'a', 'ok', 'fine'],
    ]);
    expect(events[4]).toEqual({
      type: 'step',
      step: {
        id: 'a',
        chain: 'catalog',
        title: 'First (one)',
        state: 'ok',
        durationMs: expect.any(Number),
        detail: 'fine',
      },
    });
  });

  it('times a step from its start, and again from a restart while it runs (running emitted once)', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const { steps, events } = runner();
    steps.start('a');
    vi.advanceTimersByTime(40);
    steps.start('a');
    vi.advanceTimersByTime(25);
    steps.ok('a', 'done');
    const states = events.map((e) => (e.type === 'step' ? e.step.state : e.type));
    expect(states).toEqual(['running', 'ok']);
    const last = events.at(-1);
    expect(last?.type === 'step' && last.step.durationMs).toBe(25);
  });

  it('a failure emits the step failed with its diagnosis as the detail, then the diagnosis, both scrubbed', () => {
    const { steps, seen } = runner();
    steps.start('b');
    steps.fail('b', DIAGNOSIS);
    expect(seen()).toEqual([
      ['step', 'b', 'running'],
      ['step', 'b', 'failed', 'b failed with ••••'],
      ['diagnosis', 'X_FAILED', 'b failed with ••••'],
    ]);
  });

  it('sequence: after a failure the rest are skipped, named after the step that failed; the cleanup runs', async () => {
    const { steps, seen } = runner();
    const cleanup = vi.fn(async () => steps.ok('c', 'cleaned'));
    const ran: string[] = [];
    steps.begin();
    await steps.sequence(
      [
        [
          'a',
          async (): Promise<StepOutcome> => {
            ran.push('a');
            return { ok: false, diagnosis: { ...DIAGNOSIS, step: 'a' } };
          },
        ],
        [
          'b',
          async (): Promise<StepOutcome> => {
            ran.push('b');
            return { ok: true, detail: 'never' };
          },
        ],
      ],
      notRun,
      cleanup,
    );
    expect(ran).toEqual(['a']);
    expect(cleanup).toHaveBeenCalledOnce();
    expect(seen().slice(3)).toEqual([
      ['step', 'a', 'running'],
      ['step', 'a', 'failed', 'b failed with ••••'],
      ['diagnosis', 'X_FAILED', 'b failed with ••••'],
      ['step', 'b', 'skipped', 'not run: “First (one)” failed'],
      ['step', 'c', 'ok', 'cleaned'],
    ]);
  });

  it('sequence: an abort cancels the running step (timed) and the rest; the cleanup still runs', async () => {
    const { steps, events, seen, controller } = runner();
    const cleanup = vi.fn(async () => {});
    steps.begin();
    await steps.sequence(
      [
        [
          'a',
          async () => {
            controller.abort();
            return { ok: false, diagnosis: null };
          },
        ],
        ['b', async () => ({ ok: true, detail: 'never' })],
      ],
      notRun,
      cleanup,
    );
    expect(cleanup).toHaveBeenCalledOnce();
    expect(seen().slice(3)).toEqual([
      ['step', 'a', 'running'],
      ['step', 'a', 'cancelled'],
      ['step', 'b', 'cancelled', 'not run: “First (one)” was cancelled'],
    ]);
    const cancelled = events[4];
    expect(cancelled?.type === 'step' && cancelled.step.durationMs).toEqual(expect.any(Number));
  });

  it('sequence: the cleanup runs even when a body throws, and the error goes on', async () => {
    const { steps } = runner();
    const cleanup = vi.fn(async () => {});
    await expect(
      steps.sequence(
        [
          [
            'a',
            async () => {
              throw new Error('a bug');
            },
          ],
        ],
        notRun,
        cleanup,
      ),
    ).rejects.toThrow('a bug');
    expect(cleanup).toHaveBeenCalledOnce();
  });

  it('settle: ok, skipped (no timing), failed, or cancelled once the signal aborted', () => {
    const { steps, events, seen, controller } = runner();
    steps.start('a');
    steps.settle('a', { skip: 'not needed' });
    steps.start('b');
    steps.settle('b', { ok: false, diagnosis: null });
    controller.abort();
    steps.start('c');
    steps.settle('c', { ok: false, diagnosis: DIAGNOSIS });
    expect(seen()).toEqual([
      ['step', 'a', 'running'],
      ['step', 'a', 'skipped', 'not needed'],
      ['step', 'b', 'running'],
      ['step', 'b', 'failed'],
      ['step', 'c', 'running'],
      ['step', 'c', 'cancelled'],
    ]);
    const skipped = events[1];
    expect(skipped?.type === 'step' && 'durationMs' in skipped.step).toBe(false);
  });

  it('finish: unfinished steps skipped after a failure (“an earlier step failed”), cancelled after an abort', () => {
    const failed = runner();
    failed.steps.begin();
    failed.steps.start('a');
    failed.steps.fail('a', null);
    failed.steps.finish();
    expect(failed.seen().slice(-2)).toEqual([
      ['step', 'b', 'skipped', 'an earlier step failed'],
      ['step', 'c', 'skipped', 'an earlier step failed'],
    ]);

    const aborted = runner();
    aborted.steps.begin();
    aborted.steps.start('a');
    aborted.controller.abort();
    aborted.steps.finish();
    expect(aborted.seen().slice(-3)).toEqual([
      ['step', 'a', 'cancelled'],
      ['step', 'b', 'cancelled'],
      ['step', 'c', 'cancelled'],
    ]);
    expect(aborted.steps.current()).toBe('a');
  });

  it('skipPending and cancelUnfinished touch only the steps they name; current is the first unfinished', () => {
    const { steps, seen } = runner();
    steps.begin();
    steps.start('a');
    expect(steps.current()).toBe('a');
    steps.skipPending('not run');
    expect(steps.current()).toBe('a');
    steps.cancelUnfinished();
    expect(seen().slice(3)).toEqual([
      ['step', 'a', 'running'],
      ['step', 'b', 'skipped', 'not run'],
      ['step', 'c', 'skipped', 'not run'],
      ['step', 'a', 'cancelled'],
    ]);
    expect(steps.failed()).toBeUndefined();
  });
});
