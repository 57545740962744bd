// Where the emulator keeps what clients create: namespaces and tables in memory, and the table
// metadata files in an object store: a real S3 endpoint (path style, e.g. the sandbox's s3rver or
// a Ceph RGW) when the emulator has `objectStore`, else a map in memory (the metadata-location it
// reports then names an object nobody else can read).
import { lazy, type S3Sdk } from '../../lazy.js';
import type { StorageFailure } from './flavours/index.js';

import type { TableMetadata } from './metadata.js';

export interface ObjectStoreOptions {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

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
