// Where the emulator keeps what clients create: namespaces and tables in memory, and the table
// metadata files in an object store: a real S3 endpoint (path style, e.g. the sandbox's s3rver or
// a Ceph RGW) or Cloud Storage's JSON API (BigLake's, e.g. the sandbox's GCS emulator) when the
// emulator has `objectStore`, else a map in memory (the metadata-location it reports then names an
// object nobody else can read).
import { googleAssertion, JWT_BEARER_GRANT } from '../../catalog/auth.js';
import { lazy, type S3Sdk } from '../../lazy.js';
import { GCS_SCOPE } from '../../storage/gcs.js';
import type { StorageFailure } from './flavours/index.js';

import type { TableMetadata } from './metadata.js';

export interface ObjectStoreOptions {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Cloud Storage, as BigLake writes a table's metadata files: the JSON API with its own service account. */
export interface GcsStoreOptions {
  kind: 'gcs';
  /** The JSON API's base, e.g. the GCS emulator's http://127.0.0.1:4443. */
  base: string;
  /** The service-account key (JSON) it signs in with; its token_uri is the token endpoint. */
  serviceAccountJson: string;
}

const GCS_TIMEOUT_MS = 10_000;

export interface ObjectStore {
  /** Writes the object; rejects with a StorageError. */
  put(uri: string, body: string): Promise<void>;
  /** Deletes what it can; failures are ignored, as CatalogUtil.dropTableData logs and goes on. */
  remove(uris: string[]): Promise<void>;
}

export class StorageError extends Error {
  constructor(readonly failure: StorageFailure) {
    super(failure.message);
  }
}

/** s3://bucket/key (also s3a:// and s3n://, as Iceberg's S3FileIO takes them). */
function parseS3Uri(uri: string): { bucket: string; key: string } {
  const m = /^s3[an]?:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (!m)
    throw new StorageError({
      status: undefined,
      code: 'InvalidS3Uri',
      message: `Invalid S3 URI, cannot determine scheme: ${uri}`,
    });
  return { bucket: m[1]!, key: m[2]! };
}

function failureOf(error: unknown): StorageFailure {
  const e = error as {
    name?: string;
    code?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
  };
  return {
    status: e.$metadata?.httpStatusCode,
    code: e.code ?? e.name ?? 'Error',
    message: e.message ?? String(error),
  };
}

/** An S3 endpoint through @aws-sdk/client-s3, imported on first use. */
export function s3ObjectStore(options: ObjectStoreOptions): ObjectStore & { close(): void } {
  let loaded: Promise<{ sdk: S3Sdk; client: InstanceType<S3Sdk['S3Client']> }> | undefined;
  // Closing aborts the requests in flight (destroying the client does not end them).
  const closing = new AbortController();
  const load = () => {
    if (closing.signal.aborted)
      throw new StorageError({
        status: undefined,
        code: 'Closed',
        message: 'the catalog emulator is stopping',
      });
    loaded ??= lazy.s3().then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint: options.endpoint,
        region: options.region,
        forcePathStyle: true,
        credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 1,
      }),
    }));
    return loaded;
  };
  return {
    async put(uri, body) {
      const { bucket, key } = parseS3Uri(uri);
      const { sdk, client } = await load();
      try {
        await client.send(
          new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/json' }),
          { abortSignal: closing.signal },
        );
      } catch (error) {
        throw new StorageError(failureOf(error));
      }
    },
    async remove(uris) {
      const { sdk, client } = await load();
      for (const uri of uris) {
        try {
          const { bucket, key } = parseS3Uri(uri);
          await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }), {
            abortSignal: closing.signal,
          });
        } catch {
          // CatalogUtil.dropTableData: "Failed to delete …" is logged, the drop goes on.
        }
      }
    },
    close() {
      closing.abort();
      // A load that failed was reported by the put or
      // remove that awaited it: nothing to close then, and no rejection left unhandled (Node would end
      // the process with it, as leaving the demo did).
      loaded?.then(
        ({ client }) => client.destroy(),
        () => {},
      );
    },
  };
}

/** A gs://bucket/name URI's parts. */
function parseGsUri(uri: string): { bucket: string; name: string } {
  const m = /^gs:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (!m) throw new StorageError({ status: undefined, code: 'invalid', message: `Invalid GCS URI: ${uri}` });
  return { bucket: m[1]!, name: m[2]! };
}

/** Cloud Storage's JSON API: one access token from the key's token endpoint, then uploads and deletes. */
export function gcsObjectStore(options: GcsStoreOptions): ObjectStore & { close(): void } {
  const closing = new AbortController();
  let token: Promise<string> | undefined;
  const signal = () => AbortSignal.any([closing.signal, AbortSignal.timeout(GCS_TIMEOUT_MS)]);
  /** The answer, or a StorageError with Google's reason and message. */
  async function call(url: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: signal() });
    } catch (error) {
      throw new StorageError({ status: undefined, code: 'network', message: (error as Error).message });
    }
    if (res.ok) return res;
    const text = await res.text();
    let error: { message?: string; errors?: { reason?: string }[] } | string | undefined;
    try {
      error = (JSON.parse(text) as { error?: typeof error }).error;
    } catch {
      error = undefined;
    }
    throw new StorageError({
      status: res.status,
      code: typeof error === 'object' ? (error.errors?.[0]?.reason ?? 'error') : (error ?? 'error'),
      message: typeof error === 'object' ? (error.message ?? text) : text,
    });
  }
  const signIn = async () => {
    const signed = googleAssertion(options.serviceAccountJson, [GCS_SCOPE]);
    const res = await call(signed.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: signed.assertion }).toString(),
    });
    return String(((await res.json()) as { access_token?: unknown }).access_token);
  };
  const authorization = async () => {
    token ??= signIn();
    token.catch(() => {
      token = undefined;
    });
    return { authorization: `Bearer ${await token}` };
  };
  const base = options.base.replace(/\/+$/, '');
  return {
    async put(uri, body) {
      const { bucket, name } = parseGsUri(uri);
      const url = new URL(`${base}/upload/storage/v1/b/${encodeURIComponent(bucket)}/o`);
      url.searchParams.set('uploadType', 'media');
      url.searchParams.set('name', name);
      await call(url.toString(), {
        method: 'POST',
        headers: { ...(await authorization()), 'content-type': 'application/json' },
        body,
      });
    },
    async remove(uris) {
      for (const uri of uris) {
        try {
          const { bucket, name } = parseGsUri(uri);
          await call(`${base}/storage/v1/b/${encodeURIComponent(bucket)}/o/${encodeURIComponent(name)}`, {
            method: 'DELETE',
            headers: await authorization(),
          });
        } catch {
          // As CatalogUtil.dropTableData: a file that cannot be deleted is logged, the drop goes on.
        }
      }
    },
    close() {
      closing.abort();
    },
  };
}

/** Objects kept in memory, by URI. */
export function memoryObjectStore(): ObjectStore & { objects: Map<string, string> } {
  const objects = new Map<string, string>();
  return {
    objects,
    async put(uri, body) {
      objects.set(uri, body);
    },
    async remove(uris) {
      for (const uri of uris) objects.delete(uri);
    },
  };
}

export interface NamespaceEntry {
  levels: string[];
  properties: Record<string, string>;
  /** Lakekeeper's namespace id (its default table layout). */
  uuid: string;
}

export interface TableEntry {
  namespace: string[];
  name: string;
  metadata: TableMetadata;
  metadataLocation: string;
  /** The metadata version of metadataLocation (its file name's 5 digits). */
  version: number;
  /** Every metadata file written for the table (what a purge removes). */
  written: string[];
}

export const NAMESPACE_SEPARATOR = '\x1f';
export const nsKey = (levels: string[]) => levels.join(NAMESPACE_SEPARATOR);
export const tableKey = (levels: string[], name: string) =>
  `${nsKey(levels)}${NAMESPACE_SEPARATOR}\x00${name}`;
