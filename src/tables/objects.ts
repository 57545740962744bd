// Reading a table's metadata files (manifest lists, manifests) from its object store with the profile's
// own settings: s3:// and s3a:// through storage/client.ts's one S3 client (the AWS SDK loaded only when
// the first file is read), gs:// through the storage check's Cloud Storage session (storage/gcs.ts: the
// service-account key, the JSON API, STORAGE_EMULATOR_HOST), capped in size and cancellable. A failure
// is diagnosed as the storage check diagnoses its read (GetObject, objects.get), except a missing file,
// which here means the table points at a file that was deleted outside Iceberg.
import { HttpClient, type HttpResponse } from '../catalog/http.js';
import type { SecretScrubber } from '../check/scrub.js';
import type { Diagnosis, Emit } from '../check/types.js';
import type { Values } from '../destination/fields.js';
import { type OpenedS3, openS3, storageSettings, untilAborted } from '../storage/client.js';
import { diagnoseStorageError, errorFacts } from '../storage/diagnoses.js';
import { GcsSession, parseGsPath } from '../storage/gcs.js';
import { diagnoseGcsError, GcsError } from '../storage/gcs-diagnoses.js';
import { parseS3Path } from '../storage/s3path.js';

/** A manifest of 100,000 entries with column stats is a few tens of MiB. */
export const MAX_OBJECT_BYTES = 64 * 1024 * 1024;

export class ObjectReadError extends Error {
  constructor(
    readonly url: string,
    readonly diagnosis: Pick<Diagnosis, 'code' | 'what' | 'cause' | 'remedy'>,
  ) {
    super(diagnosis.what);
  }
}

export interface ObjectReader {
  /** The whole object at `url`; throws ObjectReadError. */
  read(url: string, signal: AbortSignal): Promise<Uint8Array>;
  close(): void;
}

export interface ObjectReaderOptions {
  values: Values;
  emit: Emit;
  scrubber: SecretScrubber;
  timeoutMs: number;
  /** The command's environment (io.env): proxy variables, STORAGE_EMULATOR_HOST. */
  env: NodeJS.ProcessEnv;
  maxBytes?: number;
  /** Ends every request in flight (Cloud Storage's; S3's end with each read's own signal). */
  signal?: AbortSignal;
}

function unsupported(url: string): ObjectReadError {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1] ?? 'no scheme';
  return new ObjectReadError(url, {
    code: 'TABLE_LOCATION_UNSUPPORTED',
    what: `The file ${url} is on ${scheme}, which floe tables does not read`,
    cause:
      'floe reads table files from s3:// (and s3a://) and gs:// locations with the profile’s storage settings',
    remedy:
      'Use a profile whose tables are on S3, an S3-compatible store or Cloud Storage, or read the table with an engine',
  });
}

function missing(url: string): ObjectReadError {
  return new ObjectReadError(url, {
    code: 'TABLE_FILE_MISSING',
    what: `The file ${url} does not exist (HTTP 404)`,
    cause:
      'The table’s metadata points at a file that is gone: deleted outside Iceberg (a lifecycle rule, a manual delete, remove_orphan_files run with too short an age) or written to another bucket',
    remedy:
      'Restore the file from the bucket’s versioning if it has it; otherwise roll the table back to a snapshot whose files exist (Spark CALL <catalog>.system.rollback_to_snapshot) and resync the stream',
  });
}

/** A whole object of Cloud Storage through the JSON API (objects.get, alt=media). */
function gcsReader(opts: ObjectReaderOptions): ObjectReader {
  const maxBodyBytes = opts.maxBytes ?? MAX_OBJECT_BYTES;
  const client = new HttpClient({
    emit: opts.emit,
    signal: opts.signal ?? new AbortController().signal,
    timeoutMs: opts.timeoutMs,
    scrubber: opts.scrubber,
    env: opts.env,
    maxBodyBytes,
  });
  const gcs = new GcsSession(opts.values, client, opts.scrubber);
  // One sign-in for every read; a failed one is tried again by the next read.
  let signingIn: Promise<void> | undefined;
  const signIn = () => {
    signingIn ??= (async () => {
      for (const message of gcs.sign()) opts.emit({ type: 'warning', message });
      await gcs.signIn();
    })();
    signingIn.catch(() => {
      signingIn = undefined;
    });
    return signingIn;
  };
  return {
    async read(url, signal) {
      const location = parseGsPath(url);
      if (!location?.prefix) throw unsupported(url);
      const key = location.prefix.replace(/\/$/, '');
      let res: HttpResponse;
      try {
        res = await untilAborted(async () => {
          await signIn();
          return gcs.call({
            method: 'GET',
            url: gcs.api(location.bucket, `/o/${encodeURIComponent(key)}`, { alt: 'media' }),
          });
        }, signal);
      } catch (error) {
        if (error instanceof GcsError && error.status === 404 && error.from === 'storage') throw missing(url);
        const d = diagnoseGcsError(error, gcs.context('storage.get', location.bucket, opts.timeoutMs, key));
        throw new ObjectReadError(url, opts.scrubber.scrubDeep(d));
      }
      if (res.truncated)
        throw new ObjectReadError(url, {
          code: 'TABLE_FILE_TOO_LARGE',
          what: `The file ${url} is larger than ${maxBodyBytes} bytes: floe stopped reading it`,
          cause:
            'A manifest this large was not written by an Iceberg writer, or the object is not a manifest',
          remedy:
            'Read the table with an engine’s $files table, or rewrite its manifests (rewrite_manifests)',
        });
      return res.bytes ?? Buffer.from(res.body);
    },
    close() {
      void client.close();
    },
  };
}

/** The profile's object store as an ObjectReader: Cloud Storage for `gcs`, else S3. */
export function objectReader(opts: ObjectReaderOptions): ObjectReader {
  if (opts.values.storage === 'gcs') return gcsReader(opts);
  const settings = storageSettings(opts.values);
  opts.scrubber.add(settings.secretKey);
  const maxBodyBytes = opts.maxBytes ?? MAX_OBJECT_BYTES;
  let opened: Promise<OpenedS3> | undefined;
  return {
    async read(url, signal) {
      const location = parseS3Path(url);
      if (!location?.prefix) throw unsupported(url);
      const key = location.prefix.replace(/\/$/, '');
      opened ??= openS3(settings, opts.emit, opts.scrubber, { env: opts.env, maxBodyBytes });
      const s3 = await opened;
      const timer = AbortSignal.timeout(opts.timeoutMs);
      const both = AbortSignal.any([signal, timer]);
      try {
        const answer = await untilAborted(
          () =>
            s3.client.send(new s3.sdk.GetObjectCommand({ Bucket: location.bucket, Key: key }), {
              abortSignal: both,
            }),
          both,
        );
        if (!answer.Body) throw new Error('the answer has no body');
        return await answer.Body.transformToByteArray();
      } catch (error) {
        const facts = errorFacts(error);
        if (facts.code === 'NoSuchKey' || facts.status === 404) throw missing(url);
        const d = diagnoseStorageError(error, {
          step: 'storage.get',
          operation: 'GetObject',
          bucket: location.bucket,
          key,
          region: settings.region,
          storage: opts.values.storage,
          ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
          pathStyle: settings.compatible,
          timeoutMs: opts.timeoutMs,
          timedOut: timer.aborted && !signal.aborted,
          credentials: settings.accessKey ? 'profile' : 'environment',
        });
        throw new ObjectReadError(url, opts.scrubber.scrubDeep(d));
      }
    },
    close() {
      void opened?.then(
        (s3) => s3.client.destroy(),
        () => undefined,
      );
    },
  };
}
