// The storage chain's five steps as the screen and `--json` see them: each step's latest state, emitted
// on every change; the titles name the store's own operations (S3's, or the GCS JSON API's).
import { randomUUID } from 'node:crypto';
import type { Emit, Step, StepState } from '../check/types.js';
import { STORAGE_STEPS, type StorageStepId } from './diagnoses.js';

export const STEP_IDS = Object.keys(STORAGE_STEPS) as StorageStepId[];
const TERMINAL: ReadonlySet<StepState> = new Set(['ok', 'warning', 'failed', 'skipped', 'cancelled']);

export type StepTitles = Record<StorageStepId, string>;

export const S3_TITLES: StepTitles = Object.fromEntries(
  STEP_IDS.map((id) => [id, STORAGE_STEPS[id].title]),
) as StepTitles;

export class StepBoard {
  private readonly steps = new Map<StorageStepId, Step>();

  constructor(
    private readonly emit: Emit,
    private readonly titles: StepTitles = S3_TITLES,
  ) {
    for (const id of STEP_IDS) this.update(id, 'pending');
  }

  update(id: StorageStepId, state: StepState, patch: Pick<Step, 'detail' | 'durationMs'> = {}): void {
    const step: Step = { id, chain: 'storage', title: this.titles[id], state, ...patch };
    this.steps.set(id, step);
    this.emit({ type: 'step', step });
  }

  /** Closes every unfinished step: cancelled after an abort, skipped otherwise. */
  finish(aborted: boolean): void {
    for (const [id, step] of this.steps) {
      if (TERMINAL.has(step.state)) continue;
      if (aborted) this.update(id, 'cancelled');
      else this.update(id, 'skipped', { detail: 'an earlier step failed' });
    }
  }

  /** --read-only: the three writing steps are skipped. */
  skipWrites(detail = 'read-only'): void {
    for (const id of ['storage.put', 'storage.get', 'storage.delete'] as const)
      this.update(id, 'skipped', { detail });
  }

  isRunning(id: StorageStepId): boolean {
    return this.steps.get(id)?.state === 'running';
  }

  current(): StorageStepId {
    return STEP_IDS.find((id) => !TERMINAL.has(this.steps.get(id)?.state ?? 'pending')) ?? 'storage.head';
  }
}

/** The folder of the probe objects, under the data location's prefix. */
export const PROBE_FOLDER = '.floe-probe';

/** Where a check writes its probe object: under the data location's prefix, never over anything. */
export function probeKey(prefix: string): string {
  return `${prefix}${PROBE_FOLDER}/${randomUUID()}`;
}
