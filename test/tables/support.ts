// The world of `floe tables`' tests: the sandbox (Polaris-flavoured catalog, s3rver) with OLake-shaped
// tables written by floe's write path, and independent reads of what was written: Apache Avro for
// Python over the manifest list and manifests, icebird over a whole table.

import { spawn, spawnSync } from 'node:child_process';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { CatalogSession } from '../../src/catalog/session.js';
import type { Values } from '../../src/destination/fields.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { demoTables, type SeededTable, seedTables } from '../../src/sandbox/seed-tables.js';
import { openSession } from '../../src/tables/session.js';

/** The demo tables' names (seed-tables.ts demoTables), in the order floe lists them. */
export const DEMO_TABLE_NAMES = ['customers', 'events', 'invoices', 'orders', 'payments', 'sessions'];

export interface World {
  sandbox: Sandbox;
  values: Values;
  session: CatalogSession;
  seeded: SeededTable[];
  nowMs: number;
  s3: S3Client;
}

export async function startWorld(): Promise<World> {
  const sandbox = await startSandbox({ catalog: 'polaris', jobs: 0, ports: { catalog: 0, olake: 0, s3: 0 } });
  const { catalog, s3 } = sandbox;
  const values = sandboxProfile({
    flavour: 'polaris',
    facts: catalog.facts,
    catalogUrl: catalog.url,
    tokenUrl: catalog.tokenUrl,
    s3,
  });
  const opened = await openSession(values, { signal: new AbortController().signal, timeoutMs: 10_000 });
  if (!('session' in opened)) throw new Error(`no session: ${JSON.stringify(opened.diagnoses)}`);
  const nowMs = Date.now();
  const seeded = await seedTables(demoTables(nowMs), {
    values,
    session: opened.session,
    signal: new AbortController().signal,
  });
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: s3.url,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKey, secretAccessKey: s3.secretKey },
  });
  return { sandbox, values, session: opened.session, seeded, nowMs, s3: client };
}

export async function getObject(world: World, url: string): Promise<Uint8Array> {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
  if (!match) throw new Error(`not s3: ${url}`);
  const out = await world.s3.send(new GetObjectCommand({ Bucket: match[1], Key: match[2] }));
  return out.Body!.transformToByteArray();
}

export async function putObject(world: World, url: string, body: Uint8Array): Promise<void> {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
  if (!match) throw new Error(`not s3: ${url}`);
  await world.s3.send(new PutObjectCommand({ Bucket: match[1], Key: match[2], Body: body }));
}

export async function deleteObject(world: World, url: string): Promise<void> {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
  if (!match) throw new Error(`not s3: ${url}`);
  await world.s3.send(new DeleteObjectCommand({ Bucket: match[1], Key: match[2] }));
}

export interface IndependentFacts {
  records: number;
  dataFiles: number;
  dataBytes: number;
  deleteFiles: { position: number; equality: number };
  deleteRows: { position: number; equality: number };
  manifests: number;
}

/**
 * Apache Avro for Python (Debian python3-avro) over a manifest list and its manifests, in one process:
 * the facts of the live entries, counted as the spec says (status 2 is history; content 0 data, 1
 * position deletes, 2 equality deletes).
 */
const PYTHON_FACTS = `
import base64, io, json, sys
from avro.datafile import DataFileReader
from avro.io import DatumReader

def records(blob):
    reader = DataFileReader(io.BytesIO(base64.b64decode(blob)), DatumReader())
    out = list(reader)
    reader.close()
    return out

request = json.load(sys.stdin)
facts = {"records": 0, "dataFiles": 0, "dataBytes": 0, "deleteFiles": {"position": 0, "equality": 0},
         "deleteRows": {"position": 0, "equality": 0}, "manifests": 0}
for manifest in records(request["list"]):
    facts["manifests"] += 1
    for entry in records(request["manifests"][manifest["manifest_path"]]):
        if entry["status"] == 2:
            continue
        f = entry["data_file"]
        if f["content"] == 0:
            facts["dataFiles"] += 1
            facts["records"] += f["record_count"]
            facts["dataBytes"] += f["file_size_in_bytes"]
        elif f["content"] == 1:
            facts["deleteFiles"]["position"] += 1
            facts["deleteRows"]["position"] += f["record_count"]
        else:
            facts["deleteFiles"]["equality"] += 1
            facts["deleteRows"]["equality"] += f["record_count"]
json.dump(facts, sys.stdout)
`;

/** The manifest paths of a manifest list, read with Python too (a first pass). */
const PYTHON_PATHS = `
import base64, io, json, sys
from avro.datafile import DataFileReader
from avro.io import DatumReader
reader = DataFileReader(io.BytesIO(base64.b64decode(sys.stdin.read())), DatumReader())
json.dump([m["manifest_path"] for m in reader], sys.stdout)
`;

/** The interpreter with Debian's avro module: python3 first, then /usr/bin/python3 (a venv may come first on PATH). */
const PYTHON = ['python3', '/usr/bin/python3'].find(
  (p) => spawnSync(p, ['-c', 'import avro.datafile'], { stdio: 'ignore' }).status === 0,
);

async function python(script: string, input: string): Promise<unknown> {
  if (!PYTHON) throw new Error('python3 cannot import avro: apt-get install python3-avro');
  const child = spawn(PYTHON, ['-c', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(input);
  });
  if (code !== 0) throw new Error(`python3 failed (${code}): ${Buffer.concat(err).toString()}`);
  return JSON.parse(Buffer.concat(out).toString('utf8'));
}

/** The size facts a row and an independent read share, to compare one with the other. */
type Maybe<T> = { [K in keyof T]: T[K] extends number ? number | null : Maybe<T[K]> };
export function sizeFacts(x: Maybe<Omit<IndependentFacts, 'manifests'>>) {
  const { records, dataFiles, dataBytes, deleteFiles, deleteRows } = x;
  return { records, dataFiles, dataBytes, deleteFiles, deleteRows };
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** The facts of a manifest list and its manifests, read with Apache Avro for Python; `get` fetches a file. */
export async function readManifestsWithPython(
  get: (url: string) => Promise<Uint8Array>,
  manifestList: string,
): Promise<IndependentFacts> {
  const list = await get(manifestList);
  const paths = (await python(PYTHON_PATHS, b64(list))) as string[];
  const manifests: Record<string, string> = {};
  for (const path of paths) manifests[path] = b64(await get(path));
  return (await python(PYTHON_FACTS, JSON.stringify({ list: b64(list), manifests }))) as IndependentFacts;
}

/** The current snapshot's facts, read with Apache Avro for Python from the files themselves. */
export async function readWithPython(world: World, metadataLocation: string): Promise<IndependentFacts> {
  const metadata = JSON.parse(Buffer.from(await getObject(world, metadataLocation)).toString('utf8'));
  const current = metadata.snapshots.find(
    (s: { 'snapshot-id': number }) => s['snapshot-id'] === metadata['current-snapshot-id'],
  );
  return readManifestsWithPython((url) => getObject(world, url), current['manifest-list']);
}
