// Reading Avro object container files (manifest lists and manifests) that floe did not write: avsc's
// BlockDecoder with the file's own (writer) schema, imported only when a manifest is read. Longs come
// back exact: a number when it fits 2^53, else its decimal digits (snapshot ids are random 64-bit
// longs in Java's writers, which avsc's own long type refuses as "potential precision loss"). Codecs:
// null and deflate (avsc's), snappy (Avro spec: the block compressed, then its CRC-32, big-endian).
// Decoding is one pass over the bytes; a block that would inflate beyond the caller's cap fails.
import { Readable } from 'node:stream';
import { inflateRaw } from 'node:zlib';
import { lazy } from '../lazy.js';

export type AvroRecord = Record<string, unknown>;

export class AvroReadError extends Error {}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A long as a number when exact, else as its decimal digits. */
export function longValue(buffer: Buffer): number | string {
  const n = buffer.readBigInt64LE(0);
  return n >= MIN_SAFE && n <= MAX_SAFE ? Number(n) : n.toString();
}

/** The uncompressed length a snappy block announces (its varint preamble). */
function snappyLength(input: Uint8Array): number {
  let length = 0;
  let shift = 0;
  for (let i = 0; i < 5 && i < input.length; i++) {
    const byte = input[i]!;
    length += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return length;
    shift += 7;
  }
  throw new AvroReadError('a snappy block has no valid length');
}

type Codec = (block: Buffer, callback: (error: Error | null, out?: Buffer) => void) => void;

async function codecs(maxBlockBytes: number): Promise<Record<string, Codec>> {
  const avsc = await lazy.avsc();
  const defaults = avsc.streams.BlockDecoder.defaultCodecs() as Record<string, Codec>;
  return {
    null: defaults.null!,
    deflate: (block, callback) => inflateRaw(block, { maxOutputLength: maxBlockBytes }, callback),
    snappy: (block, callback) => {
      void (async () => {
        const { snappyUncompress } = await lazy.hyparquet();
        const data = block.subarray(0, block.length - 4);
        const length = snappyLength(data);
        if (length > maxBlockBytes) throw new AvroReadError(`a snappy block inflates to ${length} bytes`);
        const out = new Uint8Array(length);
        snappyUncompress(data, out);
        return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
      })().then(
        (out) => callback(null, out),
        (error: unknown) => callback(error instanceof Error ? error : new AvroReadError(String(error))),
      );
    },
  };
}

export interface AvroReadOptions {
  signal?: AbortSignal;
  /** Largest uncompressed block accepted. */
  maxBlockBytes: number;
}

/**
 * Every record of the container in `bytes`, handed to `onRecord` as it is decoded, and the file's
 * metadata (avro.schema and avro.codec aside). Throws AvroReadError for anything that is not a
 * readable container.
 */
export async function readAvro(
  bytes: Uint8Array,
  onRecord: (record: AvroRecord) => void,
  options: AvroReadOptions,
): Promise<Record<string, string>> {
  const avsc = await lazy.avsc();
  const long = avsc.types.LongType.__with({
    fromBuffer: longValue,
    toBuffer: (value: number | string) => {
      const out = Buffer.alloc(8);
      out.writeBigInt64LE(BigInt(value));
      return out;
    },
    fromJSON: (value: unknown) => value,
    toJSON: (value: unknown) => value,
    isValid: (value: unknown) => typeof value === 'number' || typeof value === 'string',
    compare: (a: number | string, b: number | string) => {
      const [x, y] = [BigInt(a), BigInt(b)];
      return x < y ? -1 : x > y ? 1 : 0;
    },
  });
  const typeHook = (schema: unknown) =>
    schema === 'long' ||
    (typeof schema === 'object' &&
      schema !== null &&
      (schema as { type?: unknown }).type === 'long' &&
      (schema as { logicalType?: unknown }).logicalType === undefined)
      ? long
      : undefined;
  const decoder = new avsc.streams.BlockDecoder({
    codecs: await codecs(options.maxBlockBytes),
    parseHook: (schema: unknown) => avsc.Type.forSchema(schema as never, { typeHook } as never),
  } as never);
  let metadata: Record<string, string> | undefined;
  decoder.on('metadata', (_type: unknown, _codec: string, header: { meta: Record<string, Buffer> }) => {
    metadata = Object.fromEntries(
      Object.entries(header.meta)
        .filter(([key]) => key !== 'avro.schema' && key !== 'avro.codec')
        .map(([key, value]) => [key, value.toString('utf8')]),
    );
  });
  const source = Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
  const abort = () => source.destroy(new AvroReadError('cancelled'));
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) =>
        reject(error instanceof AvroReadError ? error : new AvroReadError((error as Error).message));
      source.on('error', fail);
      decoder.on('error', fail);
      decoder.on('data', (record: AvroRecord) => {
        try {
          onRecord(record);
        } catch (error) {
          source.destroy();
          fail(error);
        }
      });
      decoder.on('end', resolve);
      source.pipe(decoder);
    });
  } finally {
    options.signal?.removeEventListener('abort', abort);
  }
  if (!metadata) throw new AvroReadError('it is not an Avro container file (no readable header)');
  return metadata;
}
