// Runs the catalog chain and collects what it emitted.
import { catalogChain } from '../../src/catalog/index.js';
import type { Chain } from '../../src/check/chain.js';
import {
  type CheckEvent,
  type Diagnosis,
  diagnosisSchema,
  type Step,
  stepSchema,
  type TraceEntry,
} from '../../src/check/types.js';
import type { AuthType, FieldId, Values } from '../../src/destination/fields.js';

export interface RunResult {
  events: CheckEvent[];
  /** The last state of each step, in first-seen order. */
  steps: Step[];
  step(id: string): Step;
  diagnoses: Diagnosis[];
  traces: TraceEntry[];
  warnings: string[];
}

export function values(authType: AuthType, fields: Partial<Record<FieldId, string>>): Values {
  return {
    preset: 'rest',
    authType,
    storage: 's3-compatible',
    targetVersion: 'latest',
    fields: { warehouse: 's3://warehouse', ...fields },
  };
}

export async function runChain(
  v: Values,
  opts: { timeoutMs?: number; signal?: AbortSignal; chain?: Chain; onEvent?: (e: CheckEvent) => void } = {},
): Promise<RunResult> {
  const events: CheckEvent[] = [];
  const invalid: string[] = [];
  await (opts.chain ?? catalogChain)(v, {
    env: process.env,
    emit: (e) => {
      // Every event must satisfy the shared contract's schemas (checked after the run: the chain
      // would swallow a throw from emit).
      const check =
        e.type === 'step'
          ? stepSchema.safeParse(e.step)
          : e.type === 'diagnosis'
            ? diagnosisSchema.safeParse(e.diagnosis)
            : null;
      if (check && !check.success) invalid.push(`${e.type}: ${check.error.message}`);
      events.push(e);
      opts.onEvent?.(e);
    },
    signal: opts.signal ?? new AbortController().signal,
    timeoutMs: opts.timeoutMs ?? 5000,
  });
  if (invalid.length) throw new Error(`events break the contract:\n${invalid.join('\n')}`);
  const last = new Map<string, Step>();
  for (const e of events) if (e.type === 'step') last.set(e.step.id, e.step);
  const steps = [...last.values()];
  return {
    events,
    steps,
    step: (id) => {
      const s = last.get(id);
      if (!s) throw new Error(`no step ${id}`);
      return s;
    },
    diagnoses: events.flatMap((e) => (e.type === 'diagnosis' ? [e.diagnosis] : [])),
    traces: events.flatMap((e) => (e.type === 'trace' ? [e.entry] : [])),
    warnings: events.flatMap((e) => (e.type === 'warning' ? [e.message] : [])),
  };
}

/** The one diagnosis of a run that failed exactly once. */
export function only(result: RunResult): Diagnosis {
  if (result.diagnoses.length !== 1)
    throw new Error(`expected one diagnosis, got ${JSON.stringify(result.diagnoses, null, 2)}`);
  return result.diagnoses[0]!;
}
