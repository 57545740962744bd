// What a failed step of the Google Cloud Storage check means: the matcher over the GCS diagnosis table
// (gcs-table.ts): the first rule that holds for what the step threw names the code, its row explains it
// with evidence. Pure functions; no secret goes in.
import { NetworkFailure } from '../catalog/http.js';
import { type Explained, matchRules, tableSummaries } from '../check/diagnoses.js';
import type { Diagnosis } from '../check/types.js';
import { GCS_STEPS, type GcsContext, GcsError, GcsProbeError, host } from './gcs-facts.js';
import { GCS_DIAGNOSIS_TABLE, GCS_RULES, type GcsDiagnosisCode, type GcsSaid } from './gcs-table.js';

export {
  GCS_STEPS,
  GCS_TITLES,
  type GcsContext,
  GcsError,
  GcsProbeError,
  gcsError,
} from './gcs-facts.js';
export type { GcsDiagnosisCode } from './gcs-table.js';

/** Every GCS diagnosis code, one line each (the source of docs/diagnoses.md). */
export const GCS_DIAGNOSES = tableSummaries(GCS_DIAGNOSIS_TABLE);

export function classifyGcs(error: unknown, ctx: GcsContext): GcsDiagnosisCode {
  return matchRules(GCS_RULES, error, ctx, 'GCS_REQUEST_FAILED');
}

/** The phrases every row of the table uses. */
function said(error: unknown, ctx: GcsContext): GcsSaid {
  const op = GCS_STEPS[ctx.step].operation;
  const target = ctx.key ? `gs://${ctx.bucket}/${ctx.key}` : `bucket "${ctx.bucket}"`;
  return {
    error,
    ctx,
    op,
    target,
    failed: `${op} on ${target} failed`,
    message: error instanceof Error ? error.message : String(error ?? ''),
    account: ctx.email ? `the service account ${ctx.email}` : 'the service account',
    where: ctx.url ? host(ctx.url) : host(ctx.base),
  };
}

/** The diagnosis for a failure with no error object (bad input). */
export function gcsDiagnosis(code: GcsDiagnosisCode, ctx: GcsContext, message = ''): Diagnosis {
  return build(code, message ? new Error(message) : undefined, ctx);
}

/** Turns anything a GCS step threw into a diagnosis. */
export function diagnoseGcsError(error: unknown, ctx: GcsContext): Diagnosis {
  return build(classifyGcs(error, ctx), error, ctx);
}

function build(code: GcsDiagnosisCode, error: unknown, ctx: GcsContext): Diagnosis {
  const t: Explained = GCS_DIAGNOSIS_TABLE[code].explain(said(error, ctx));
  const extra: Record<string, string> = {
    ...ctx.extra,
    ...t.extra,
    ...(error instanceof GcsError ? { message: error.message } : {}),
    ...(ctx.proxy ? { proxy: ctx.proxy } : {}),
  };
  const status =
    error instanceof GcsError ? error.status : error instanceof GcsProbeError ? error.status : undefined;
  const errorCode =
    error instanceof GcsError ? error.reason : error instanceof NetworkFailure ? error.code : undefined;
  return {
    code,
    step: ctx.step,
    what: t.what,
    cause: t.cause,
    remedy: t.remedy,
    evidence: {
      ...(status !== undefined ? { status } : {}),
      ...(errorCode ? { errorCode } : {}),
      ...(ctx.url ? { url: ctx.url } : {}),
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    },
  };
}
