// The storage check for an s3:// location: HeadBucket → ListObjectsV2 → PutObject → GetObject →
// DeleteObject of a probe under <prefix>/.floe-probe/, each step a function over the check's state and
// the storage steps (steps.ts). The AWS SDK is loaded only here, when the check runs.
import { randomUUID } from 'node:crypto';
import type { ChainOptions } from '../check/chain.js';
import type { SecretScrubber } from '../check/scrub.js';
import type { Emit } from '../check/types.js';
import { type OpenedS3, openS3, probeError, proxyOf, type StorageSettings, untilAborted } from './client.js';
import { diagnoseStorageError, errorFacts, type ProbeContext, type StorageStepId } from './diagnoses.js';
import { type ProbeJournal, recorded } from './probe-journal.js';
import type { S3Location } from './s3path.js';
import { type Attempted, attempt, PROBE_FOLDER, probeKey, type StorageSteps, skipWrites } from './steps.js';

export interface Probe extends StorageSettings {
  location: S3Location;
}

/** One s3:// check: what its steps share. */
interface S3Check extends OpenedS3 {
  from: string;
  opts: ChainOptions;
  steps: StorageSteps;
  emit: Emit;
  bucket: string;
  prefix: string;
  baseContext: (step: StorageStepId) => ProbeContext;
  /** Whether the per-request timeout (not the user) ended the latest request. */
  timedOut: boolean;
}

/** Sends one SDK call with the per-request timeout, cancellable by the check's signal. */
async function send<T>(check: S3Check, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const timeout = AbortSignal.timeout(check.opts.timeoutMs);
  const signal = AbortSignal.any([check.opts.signal, timeout]);
  try {
    return await untilAborted(() => call(signal), signal);
  } catch (error) {
    check.timedOut = timeout.aborted && !check.opts.signal.aborted;
    throw error;
  }
}

/** HeadBucket errors carry no body, so no error code: ask again with a request that gets one. */
async function explainHead(
  check: S3Check,
  error: unknown,
): Promise<{ error: unknown; extra?: Record<string, string> }> {
  const { sdk, client, bucket, prefix } = check;
  const facts = errorFacts(error);
  if (check.timedOut || facts.status === undefined || (error as { Code?: unknown }).Code !== undefined)
    return { error };
  try {
    await send(check, (abortSignal) =>
      client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1, Prefix: prefix }), {
        abortSignal,
      }),
    );
  } catch (followUp) {
    const named = errorFacts(followUp);
    if (named.code && named.status !== undefined)
      return {
        error: followUp,
        extra: {
          note: `HeadBucket answered HTTP ${facts.status} without a body; ListObjectsV2 named the error`,
          ...(facts.requestId ? { headRequestId: facts.requestId } : {}),
        },
      };
  }
  check.timedOut = false;
  return { error };
}

/** Runs `call` as step `id` of the check, a failure diagnosed as the store's. */
function s3Attempt<T>(
  check: S3Check,
  id: StorageStepId,
  call: (signal: AbortSignal) => Promise<T>,
  detail: (value: T) => string,
  key?: string,
): Promise<Attempted<T>> {
  return attempt(
    check.steps,
    id,
    () => {
      check.forget();
      check.timedOut = false;
      return send(check, call);
    },
    detail,
    async (thrown) => {
      const failedUrl = check.lastUrl();
      const { error, extra } = id === 'storage.head' ? await explainHead(check, thrown) : { error: thrown };
      const url = extra ? check.lastUrl() : failedUrl;
      return diagnoseStorageError(error, {
        ...check.baseContext(id),
        ...(key ? { key } : {}),
        ...(url ? { url } : {}),
        ...(url ? proxyOf(url, check.opts.env) : {}),
        timedOut: check.timedOut,
        ...(extra ? { extra } : {}),
      });
    },
  );
}

async function findBucket(check: S3Check): Promise<boolean> {
  const { sdk, client, bucket, prefix } = check;
  const head = await s3Attempt(
    check,
    'storage.head',
    (abortSignal) => client.send(new sdk.HeadBucketCommand({ Bucket: bucket }), { abortSignal }),
    (out) =>
      `bucket "${bucket}" exists${out.BucketRegion ? ` in ${out.BucketRegion}` : ''} (probing s3://${bucket}/${prefix} from the ${check.from})`,
  );
  return head.ok;
}

async function listObjects(check: S3Check): Promise<boolean> {
  const { sdk, client, bucket, prefix } = check;
  const list = await s3Attempt(
    check,
    'storage.list',
    (abortSignal) =>
      client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1, Prefix: prefix }), {
        abortSignal,
      }),
    (out) => `${prefix ? `prefix "${prefix}"` : 'bucket root'}: ${out.KeyCount ? 'has objects' : 'empty'}`,
  );
  return list.ok;
}

/**
 * A PutObject that failed or timed out may still have stored the object: try a DeleteObject (its own
 * timeout), and if that fails too (or the test was cancelled) name the key to delete by hand.
 */
async function removeFailedProbe(check: S3Check, key: string, journal: ProbeJournal): Promise<void> {
  const { sdk, client, bucket, opts, emit } = check;
  const byHand = `remove s3://${bucket}/${key} by hand`;
  if (opts.signal.aborted) {
    emit({
      type: 'warning',
      message: `The test was cancelled during PutObject; the store may have kept the probe: ${byHand}`,
    });
    return;
  }
  try {
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    await untilAborted(
      () => client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: timeout }),
      timeout,
    );
  } catch (error) {
    emit({
      type: 'warning',
      message: `PutObject failed and the DeleteObject that should remove a probe the store may have kept failed too (${errorFacts(error).message}): ${byHand}`,
    });
    return;
  }
  await journal.gone();
}

/** The probe journaled first, then PutObject, GetObject (identical bytes) and DeleteObject. */
async function probeObject(check: S3Check, journalProbe: (url: string, folder: string) => ProbeJournal) {
  const { sdk, client, bucket, prefix, opts, emit } = check;
  const key = probeKey(prefix);
  const body = Buffer.from(`floe storage probe ${new Date().toISOString()} ${randomUUID()}\n`);
  const journal = journalProbe(`s3://${bucket}/${key}`, `s3://${bucket}/${prefix}${PROBE_FOLDER}`);
  if (!(await recorded(journal, check.steps, emit))) return;
  const put = await s3Attempt(
    check,
    'storage.put',
    (abortSignal) =>
      client.send(
        new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'text/plain' }),
        {
          abortSignal,
        },
      ),
    () => `wrote ${key} (${body.length} bytes)`,
    key,
  );
  if (!put.ok) return removeFailedProbe(check, key, journal);
  await s3Attempt(
    check,
    'storage.get',
    async (abortSignal) => {
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }), { abortSignal });
      const read = Buffer.from((await out.Body?.transformToByteArray()) ?? []);
      if (!read.equals(body)) throw probeError('FloeProbeMismatch', `read ${read.length} bytes that differ`);
      return read.length;
    },
    (n) => `read ${n} bytes back, identical`,
    key,
  );
  if (opts.signal.aborted) {
    emit({
      type: 'warning',
      message: `The test was cancelled before the probe object was deleted: remove s3://${bucket}/${key}`,
    });
    return;
  }
  const removed = await s3Attempt(
    check,
    'storage.delete',
    (abortSignal) => client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }), { abortSignal }),
    () => `removed ${key}`,
    key,
  );
  if (removed.ok) await journal.gone();
}

/** Runs the five steps against `probe`; every outcome goes to `steps` and `emit`. */
export async function runS3Check(
  probe: Probe,
  from: string,
  opts: ChainOptions,
  steps: StorageSteps,
  emit: Emit,
  baseContext: (step: StorageStepId) => ProbeContext,
  scrubber: SecretScrubber,
  journalProbe: (url: string, folder: string) => ProbeJournal,
): Promise<void> {
  steps.start('storage.head');
  const opened = await openS3(probe, emit, scrubber, { env: opts.env });
  const check: S3Check = {
    ...opened,
    ...probe.location,
    from,
    opts,
    steps,
    emit,
    baseContext,
    timedOut: false,
  };
  try {
    if (!(await findBucket(check)) || !(await listObjects(check))) return;
    if (opts.readOnly) return skipWrites(steps);
    await probeObject(check, journalProbe);
  } finally {
    opened.client.destroy();
  }
}
