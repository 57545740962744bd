// Independent readers for what floe writes, used only by tests: Apache Avro's Python library
// (Debian python3-avro) for manifests and manifest lists, and icebird (its own Avro reader and its
// bundled hyparquet) for a whole table on S3. Neither is what floe writes with.
import { spawn, spawnSync } from 'node:child_process';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';

/** Reads an Avro container from stdin; prints the header schema, the other metadata and the records. */
const PYTHON_READER = `
import base64, io, json, sys
from avro.datafile import DataFileReader
from avro.io import DatumReader

def plain(value):
    if isinstance(value, bytes):
        return {"$hex": value.hex()}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value

reader = DataFileReader(io.BytesIO(sys.stdin.buffer.read()), DatumReader())
meta = {k: v.decode("utf-8") for k, v in reader.meta.items()}
schema = json.loads(meta.pop("avro.schema"))
records = [plain(r) for r in reader]
reader.close()
json.dump({"schema": schema, "metadata": meta, "records": records}, sys.stdout)
`;

/**
 * The interpreter that has Debian's `avro` module: `python3` first, then /usr/bin/python3 (the one
 * Debian packages install for, when a pyenv or venv `python3` comes first on PATH).
 */
function pythonWithAvro(): string | undefined {
  for (const python of ['python3', '/usr/bin/python3']) {
    if (spawnSync(python, ['-c', 'import avro.datafile'], { stdio: 'ignore' }).status === 0) return python;
  }
  return undefined;
}

/** 'ready', or why the Python Avro reader cannot run (for itWithService). */
export function pythonAvroStatus(): string {
  return pythonWithAvro() ? 'ready' : 'python3 cannot import avro (apt-get install python3-avro)';
}

/** A `bytes` value as the Python reader returns it. */
export interface HexBytes {
  $hex: string;
}

export function hexBytes(value: unknown): Uint8Array {
  const hex = (value as HexBytes | null)?.$hex;
  if (typeof hex !== 'string') throw new Error(`not a bytes value: ${JSON.stringify(value)}`);
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

/**
 * Reads an Avro object container file with Apache Avro's Python library: the header's parsed
 * `avro.schema`, the other metadata (avro.codec included) and the records as JSON, bytes values as
 * `{ $hex }`.
 */
export async function readAvroWithPython(
  bytes: Uint8Array,
): Promise<{ schema: unknown; metadata: Record<string, string>; records: unknown[] }> {
  const python = pythonWithAvro();
  if (!python) throw new Error('python3 cannot import avro: apt-get install python3-avro');
  const child = spawn(python, ['-c', PYTHON_READER], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(Buffer.from(bytes));
  });
  if (code !== 0) throw new Error(`python avro reader failed (${code}): ${Buffer.concat(err).toString()}`);
  return JSON.parse(Buffer.concat(out).toString('utf8'));
}

export interface IcebergReadOptions {
  /** s3://bucket/<table>/metadata/<file>.metadata.json */
  metadataLocation: string;
  s3: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
}

/** S3's URI encoding of a key: every byte but unreserved ones, `/` kept between segments. */
function encodeKey(key: string): string {
  return key
    .split('/')
    .map((s) =>
      encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join('/');
}

/**
 * Reads the table at `metadataLocation` with icebird. icebird turns `s3://bucket/key` into
 * `https://bucket.s3.amazonaws.com/key` and calls the global fetch (HEAD and ranged GETs); for the
 * duration of the call a shim sends those to the path-style endpoint (`${endpoint}/${bucket}/${key}`),
 * SigV4-signed (UNSIGNED-PAYLOAD), Range kept, and the real fetch is restored after. Calls must not
 * overlap (the shim is global).
 */
export async function readIcebergTable(opts: IcebergReadOptions): Promise<Record<string, unknown>[]> {
  const { icebergRead } = await import('icebird');
  const marker = opts.metadataLocation.lastIndexOf('/metadata/');
  if (!opts.metadataLocation.startsWith('s3://') || marker < 0) {
    throw new Error(`not an s3://…/metadata/<file> location: ${opts.metadataLocation}`);
  }
  const tableUrl = opts.metadataLocation.slice(0, marker);
  const metadataFileName = opts.metadataLocation.slice(marker + '/metadata/'.length);

  const endpoint = new URL(opts.s3.endpoint);
  const basePath = endpoint.pathname.replace(/\/+$/, '');
  const signer = new SignatureV4({
    service: 's3',
    region: opts.s3.region,
    credentials: { accessKeyId: opts.s3.accessKeyId, secretAccessKey: opts.s3.secretAccessKey },
    sha256: Sha256,
    uriEscapePath: false,
  });
  const realFetch = globalThis.fetch;
  const shim: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const virtualHost = /^(.+)\.s3\.amazonaws\.com$/.exec(url.hostname);
    if (url.protocol !== 'https:' || !virtualHost?.[1])
      throw new Error(`unexpected fetch from icebird: ${url.href}`);
    const bucket = virtualHost[1];
    const key = decodeURIComponent(url.pathname.slice(1));
    const path = `${basePath}/${encodeKey(bucket)}/${encodeKey(key)}`;
    const query = Object.fromEntries(url.searchParams);
    const method = init?.method ?? 'GET';
    const headers: Record<string, string> = {
      host: endpoint.host,
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
    };
    const range = new Headers(init?.headers).get('range');
    if (range) headers.range = range;
    const signed = await signer.sign(
      new HttpRequest({
        method,
        protocol: endpoint.protocol,
        hostname: endpoint.hostname,
        port: endpoint.port ? Number(endpoint.port) : undefined,
        path,
        query,
        headers,
      }),
    );
    const target = new URL(`${endpoint.origin}${path}`);
    for (const [k, v] of Object.entries(query)) target.searchParams.set(k, v);
    // fetch sets Host itself (same value as signed).
    const { host: _host, ...sent } = signed.headers;
    return realFetch(target, { method, headers: sent });
  };
  globalThis.fetch = shim;
  try {
    return await icebergRead({ tableUrl, metadataFileName });
  } finally {
    globalThis.fetch = realFetch;
  }
}
