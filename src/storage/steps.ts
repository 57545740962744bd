// The storage chain's five steps over the check's step runner (check/steps.ts): their titles name the
// store's own operations (S3's, or the GCS JSON API's); `attempt` runs one of them, the S3 probe's and
// the GCS probe's alike.
import { randomUUID } from 'node:crypto';
import type { ChainOptions } from '../check/chain.js';
import { StepRunner } from '../check/steps.js';
import type { Diagnosis, Emit } from '../check/types.js';
import { STORAGE_STEPS, type StorageStepId } from './diagnoses.js';

export const STEP_IDS = Object.keys(STORAGE_STEPS) as StorageStepId[];

export type StepTitles = Record<StorageStepId, string>;
export type StorageSteps = StepRunner<StorageStepId>;

export const S3_TITLES: StepTitles = Object.fromEntries(
  STEP_IDS.map((id) => [id, STORAGE_STEPS[id].title]),
) as StepTitles;

/** The storage steps, all emitted `pending`. */
export function storageSteps(
  emit: Emit,
  opts: Pick<ChainOptions, 'signal'>,
  titles = S3_TITLES,
): StorageSteps {
  const steps = new StepRunner({
    chain: 'storage',
    steps: STEP_IDS.map((id) => ({ id, title: titles[id] })),
    emit,
    signal: opts.signal,
  });
  steps.begin();
  return steps;
}

/** --read-only (or a probe that may not be written): the three writing steps are skipped. */
export function skipWrites(steps: StorageSteps, detail = 'read-only'): void {
  for (const id of ['storage.put', 'storage.get', 'storage.delete'] as const) steps.skip(id, detail);
}

export type Attempted<T> = { ok: true; value: T } | { ok: false };

/**
 * Runs `call` as step `id`: ok with its detail, cancelled after an abort, otherwise failed with the
 * diagnosis `diagnose` makes of the error (emitted after the step).
 */
export async function attempt<T>(
  steps: StorageSteps,
  id: StorageStepId,
  call: () => Promise<T>,
  detail: (value: T) => string,
  diagnose: (error: unknown) => Diagnosis | Promise<Diagnosis>,
): Promise<Attempted<T>> {
  steps.start(id);
  try {
    const value = await call();
    steps.set(id, 'ok', { detail: detail(value), durationMs: steps.elapsed(id) });
    return { ok: true, value };
  } catch (error) {
    if (steps.signal.aborted) {
      steps.cancel(id, true);
      return { ok: false };
    }
    const diagnosis = await diagnose(error);
    steps.set(id, 'failed', { detail: diagnosis.what, durationMs: steps.elapsed(id) });
    steps.diagnose(diagnosis);
    return { ok: false };
  }
}

/** A step that failed before any request: its diagnosis, no timing. */
export function refuse(steps: StorageSteps, id: StorageStepId, diagnosis: Diagnosis): void {
  steps.set(id, 'failed', { detail: diagnosis.what });
  steps.diagnose(diagnosis);
}

/** The folder of the probe objects, under the data location's prefix. */
export const PROBE_FOLDER = '.floe-probe';

/** Where a check writes its probe object: under the data location's prefix, never over anything. */
export function probeKey(prefix: string): string {
  return `${prefix}${PROBE_FOLDER}/${randomUUID()}`;
}
