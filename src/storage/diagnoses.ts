// What a failed storage step means: the matcher over the storage diagnosis table (s3-diagnoses.ts): the
// first rule that holds for the error's facts names the code, its row explains it. Pure functions over
// the error's shape; no SDK import.
import { type Explained, matchRules, tableSummaries } from '../check/diagnoses.js';
import { safeUrl } from '../check/scrub.js';
import type { Diagnosis } from '../check/types.js';
import { STORAGE_DIAGNOSIS_TABLE, STORAGE_RULES, type StorageDiagnosisCode } from './s3-diagnoses.js';
import { type ErrorFacts, errorFacts, operationOf, type ProbeContext, target } from './s3-facts.js';

export type { StorageDiagnosisCode } from './s3-diagnoses.js';
export {
  type ErrorFacts,
  errorFacts,
  type ProbeContext,
  STORAGE_STEPS,
  type StorageStepId,
} from './s3-facts.js';

/** Every storage diagnosis code, one line each (the source of docs/diagnoses.md). */
export const STORAGE_DIAGNOSES = tableSummaries(STORAGE_DIAGNOSIS_TABLE);

/** Failures of the connection itself: through a proxy, their text names it. */
const CONNECTION_CODES: ReadonlySet<StorageDiagnosisCode> = new Set([
  'S3_DNS',
  'S3_VIRTUAL_HOST_DNS',
  'S3_CONNECTION_REFUSED',
  'S3_CONNECTION_FAILED',
  'S3_TIMEOUT',
  'S3_TLS',
]);

/** Picks the diagnosis code for an error raised by a storage step. */
export function classify(facts: ErrorFacts, ctx: ProbeContext): StorageDiagnosisCode {
  return matchRules(STORAGE_RULES, facts, ctx, 'S3_REQUEST_FAILED');
}

/** Builds the diagnosis for a failure with no error object (bad input, a content mismatch). */
export function storageDiagnosis(code: StorageDiagnosisCode, ctx: ProbeContext): Diagnosis {
  return build(code, { name: code, message: STORAGE_DIAGNOSES[code] }, ctx);
}

/** Turns any error thrown by a storage step into a diagnosis. */
export function diagnoseStorageError(error: unknown, ctx: ProbeContext): Diagnosis {
  const facts = errorFacts(error);
  return build(classify(facts, ctx), facts, ctx);
}

function build(code: StorageDiagnosisCode, facts: ErrorFacts, ctx: ProbeContext): Diagnosis {
  const op = operationOf(ctx);
  const t: Explained = STORAGE_DIAGNOSIS_TABLE[code].explain({
    f: facts,
    ctx,
    op,
    failed: `${op} on ${target(ctx)} failed`,
  });
  const extra = { ...ctx.extra, ...t.extra, ...(ctx.proxy ? { proxy: ctx.proxy } : {}) };
  if (ctx.proxy && CONNECTION_CODES.has(code)) t.what = `${t.what} (through proxy ${ctx.proxy})`;
  return {
    code,
    step: ctx.step,
    what: t.what,
    cause: t.cause,
    remedy: t.remedy,
    evidence: {
      ...(facts.status !== undefined ? { status: facts.status } : {}),
      ...(facts.code ? { errorCode: facts.code } : {}),
      ...(facts.requestId ? { requestId: facts.requestId } : {}),
      ...(ctx.url ? { url: safeUrl(ctx.url) } : {}),
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    },
  };
}
