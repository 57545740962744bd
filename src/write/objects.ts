// The write check's object-store calls: each with its own time-out, floe's writes journaled first, and
// a failure worded for the table's location (and the probe's, when they differ).
import type { Diagnosis } from '../check/types.js';
import { untilAborted } from '../storage/client.js';
import { type WriteDiagnosisCode, writeDiagnosis } from './diagnoses.js';
import { StepFailure, splitUrl, type WriteRun, type WriteStepId } from './run.js';
import type { StoreOperation, WriteStore } from './store.js';

/** One object-store call with its own timeout; an error becomes the step's diagnosis, with both locations named. */
export async function storeCall<T>(
  run: WriteRun,
  step: WriteStepId,
  operation: StoreOperation,
  url: string,
  call: (store: WriteStore, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const store = run.objects;
  const timeout = AbortSignal.timeout(run.opts.timeoutMs);
  const signal = AbortSignal.any([run.signal, timeout]);
  try {
    return await untilAborted(() => call(store, signal), signal);
  } catch (error) {
    if (run.signal.aborted) run.fail(null);
    const { bucket, key } = splitUrl(url);
    const found = store.diagnose(error, { step, operation, bucket, key, timedOut: timeout.aborted });
    run.fail(atTableLocation(run, step, found));
  }
}

/** Storage diagnoses that mean "the table's location is not where the keys may write", said so. */
export function atTableLocation(run: WriteRun, step: WriteStepId, found: Diagnosis): Diagnosis {
  const location = run.table!.location;
  const probe = run.probeLocation ?? '(none: the storage check had no location)';
  const both = { tableLocation: location, probeLocation: probe };
  const codes: Partial<Record<string, WriteDiagnosisCode>> = {
    S3_ACCESS_DENIED_WRITE: 'WRITE_LOCATION_DENIED',
    S3_ACCESS_DENIED_READ: 'WRITE_LOCATION_DENIED',
    S3_NO_SUCH_BUCKET: 'WRITE_LOCATION_BUCKET_MISSING',
    S3_WRONG_REGION: 'WRITE_LOCATION_REGION',
  };
  const code = codes[found.code];
  const evidence = { ...found.evidence, extra: { ...found.evidence.extra, ...both } };
  const elsewhere = run.probeLocation && !location.startsWith(run.probeLocation.replace(/\/+$/, ''));
  // Cloud Storage's own diagnosis names the IAM permission, the account and the grant: it stays, with the table's location.
  if (found.code.startsWith('GCS_') && found.code !== 'GCS_KEY_INVALID')
    return {
      ...found,
      step,
      what: `${found.what} (the table’s location ${location}${elsewhere ? `; the storage check wrote under ${run.probeLocation}` : ''})`,
      evidence,
    };
  if (!code) return { ...found, step, evidence };
  return writeDiagnosis(code, step, {
    what: `${found.what}: the catalog put the table at ${location}${elsewhere ? `, while the storage check wrote under ${run.probeLocation}` : ''}`,
    evidence,
  });
}

/**
 * Writes one object of floe's. It counts as written (for the cleanup) unless the store refused it
 * outright (a 4xx): a time-out or a broken connection may still have stored it.
 */
export async function put(run: WriteRun, step: WriteStepId, url: string, bytes: Uint8Array): Promise<void> {
  const { bucket, key } = splitUrl(url);
  await run.note((r) => r.objects.push(url));
  try {
    await storeCall(run, step, 'put', url, (store, signal) => store.put(bucket, key, bytes, signal));
  } catch (error) {
    const status = error instanceof StepFailure ? error.diagnosis?.evidence.status : undefined;
    if (status !== undefined && status >= 400 && status < 500)
      await run.note((r) => r.objects.splice(r.objects.indexOf(url), 1));
    throw error;
  }
}
