// The object store the write check writes through: one interface (put, get, exists, delete, list under a
// prefix) for s3:// and s3a:// table locations (the storage check's S3 client, storage/client.ts) and
// gs:// ones (the storage check's Cloud Storage session, storage/gcs.ts: the profile's service-account
// key, the JSON API). Each call is bounded by the signal it is given; an error it throws is read by
// `diagnose`, in the store's own terms (the S3 or GCS diagnoses of the storage check).
import { HttpClient } from '../catalog/http.js';
import type { SecretScrubber } from '../check/scrub.js';
import type { Diagnosis, Emit } from '../check/types.js';
import { maskSecret, type Values } from '../destination/fields.js';
import { type OpenedS3, openS3, storageSettings, untilAborted } from '../storage/client.js';
import { diagnoseStorageError, errorFacts, type StorageStepId } from '../storage/diagnoses.js';
import { GcsSession, gcsJson } from '../storage/gcs.js';
import { diagnoseGcsError, GcsError, GcsProbeError } from '../storage/gcs-diagnoses.js';

export type StoreOperation = 'put' | 'get' | 'exists' | 'delete' | 'list';

/** The call a diagnosis is about. */
export interface StoreCall {
  step: `write.${string}`;
  operation: StoreOperation;
  bucket: string;
  key: string;
  /** The call's own timeout fired (not the user's Ctrl-C). */
  timedOut: boolean;
}

export interface WriteStore {
  /** The locations it serves: `s3` (s3:// and s3a://) or `gs`. */
  readonly kind: 's3' | 'gs';
  /** What a refused listing lacks, as the store names the permission. */
  readonly listPermission: string;
  put(bucket: string, key: string, bytes: Uint8Array, signal: AbortSignal): Promise<void>;
  get(bucket: string, key: string, signal: AbortSignal): Promise<Uint8Array>;
  /** False when the object is not there (404). */
  exists(bucket: string, key: string, signal: AbortSignal): Promise<boolean>;
  delete(bucket: string, key: string, signal: AbortSignal): Promise<void>;
  /** Up to `max` object keys under `prefix`. */
  list(bucket: string, prefix: string, max: number, signal: AbortSignal): Promise<string[]>;
  /** An error one of the calls threw, as a diagnosis of `call.step`. */
  diagnose(error: unknown, call: StoreCall): Diagnosis;
  close(): Promise<void>;
}

export interface StoreOptions {
  emit: Emit;
  scrubber: SecretScrubber;
  timeoutMs: number;
  /** The command's environment (io.env): proxy variables, STORAGE_EMULATOR_HOST. */
  env: NodeJS.ProcessEnv;
}

/** The store of the profile's storage: Cloud Storage for `gcs`, else S3. */
export function openWriteStore(values: Values, opts: StoreOptions): WriteStore {
  return values.storage === 'gcs' ? gcsStore(values, opts) : s3Store(values, opts);
}

const S3_OPERATIONS = {
  put: 'PutObject',
  get: 'GetObject',
  exists: 'GetObject',
  delete: 'DeleteObject',
  list: 'ListObjectsV2',
} as const;

function s3Store(values: Values, opts: StoreOptions): WriteStore {
  const settings = storageSettings(values);
  opts.scrubber.add(settings.secretKey);
  let opened: Promise<OpenedS3> | undefined;
  /** The client once a call opened it (the SDK loads only then), for the evidence's URL. */
  let latest: OpenedS3 | undefined;
  const open = () => {
    opened ??= openS3(settings, opts.emit, opts.scrubber, { env: opts.env });
    return opened;
  };
  /** One SDK call, cancelled by `signal` (the SDK's abortSignal, and a race for a call that ignores it). */
  const send = async <T>(
    signal: AbortSignal,
    call: (s3: OpenedS3, abortSignal: AbortSignal) => Promise<T>,
  ): Promise<T> => {
    const s3 = await open();
    latest = s3;
    s3.forget();
    return untilAborted(() => call(s3, signal), signal);
  };
  return {
    kind: 's3',
    listPermission: 's3:ListBucket',
    put: (Bucket, Key, Body, signal) =>
      send(signal, async (s3, abortSignal) => {
        await s3.client.send(new s3.sdk.PutObjectCommand({ Bucket, Key, Body }), { abortSignal });
      }),
    get: (Bucket, Key, signal) =>
      send(signal, async (s3, abortSignal) => {
        const out = await s3.client.send(new s3.sdk.GetObjectCommand({ Bucket, Key }), { abortSignal });
        return (await out.Body?.transformToByteArray()) ?? new Uint8Array();
      }),
    exists: (Bucket, Key, signal) =>
      send(signal, async (s3, abortSignal) => {
        try {
          await s3.client.send(new s3.sdk.HeadObjectCommand({ Bucket, Key }), { abortSignal });
          return true;
        } catch (error) {
          if (errorFacts(error).status === 404) return false;
          throw error;
        }
      }),
    delete: (Bucket, Key, signal) =>
      send(signal, async (s3, abortSignal) => {
        await s3.client.send(new s3.sdk.DeleteObjectCommand({ Bucket, Key }), { abortSignal });
      }),
    list: (Bucket, Prefix, MaxKeys, signal) =>
      send(signal, async (s3, abortSignal) => {
        const out = await s3.client.send(new s3.sdk.ListObjectsV2Command({ Bucket, Prefix, MaxKeys }), {
          abortSignal,
        });
        return (out.Contents ?? []).map((o) => o.Key ?? '');
      }),
    diagnose: (error, call) => {
      const url = latest?.lastUrl();
      return diagnoseStorageError(error, {
        step: call.step,
        operation: S3_OPERATIONS[call.operation],
        bucket: call.bucket,
        key: call.key,
        region: settings.region,
        storage: values.storage,
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
        pathStyle: settings.compatible,
        timeoutMs: opts.timeoutMs,
        timedOut: call.timedOut,
        credentials: settings.accessKey && settings.secretKey ? 'profile' : 'environment',
        ...(settings.accessKey ? { accessKeyHint: maskSecret(settings.accessKey) } : {}),
        ...(url ? { url } : {}),
      });
    },
    close: async () => {
      // A client that never opened (the SDK failed to load) has nothing to end.
      (await opened?.catch(() => undefined))?.client.destroy();
    },
  };
}

/** The storage check's step whose JSON API call (and IAM permission) each operation is. */
const GCS_STEP_OF: Record<StoreOperation, StorageStepId> = {
  put: 'storage.put',
  get: 'storage.get',
  exists: 'storage.get',
  delete: 'storage.delete',
  list: 'storage.list',
};

function gcsStore(values: Values, opts: StoreOptions): WriteStore {
  // The client is never cancelled as a whole: each call is (its signal), and `close` ends the pool.
  const client = new HttpClient({
    emit: opts.emit,
    signal: new AbortController().signal,
    timeoutMs: opts.timeoutMs,
    scrubber: opts.scrubber,
    env: opts.env,
  });
  const gcs = new GcsSession(values, client, opts.scrubber);
  let signedIn = false;
  const send = <T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> =>
    untilAborted(async () => {
      if (!signedIn) {
        for (const message of gcs.sign()) opts.emit({ type: 'warning', message });
        await gcs.signIn();
        signedIn = true;
      }
      return call();
    }, signal);
  const object = (bucket: string, key: string, query: Record<string, string> = {}) =>
    gcs.api(bucket, `/o/${encodeURIComponent(key)}`, query);
  return {
    kind: 'gs',
    listPermission: 'storage.objects.list',
    put: (bucket, key, bytes, signal) =>
      send(signal, async () => {
        await gcs.call({
          method: 'POST',
          url: gcs.api(bucket, '/o', { uploadType: 'media', name: key }, true),
          headers: { 'content-type': 'application/octet-stream' },
          body: bytes,
        });
      }),
    get: (bucket, key, signal) =>
      send(signal, async () => {
        const res = await gcs.call({ method: 'GET', url: object(bucket, key, { alt: 'media' }) });
        if (res.truncated)
          throw new GcsProbeError('not-gcs', `the object is larger than floe wrote (HTTP ${res.status})`);
        return res.bytes ?? Buffer.from(res.body);
      }),
    exists: (bucket, key, signal) =>
      send(signal, async () => {
        try {
          gcsJson(await gcs.call({ method: 'GET', url: object(bucket, key, { fields: 'name' }) }));
          return true;
        } catch (error) {
          if (error instanceof GcsError && error.status === 404) return false;
          throw error;
        }
      }),
    delete: (bucket, key, signal) =>
      send(signal, async () => {
        await gcs.call({ method: 'DELETE', url: object(bucket, key) });
      }),
    list: (bucket, prefix, max, signal) =>
      send(signal, async () => {
        const res = await gcs.call({
          method: 'GET',
          url: gcs.api(bucket, '/o', { prefix, maxResults: String(max) }),
        });
        const items = gcsJson<{ items?: { name?: unknown }[] }>(res).items;
        return (Array.isArray(items) ? items : []).map((o) => (typeof o?.name === 'string' ? o.name : ''));
      }),
    diagnose: (error, call) => ({
      ...diagnoseGcsError(error, {
        ...gcs.context(GCS_STEP_OF[call.operation], call.bucket, opts.timeoutMs, call.key),
        timedOut: call.timedOut,
      }),
      step: call.step,
    }),
    close: () => client.close(),
  };
}
