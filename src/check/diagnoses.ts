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
  const summaries = tableSummaries(table);
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

/** What a diagnosis row says of one failure: what failed, the likely cause, the remedy, further evidence. */
export interface Explained {
  what: string;
  cause: string;
  remedy: string;
  extra?: Record<string, string> | undefined;
}

/** A row of a table whose every text depends on the failure (`S`: what the row reads, e.g. the error and its context). */
export interface ExplainedRow<S> {
  /** The line for docs/diagnoses.md. */
  summary: string;
  explain: (said: S) => Explained;
}

/** A table's one line per code, in the table's order (for docs/diagnoses.md). */
export function tableSummaries<C extends string>(table: Record<C, { summary: string }>): Record<C, string> {
  return Object.fromEntries(
    Object.entries<{ summary: string }>(table).map(([code, row]) => [code, row.summary]),
  ) as Record<C, string>;
}

/** A code, or how to choose one from what failed. */
export type CodeChoice<C extends string, E, X> = C | ((error: E, ctx: X) => C);

/** A rule of a diagnosis table: when it holds for what failed (`E`) in its context (`X`), it names the code. */
export interface DiagnosisRule<C extends string, E, X> {
  when: (error: E, ctx: X) => boolean;
  code: CodeChoice<C, E, X>;
}

export function chooseCode<C extends string, E, X>(code: CodeChoice<C, E, X>, error: E, ctx: X): C {
  return typeof code === 'function' ? code(error, ctx) : code;
}

/** The code of the first rule that holds, else `fallback`. */
export function matchRules<C extends string, E, X>(
  rules: readonly DiagnosisRule<C, E, X>[],
  error: E,
  ctx: X,
  fallback: C,
): C {
  const rule = rules.find((r) => r.when(error, ctx));
  return rule ? chooseCode(rule.code, error, ctx) : fallback;
}
