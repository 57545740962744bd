// The storage half of the connection test: the data location found (the profile's, else the catalog's),
// then five steps against its bucket: S3's (s3-check.ts) or Cloud Storage's (gcs-check.ts, loaded then).
import type { Chain, ChainOptions } from '../check/chain.js';
import { SecretScrubber } from '../check/scrub.js';
import type { Emit } from '../check/types.js';
import { maskSecret, type Values } from '../destination/fields.js';
import { storageSettings } from './client.js';
import {
  diagnoseStorageError,
  type ProbeContext,
  type StorageDiagnosisCode,
  type StorageStepId,
  storageDiagnosis,
} from './diagnoses.js';
import { diagnoseGcsError, GCS_TITLES } from './gcs-diagnoses.js';
import { probeJournal } from './probe-journal.js';
import { type Probe, runS3Check } from './s3-check.js';
import { parseS3Path, profileDataLocation } from './s3path.js';
import { refuse as refuseStep, STEP_IDS, type StorageSteps, storageSteps } from './steps.js';

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
      await runS3Check(probe, source.from, opts, board, emit, baseContext, scrubber, (url, folder) =>
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
