// Runs the storage chain and records what it emitted.
import type { CheckEvent, Diagnosis, Step, StepState } from '../../src/check/types.js';
import type { StorageKind, Values } from '../../src/destination/fields.js';
import { storageChain } from '../../src/storage/chain.js';

export interface Run {
  events: CheckEvent[];
  /** The last state of each step, by id. */
  states: Record<string, StepState>;
  steps: Record<string, Step>;
  diagnoses: Diagnosis[];
  warnings: string[];
}

export function storageValues(fields: {
  warehouse: string;
  storage?: StorageKind;
  region?: string;
  s3Endpoint?: string;
  accessKey?: string;
  secretKey?: string;
}): Values {
  const { storage = 's3-compatible', region = 'us-east-1', ...rest } = fields;
  return { preset: 'rest', authType: 'none', storage, targetVersion: 'latest', fields: { region, ...rest } };
}

export async function runStorage(
  values: Values,
  options: {
    readOnly?: boolean;
    timeoutMs?: number;
    signal?: AbortSignal;
    onEvent?: (e: CheckEvent) => void;
  } = {},
): Promise<Run> {
  const events: CheckEvent[] = [];
  await storageChain(values, {
    env: process.env,
    emit: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
    signal: options.signal ?? new AbortController().signal,
    timeoutMs: options.timeoutMs ?? 10_000,
    readOnly: options.readOnly,
  });
  const steps: Record<string, Step> = {};
  for (const e of events) if (e.type === 'step') steps[e.step.id] = e.step;
  return {
    events,
    steps,
    states: Object.fromEntries(Object.entries(steps).map(([id, s]) => [id, s.state])),
    diagnoses: events.flatMap((e) => (e.type === 'diagnosis' ? [e.diagnosis] : [])),
    warnings: events.flatMap((e) => (e.type === 'warning' ? [e.message] : [])),
  };
}
