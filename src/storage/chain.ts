// The storage half of the connection test: HeadBucket → ListObjectsV2 → PutObject → GetObject →
// DeleteObject against the destination's bucket. The AWS SDK is loaded only when the chain runs.
import { randomUUID } from 'node:crypto';
import type { Chain, ChainOptions } from '../check/chain.js';
import { SecretScrubber } from '../check/scrub.js';
import type { Emit } from '../check/types.js';
import { maskSecret, type Values } from '../destination/fields.js';
import {
  openS3,
  probeError,
  proxyOf,
  type StorageSettings,
  storageSettings,
  untilAborted,
} from './client.js';
import {
  diagnoseStorageError,
  errorFacts,
  type ProbeContext,
  type StorageDiagnosisCode,
  type StorageStepId,
  storageDiagnosis,
} from './diagnoses.js';
import { diagnoseGcsError, GCS_TITLES } from './gcs-diagnoses.js';
import { type ProbeJournal, probeJournal, recorded } from './probe-journal.js';
import { parseS3Path, profileDataLocation, type S3Location } from './s3path.js';
import {
  attempt as attemptStep,
  PROBE_FOLDER,
  probeKey,
  refuse as refuseStep,
  STEP_IDS,
  type StorageSteps,
  skipWrites,
  storageSteps,
} from './steps.js';

interface Probe extends StorageSettings {
  location: S3Location;
}

export const storageChain: Chain = async (values, opts) => {
  const settings = storageSettings(values);
  const { accessKey, secretKey } = settings;
  const scrubber = new SecretScrubber(maskSecret);
  scrubber.add(accessKey);
  scrubber.add(secretKey);
  const emit: Emit = (event) => opts.emit(scrubber.scrubDeep(event));
  const gcs = values.storage === 'gcs';
  const board = storageSteps(emit, opts, gcs ? GCS_TITLES : undefined);
  const source = profileDataLocation(values) ?? (await catalogDataLocation(opts, board));
  const location = source ? parseS3Path(source.url) : null;
  const probe: Probe = { ...settings, location: location ?? { bucket: '', prefix: '' } };
  const baseContext = (step: StorageStepId): ProbeContext => ({
    step,
    bucket: probe.location.bucket,
    region: probe.region,
    storage: values.storage,
    ...(probe.endpoint ? { endpoint: probe.endpoint } : {}),
    pathStyle: probe.compatible,
    timeoutMs: opts.timeoutMs,
    timedOut: false,
    credentials: accessKey && secretKey ? 'profile' : 'environment',
    ...(accessKey ? { accessKeyHint: maskSecret(accessKey) } : {}),
  });
  const refuse = (code: StorageDiagnosisCode) =>
    refuseStep(board, 'storage.head', storageDiagnosis(code, baseContext('storage.head')));

  if (opts.signal.aborted) board.finish();
  else if (!source) {
    for (const id of STEP_IDS) board.skip(id, 'no data location known');
    emit({ type: 'warning', message: noLocationWarning(values, opts) });
  } else if (gcs) {
    const { runGcsCheck } = await import('./gcs-check.js');
    try {
      await runGcsCheck(values, source, opts, board, emit, scrubber);
    } catch (error) {
      const step = board.current();
      const diagnosis = diagnoseGcsError(error, {
        step,
        bucket: '',
        base: '',
        timeoutMs: opts.timeoutMs,
        timedOut: false,
      });
      board.set(step, opts.signal.aborted ? 'cancelled' : 'failed', { detail: diagnosis.what });
      if (!opts.signal.aborted) board.diagnose(diagnosis);
    }
  } else if (source.url.startsWith('gs://')) {
    for (const id of STEP_IDS)
      board.skip(id, 'Google Cloud Storage, but the storage is S3: choose --storage gcs');
    emit({
      type: 'warning',
      message: `The data location ${source.url} (from the ${source.from}) is in Google Cloud Storage but the profile's storage is ${values.storage}: choose Google Cloud Storage (--storage gcs) to test it with the service-account key`,
    });
  } else if (!location) refuse('S3_INVALID_PATH');
  else if (probe.compatible && !probe.endpoint) refuse('S3_NO_ENDPOINT');
  else {
    try {
      await run(probe, source.from, opts, board, emit, baseContext, scrubber, (url, folder) =>
        probeJournal(values, opts, url, folder),
      );
    } catch (error) {
      const step = board.current();
      const diagnosis = diagnoseStorageError(error, baseContext(step));
      board.set(step, opts.signal.aborted ? 'cancelled' : 'failed', { detail: diagnosis.what });
      if (!opts.signal.aborted) board.diagnose(diagnosis);
    }
  }
  board.finish();
};

/**
 * The location the catalog names, once the catalog chain has asked (its config, the check namespace),
 * else the one it gives the write check's table (floe test --write); null: none.
 */
async function catalogDataLocation(
  opts: ChainOptions,
  board: StorageSteps,
): Promise<{ url: string; from: string } | null> {
  const shared = opts.shared;
  if (!shared) return null;
  const aborted = new Promise<null>((resolve) => {
    if (opts.signal.aborted) resolve(null);
    opts.signal.addEventListener('abort', () => resolve(null), { once: true });
  });
  const named = await Promise.race([shared.catalogLocation, aborted]);
  if (named) return { url: named.url, from: named.from };
  if (!opts.write || opts.signal.aborted) return null;
  board.set('storage.head', 'pending', {
    detail: 'waiting for the location the catalog gives the write check’s table',
  });
  const table = await Promise.race([shared.tableLocation, aborted]);
  return table ? { url: table.url, from: table.from } : null;
}

/** No location to probe: what was asked, and what to set. */
function noLocationWarning(values: Values, opts: ChainOptions): string {
  const warehouse = typeof values.fields.warehouse === 'string' ? values.fields.warehouse.trim() : '';
  const asked = [
    `the profile has no Data Location${warehouse ? ` and its Warehouse “${warehouse}” is not an s3:// or gs:// location` : ''}`,
    ...(opts.shared?.locationTried ?? []),
  ];
  if (!opts.write) asked.push('floe test --write would learn the location the catalog gives a new table');
  return `The object-store steps were skipped: no data location is known (${asked.join('; ')}). Set Data Location to the bucket and prefix OLake writes to, e.g. floe setup --data-location s3://bucket/prefix`;
}

async function run(
  probe: Probe,
  from: string,
  opts: ChainOptions,
  board: StorageSteps,
  emit: Emit,
  baseContext: (step: StorageStepId) => ProbeContext,
  scrubber: SecretScrubber,
  journalProbe: (url: string, folder: string) => ProbeJournal,
): Promise<void> {
  board.start('storage.head');
  const { sdk, client, lastUrl: latestUrl, forget } = await openS3(probe, emit, scrubber);
  const { bucket, prefix } = probe.location;

  let timedOut = false;
  const send = async <T>(call: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = AbortSignal.any([opts.signal, timeout]);
    try {
      return await untilAborted(() => call(signal), signal);
    } catch (error) {
      timedOut = timeout.aborted && !opts.signal.aborted;
      throw error;
    }
  };

  /** HeadBucket errors carry no body, so no error code: ask again with a request that gets one. */
  const explainHead = async (error: unknown): Promise<{ error: unknown; extra?: Record<string, string> }> => {
    const facts = errorFacts(error);
    if (timedOut || facts.status === undefined || (error as { Code?: unknown }).Code !== undefined)
      return { error };
    try {
      await send((abortSignal) =>
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
    timedOut = false;
    return { error };
  };

  const attempt = <T>(
    id: StorageStepId,
    call: (signal: AbortSignal) => Promise<T>,
    detail: (value: T) => string,
    key?: string,
  ) =>
    attemptStep(
      board,
      id,
      () => {
        forget();
        timedOut = false;
        return send(call);
      },
      detail,
      async (thrown) => {
        const failedUrl = latestUrl();
        const { error, extra } = id === 'storage.head' ? await explainHead(thrown) : { error: thrown };
        const url = extra ? latestUrl() : failedUrl;
        return diagnoseStorageError(error, {
          ...baseContext(id),
          ...(key ? { key } : {}),
          ...(url ? { url } : {}),
          ...(url ? proxyOf(url) : {}),
          timedOut,
          ...(extra ? { extra } : {}),
        });
      },
    );

  let journaled: ProbeJournal | undefined;
  /**
   * A PutObject that failed or timed out may still have stored the object: try a DeleteObject (its own
   * timeout), and if that fails too (or the test was cancelled) name the key to delete by hand.
   */
  const removeFailedProbe = async (key: string): Promise<void> => {
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
        () =>
          client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: timeout }),
        timeout,
      );
    } catch (error) {
      emit({
        type: 'warning',
        message: `PutObject failed and the DeleteObject that should remove a probe the store may have kept failed too (${errorFacts(error).message}): ${byHand}`,
      });
      return;
    }
    await journaled?.gone();
  };

  try {
    const head = await attempt(
      'storage.head',
      (abortSignal) => client.send(new sdk.HeadBucketCommand({ Bucket: bucket }), { abortSignal }),
      (out) =>
        `bucket "${bucket}" exists${out.BucketRegion ? ` in ${out.BucketRegion}` : ''} (probing s3://${bucket}/${prefix} from the ${from})`,
    );
    if (!head.ok) return;
    const list = await attempt(
      'storage.list',
      (abortSignal) =>
        client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1, Prefix: prefix }), {
          abortSignal,
        }),
      (out) => `${prefix ? `prefix "${prefix}"` : 'bucket root'}: ${out.KeyCount ? 'has objects' : 'empty'}`,
    );
    if (!list.ok) return;
    if (opts.readOnly) {
      skipWrites(board);
      return;
    }
    const key = probeKey(prefix);
    const body = Buffer.from(`floe storage probe ${new Date().toISOString()} ${randomUUID()}\n`);
    journaled = journalProbe(`s3://${bucket}/${key}`, `s3://${bucket}/${prefix}${PROBE_FOLDER}`);
    if (!(await recorded(journaled, board, emit))) return;
    const put = await attempt(
      'storage.put',
      (abortSignal) =>
        client.send(
          new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'text/plain' }),
          { abortSignal },
        ),
      () => `wrote ${key} (${body.length} bytes)`,
      key,
    );
    if (!put.ok) {
      await removeFailedProbe(key);
      return;
    }
    await attempt(
      'storage.get',
      async (abortSignal) => {
        const out = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }), {
          abortSignal,
        });
        const read = Buffer.from((await out.Body?.transformToByteArray()) ?? []);
        if (!read.equals(body))
          throw probeError('FloeProbeMismatch', `read ${read.length} bytes that differ`);
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
    const removed = await attempt(
      'storage.delete',
      (abortSignal) =>
        client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }), { abortSignal }),
      () => `removed ${key}`,
      key,
    );
    if (removed.ok) await journaled.gone();
  } finally {
    client.destroy();
  }
}
