// The storage check for a gs:// location: the same five steps as the S3 check (bucket, list, write, read
// back, delete a probe under <prefix>/.floe-probe/) through a GcsSession (gcs.ts), each step a function
// over the check's state and the storage steps (steps.ts). Endpoints:
// https://cloud.google.com/storage/docs/json_api/v1 (buckets/get, objects/list, objects/insert with
// uploadType=media, objects/get with alt=media, objects/delete).
import { randomUUID } from 'node:crypto';
import { HttpClient } from '../catalog/http.js';
import type { ChainOptions } from '../check/chain.js';
import type { SecretScrubber } from '../check/scrub.js';
import type { Emit } from '../check/types.js';
import type { Values } from '../destination/fields.js';
import type { StorageStepId } from './diagnoses.js';
import { GcsSession, gcsJson, parseGsPath } from './gcs.js';
import { diagnoseGcsError, GcsError, GcsProbeError, gcsDiagnosis } from './gcs-diagnoses.js';
import { type ProbeJournal, probeJournal, recorded } from './probe-journal.js';
import {
  type Attempted,
  attempt,
  PROBE_FOLDER,
  probeKey,
  refuse,
  type StorageSteps,
  skipWrites,
} from './steps.js';

/** One gs:// check: what its steps share. */
interface GcsCheck {
  values: Values;
  from: string;
  opts: ChainOptions;
  steps: StorageSteps;
  emit: Emit;
  gcs: GcsSession;
  bucket: string;
  prefix: string;
  /** The probe object, once the put step chose it. */
  probe?: { key: string; body: string; journal: ProbeJournal };
}

/** Runs `call` as step `id` of the check, a failure diagnosed as Cloud Storage's. */
function gcsAttempt<T>(
  check: GcsCheck,
  id: StorageStepId,
  call: () => Promise<T>,
  detail: (value: T) => string,
  key?: string,
): Promise<Attempted<T>> {
  return attempt(check.steps, id, call, detail, (error) =>
    diagnoseGcsError(error, check.gcs.context(id, check.bucket, check.opts.timeoutMs, key)),
  );
}

function api(check: GcsCheck, path: string, query: Record<string, string> = {}, upload = false): URL {
  return check.gcs.api(check.bucket, path, query, upload);
}

function removeProbe(check: GcsCheck, key: string) {
  return check.gcs.call({ method: 'DELETE', url: api(check, `/o/${encodeURIComponent(key)}`) });
}

function byHand(check: GcsCheck, key: string): string {
  return `remove gs://${check.bucket}/${key} by hand`;
}

/** buckets.get after signing in; a refused storage.buckets.get alone is only a warning. */
async function findBucket(check: GcsCheck): Promise<boolean> {
  const { gcs, bucket, emit } = check;
  const head = await gcsAttempt(
    check,
    'storage.head',
    async () => {
      await gcs.signIn();
      try {
        const bucketRes = await gcs.call({
          method: 'GET',
          url: api(check, '', { fields: 'name,location,billing' }),
        });
        const found = gcsJson<{ location?: unknown; billing?: { requesterPays?: unknown } }>(bucketRes);
        return {
          location: typeof found.location === 'string' ? found.location : undefined,
          requesterPays: found.billing?.requesterPays === true,
        };
      } catch (error) {
        // roles/storage.objectAdmin (what GCSFileIO needs) has no storage.buckets.get: the listing
        // that follows shows whether the bucket exists, so this refusal alone is only a warning.
        if (
          !(error instanceof GcsError) ||
          error.status !== 403 ||
          !/storage\.buckets\.get/.test(error.message)
        )
          throw error;
        emit({
          type: 'warning',
          message: `${gcs.email} may not read bucket "${bucket}"'s metadata (storage.buckets.get): OLake does not need it; the listing checks the bucket`,
        });
        return { location: undefined, requesterPays: false, noMetadata: true };
      }
    },
    (out) =>
      'noMetadata' in out
        ? `signed in as ${gcs.email}; storage.buckets.get not granted (not needed)`
        : `bucket "${bucket}" exists${out.location ? ` in ${out.location}` : ''}${out.requesterPays ? ', requester pays' : ''} (from the ${check.from}); signed in as ${gcs.email}`,
  );
  return head.ok;
}

async function listObjects(check: GcsCheck): Promise<boolean> {
  const { prefix } = check;
  const list = await gcsAttempt(
    check,
    'storage.list',
    async () =>
      gcsJson<{ items?: unknown[] }>(
        await check.gcs.call({ method: 'GET', url: api(check, '/o', { prefix, maxResults: '1' }) }),
      ),
    (out) =>
      `${prefix ? `prefix "${prefix}"` : 'bucket root'}: ${out.items?.length ? 'has objects' : 'empty'}`,
  );
  return list.ok;
}

/** objects.insert of a probe journaled first; an upload that failed may still have stored it: deleted then. */
async function writeProbe(check: GcsCheck): Promise<boolean> {
  const { bucket, prefix, opts, emit } = check;
  const key = probeKey(prefix);
  const body = `floe storage probe ${new Date().toISOString()} ${randomUUID()}\n`;
  const journal = probeJournal(
    check.values,
    opts,
    `gs://${bucket}/${key}`,
    `gs://${bucket}/${prefix}${PROBE_FOLDER}`,
  );
  if (!(await recorded(journal, check.steps, emit))) return false;
  check.probe = { key, body, journal };
  const put = await gcsAttempt(
    check,
    'storage.put',
    async () =>
      gcsJson<{ size?: unknown }>(
        await check.gcs.call({
          method: 'POST',
          url: api(check, '/o', { uploadType: 'media', name: key }, true),
          headers: { 'content-type': 'text/plain' },
          body,
        }),
      ),
    () => `wrote ${key} (${Buffer.byteLength(body)} bytes)`,
    key,
  );
  if (put.ok) return true;
  if (opts.signal.aborted) {
    emit({
      type: 'warning',
      message: `The test was cancelled during the upload; Cloud Storage may have kept the probe: ${byHand(check, key)}`,
    });
    return false;
  }
  let gone = true;
  try {
    await removeProbe(check, key);
  } catch (error) {
    gone = error instanceof GcsError && error.status === 404;
    if (!gone)
      emit({
        type: 'warning',
        message: `The upload failed and the delete that should remove a probe Cloud Storage may have kept failed too (${(error as Error).message}): ${byHand(check, key)}`,
      });
  }
  if (gone) await journal.gone();
  return false;
}

async function readProbe(check: GcsCheck, { key, body }: NonNullable<GcsCheck['probe']>): Promise<void> {
  await gcsAttempt(
    check,
    'storage.get',
    async () => {
      const res = await check.gcs.call({
        method: 'GET',
        url: api(check, `/o/${encodeURIComponent(key)}`, { alt: 'media' }),
      });
      if (res.body !== body)
        throw new GcsProbeError(
          'mismatch',
          `read ${Buffer.byteLength(res.body)} bytes that differ`,
          res.status,
        );
      return Buffer.byteLength(res.body);
    },
    (n) => `read ${n} bytes back, identical`,
    key,
  );
}

async function deleteProbe(check: GcsCheck, { key, journal }: NonNullable<GcsCheck['probe']>): Promise<void> {
  const { opts, emit } = check;
  if (opts.signal.aborted) {
    emit({
      type: 'warning',
      message: `The test was cancelled before the probe object was deleted: ${byHand(check, key)}`,
    });
    return;
  }
  const removed = await gcsAttempt(
    check,
    'storage.delete',
    () => removeProbe(check, key),
    () => `removed ${key}`,
    key,
  );
  if (removed.ok) await journal.gone();
  else if (!opts.signal.aborted)
    emit({ type: 'warning', message: `The probe object was not deleted: ${byHand(check, key)}` });
}

/** Runs the five steps against `source` (a gs:// URL); every outcome goes to `steps` and `emit`. */
export async function runGcsCheck(
  values: Values,
  source: { url: string; from: string },
  opts: ChainOptions,
  steps: StorageSteps,
  emit: Emit,
  scrubber: SecretScrubber,
): Promise<void> {
  const location = parseGsPath(source.url);
  const client = new HttpClient({
    emit,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    scrubber,
    env: opts.env,
  });
  const gcs = new GcsSession(values, client, scrubber);
  if (!location) {
    await client.close();
    refuse(
      steps,
      'storage.head',
      gcsDiagnosis('GCS_INVALID_PATH', gcs.context('storage.head', '', opts.timeoutMs)),
    );
    return;
  }
  const check: GcsCheck = { values, from: source.from, opts, steps, emit, gcs, ...location };
  steps.start('storage.head');
  try {
    for (const message of gcs.sign()) emit({ type: 'warning', message });
  } catch (error) {
    await client.close();
    if (!(error instanceof GcsProbeError)) throw error;
    refuse(
      steps,
      'storage.head',
      diagnoseGcsError(error, gcs.context('storage.head', location.bucket, opts.timeoutMs)),
    );
    return;
  }
  try {
    if (!(await findBucket(check)) || !(await listObjects(check))) return;
    if (opts.readOnly) return skipWrites(steps);
    if (!(await writeProbe(check)) || !check.probe) return;
    await readProbe(check, check.probe);
    await deleteProbe(check, check.probe);
  } finally {
    await client.close();
  }
}
