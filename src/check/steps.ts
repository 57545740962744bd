// The one step runner of the connection test's chains (catalog, storage, GCS, write): declared steps,
// their states and timing, skip after a failure, cancellation, and the `step` events they emit. Each chain
// decides its order and its words; the runner keeps the bookkeeping.
import type { Diagnosis, Emit, Step, StepState } from './types.js';

export interface DeclaredStep<Id extends string> {
  id: Id;
  title: string;
}

/** What a step's body came to: done (its detail), failed (its diagnosis; null when cancelled), or skipped. */
export type StepOutcome =
  | { ok: true; detail: string }
  | { ok: false; diagnosis: Diagnosis | null }
  | { skip: string };

export type StepPatch = Pick<Step, 'detail' | 'durationMs'>;

export interface StepRunnerOptions<Id extends string> {
  chain: Step['chain'];
  steps: readonly DeclaredStep<Id>[];
  emit: Emit;
  signal: AbortSignal;
  /** Applied to every detail before it is emitted (a chain's secret scrubber). */
  scrub?: (text: string) => string;
  /** Applied to every diagnosis before it is emitted. */
  scrubDiagnosis?: (diagnosis: Diagnosis) => Diagnosis;
}

const UNFINISHED: ReadonlySet<StepState> = new Set(['pending', 'running']);

/** The default detail of a step not run because an earlier one failed. */
export const SKIPPED_AFTER_FAILURE = 'an earlier step failed';

export class StepRunner<Id extends string> {
  private readonly steps = new Map<Id, Step>();
  private readonly started = new Map<Id, number>();

  constructor(private readonly opts: StepRunnerOptions<Id>) {}

  /** Emits every declared step as `pending`: a chain's first events. */
  begin(): void {
    for (const { id } of this.opts.steps) this.set(id, 'pending');
  }

  get signal(): AbortSignal {
    return this.opts.signal;
  }

  title(id: Id): string {
    const declared = this.opts.steps.find((s) => s.id === id);
    if (!declared) throw new Error(`undeclared step ${id}`);
    return declared.title;
  }

  state(id: Id): StepState {
    return this.steps.get(id)?.state ?? 'pending';
  }

  isRunning(id: Id): boolean {
    return this.state(id) === 'running';
  }

  /** The first declared step not yet finished (the first one when all are). */
  current(): Id {
    const ids = this.opts.steps.map((s) => s.id);
    return ids.find((id) => UNFINISHED.has(this.state(id))) ?? (ids[0] as Id);
  }

  /** The first step that failed, if any. */
  failed(): Step | undefined {
    return [...this.steps.values()].find((s) => s.state === 'failed');
  }

  /** Emits `id` in `state`; the patch's keys keep their order in the event. */
  set(id: Id, state: StepState, patch: StepPatch = {}): void {
    const { scrub } = this.opts;
    const step: Step = {
      id,
      chain: this.opts.chain,
      title: this.title(id),
      state,
      ...patch,
      ...(patch.detail && scrub ? { detail: scrub(patch.detail) } : {}),
    };
    this.steps.set(id, step);
    this.opts.emit({ type: 'step', step: { ...step } });
  }

  /** `running` (emitted once) and the step's clock started (again, when it already runs). */
  start(id: Id): void {
    if (!this.isRunning(id)) this.set(id, 'running');
    this.started.set(id, performance.now());
  }

  /** Milliseconds since the step started. */
  elapsed(id: Id): number {
    return Math.round(performance.now() - (this.started.get(id) ?? performance.now()));
  }

  ok(id: Id, detail: string): void {
    this.set(id, 'ok', { durationMs: this.elapsed(id), detail });
  }

  /** Done, with something to see to (counts as passed). */
  warning(id: Id, detail: string): void {
    this.set(id, 'warning', { durationMs: this.elapsed(id), detail });
  }

  /** Failed, its diagnosis (if any) as the detail and then as its own event. */
  fail(id: Id, diagnosis: Diagnosis | null): void {
    this.set(id, 'failed', {
      durationMs: this.elapsed(id),
      ...(diagnosis ? { detail: diagnosis.what } : {}),
    });
    if (diagnosis) this.diagnose(diagnosis);
  }

  diagnose(diagnosis: Diagnosis): void {
    const { scrubDiagnosis } = this.opts;
    this.opts.emit({ type: 'diagnosis', diagnosis: scrubDiagnosis ? scrubDiagnosis(diagnosis) : diagnosis });
  }

  skip(id: Id, detail?: string): void {
    this.set(id, 'skipped', detail === undefined ? {} : { detail });
  }

  /** Cancelled; `timed` adds how long it ran. */
  cancel(id: Id, timed = false): void {
    this.set(id, 'cancelled', timed ? { durationMs: this.elapsed(id) } : {});
  }

  /** A finished body's outcome: ok, skipped, cancelled (after an abort) or failed with its diagnosis. */
  settle(id: Id, outcome: StepOutcome): void {
    if ('skip' in outcome) this.skip(id, outcome.skip);
    else if (outcome.ok) this.ok(id, outcome.detail);
    else if (this.signal.aborted) this.cancel(id, true);
    else this.fail(id, outcome.diagnosis);
  }

  /** Every step still pending is skipped with `detail`. */
  skipPending(detail: string = SKIPPED_AFTER_FAILURE): void {
    for (const { id } of this.opts.steps) if (this.state(id) === 'pending') this.skip(id, detail);
  }

  /** Every unfinished step is cancelled. */
  cancelUnfinished(): void {
    for (const { id } of this.opts.steps) if (UNFINISHED.has(this.state(id))) this.cancel(id);
  }

  /** Closes every unfinished step: cancelled after an abort, otherwise skipped after a failure. */
  finish(detail: string = SKIPPED_AFTER_FAILURE): void {
    for (const { id } of this.opts.steps) {
      if (!UNFINISHED.has(this.state(id))) continue;
      if (this.signal.aborted) this.cancel(id);
      else this.skip(id, detail);
    }
  }

  /**
   * Runs `bodies` in order, each as its step (`start`, then `settle`); after a failure or an abort the
   * rest are not run: skipped (cancelled after an abort) with `notRun(title, cancelled)` of the step that
   * stopped them. `cleanup` runs afterwards whatever happened, even when a body throws.
   */
  async sequence(
    bodies: readonly (readonly [Id, () => Promise<StepOutcome>])[],
    notRun: (title: string, cancelled: boolean) => string,
    cleanup?: () => Promise<void>,
  ): Promise<void> {
    let stopped: string | null = null;
    try {
      for (const [id, body] of bodies) {
        if (stopped !== null || this.signal.aborted) {
          this.set(id, this.signal.aborted ? 'cancelled' : 'skipped', stopped ? { detail: stopped } : {});
          continue;
        }
        this.start(id);
        const outcome = await body();
        this.settle(id, outcome);
        if ('ok' in outcome && !outcome.ok) stopped = notRun(this.title(id), this.signal.aborted);
      }
    } finally {
      await cleanup?.();
    }
  }
}
