// Diagnosis codes of the orchestrator itself (the chains have their own tables), and the helper every
// code table uses.
import type { Diagnosis } from './types.js';

export const CHECK_DIAGNOSES = {
  CHECK_INTERNAL_ERROR:
    'A check stopped on an unexpected error inside floe (a bug); its unfinished steps are marked failed.',
} as const;

export type CheckDiagnosisCode = keyof typeof CHECK_DIAGNOSES;

/** One row of a diagnosis table: the line for docs/diagnoses.md, and the default cause and remedy. */
export interface DiagnosisInfo {
  summary: string;
  cause: string;
  remedy: string;
}

export interface DiagnosisInput {
  what: string;
  cause?: string;
  remedy?: string;
  evidence?: Diagnosis['evidence'];
}

/** A table's one-line summaries (for the docs) and its diagnosis maker (cause and remedy by default). */
export function diagnosisTable<C extends string>(table: Record<C, DiagnosisInfo>) {
  const summaries = Object.fromEntries(
    Object.entries<DiagnosisInfo>(table).map(([code, info]) => [code, info.summary]),
  ) as Record<C, string>;
  const make = (code: C, step: string, input: DiagnosisInput): Diagnosis => ({
    code,
    step,
    what: input.what,
    cause: input.cause ?? table[code].cause,
    remedy: input.remedy ?? table[code].remedy,
    evidence: input.evidence ?? {},
  });
  return { summaries, make };
}
