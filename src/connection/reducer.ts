// The connection test's state as a pure reducer over progress events: the orchestrator folds the
// chains' events through it to build the report, and the test screen renders it.
import type {
  CheckEvent,
  CheckReport,
  Diagnosis,
  Step,
  StepState,
  TraceEntry,
  WriteResult,
} from '../check/types.js';

export type CheckPhase = 'idle' | 'running' | 'cancelling' | 'done';

export interface CheckState {
  phase: CheckPhase;
  /** Runs started so far: 1 for the first, 2 after a re-run… */
  run: number;
  /** In the order they were first announced. */
  steps: Step[];
  diagnoses: Diagnosis[];
  trace: TraceEntry[];
  warnings: string[];
  /** What the write check made, once it knows (floe test --write). */
  write?: WriteResult;
  /** The user cancelled this run: its result is no verdict on the profile. */
  cancelled: boolean;
}

export type CheckAction =
  | CheckEvent
  /** A new run: clears the previous run's results. */
  | { type: 'start' }
  /** The user asked to stop; events still arrive until the chains have stopped. */
  | { type: 'cancel' }
  /** The run is over; later events are ignored. */
  | { type: 'done' };

/** The trace keeps the latest exchanges only. */
export const TRACE_LIMIT = 200;

export const initialCheckState: CheckState = {
  phase: 'idle',
  run: 0,
  steps: [],
  diagnoses: [],
  trace: [],
  warnings: [],
  cancelled: false,
};

const FINAL: readonly StepState[] = ['ok', 'warning', 'failed', 'skipped', 'cancelled'];

export function isFinal(state: StepState): boolean {
  return FINAL.includes(state);
}

function upsert(steps: Step[], step: Step): Step[] {
  const i = steps.findIndex((s) => s.id === step.id);
  if (i === -1) return [...steps, step];
  const next = steps.slice();
  next[i] = step;
  return next;
}

export function checkReducer(state: CheckState, action: CheckAction): CheckState {
  switch (action.type) {
    case 'start':
      return { ...initialCheckState, phase: 'running', run: state.run + 1 };
    case 'cancel':
      return state.phase === 'running' ? { ...state, phase: 'cancelling', cancelled: true } : state;
    case 'done':
      return state.phase === 'idle' ? state : { ...state, phase: 'done' };
  }
  if (state.phase !== 'running' && state.phase !== 'cancelling') return state;
  switch (action.type) {
    case 'step':
      return { ...state, steps: upsert(state.steps, action.step) };
    case 'diagnosis':
      return { ...state, diagnoses: [...state.diagnoses, action.diagnosis] };
    case 'trace':
      return { ...state, trace: [...state.trace, action.entry].slice(-TRACE_LIMIT) };
    case 'warning':
      return state.warnings.includes(action.message)
        ? state
        : { ...state, warnings: [...state.warnings, action.message] };
    case 'write':
      return { ...state, write: action.result };
  }
}

/** The steps that have not reached a final state, as they end when the run stops early. */
export function unfinishedSteps(state: CheckState, endAs: 'cancelled' | 'failed'): Step[] {
  return state.steps
    .filter((s) => !isFinal(s.state))
    .map(({ durationMs: _, detail: __, ...step }) =>
      endAs === 'cancelled'
        ? { ...step, state: endAs }
        : { ...step, state: endAs, detail: 'the check ended without a result' },
    );
}

/** Passed: at least one step, every step ok, skipped or warning (leftovers), and no diagnosis. */
export function toReport(state: CheckState): CheckReport {
  const ok =
    state.steps.length > 0 &&
    state.diagnoses.length === 0 &&
    state.steps.every((s) => s.state === 'ok' || s.state === 'skipped' || s.state === 'warning');
  return {
    ok,
    steps: state.steps,
    diagnoses: state.diagnoses,
    warnings: state.warnings,
    ...(state.write ? { write: state.write } : {}),
  };
}

/** The report of a run stopped where it stands (Ctrl-C): unfinished steps count as cancelled. */
export function abandonedReport(state: CheckState): CheckReport {
  let settled = state;
  for (const step of unfinishedSteps(state, 'cancelled'))
    settled = { ...settled, steps: upsert(settled.steps, step) };
  return toReport(settled);
}
