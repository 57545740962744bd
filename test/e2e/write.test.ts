// floe test --write through the built CLI, against a catalog emulator that keeps its table metadata in
// a real Ceph RGW (which verifies SigV4): a kept table is then read by readers floe does not use to
// write (icebird for the table and its Parquet file, Apache Avro for Python for the manifests); the
// probe location writable but the table location not gives WRITE_LOCATION_DENIED; Ctrl-C mid-write
// still cleans up.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, describe, expect } from 'vitest';
import { type CheckReport, checkReportSchema } from '../../src/check/types.js';
import {
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  DEFAULT_WAREHOUSES,
  startCatalogEmulator,
} from '../../src/sandbox/catalog/index.js';
import { type CephInfo, type CephUser, cephFromEnv, createCephBucket } from '../support/ceph.js';
import { spawnCli, tempConfigDir } from '../support/cli.js';
import { pythonAvroStatus, readAvroWithPython, readIcebergTable } from '../support/iceberg-reader.js';
import { itWithService } from '../support/services.js';

const { status, info } = cephFromEnv();
const python = pythonAvroStatus();
const it = itWithService(
  status === 'ready' && python !== 'ready' ? python : status,
  'Ceph RGW and python3-avro',
);
const BUCKET = 'floe-write';
const CLIENT = { id: 'olake-client', secret: 'SENTINEL-write-secret-7d1e' };
const BIN = new URL('../../bin/floe.js', import.meta.url).pathname;

let emulator: CatalogEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

beforeAll(async () => {
  if (info) await createCephBucket(info, BUCKET);
});

function s3(ceph: CephInfo, user: CephUser): S3Client {
  return new S3Client({
    region: ceph.region,
    endpoint: ceph.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: user.accessKey, secretAccessKey: user.secretKey },
  });
}

async function keys(ceph: CephInfo, bucket: string, prefix: string): Promise<string[]> {
  const client = s3(ceph, ceph.users.owner);
  try {
    const out = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    return (out.Contents ?? []).map((o) => o.Key ?? '').sort();
  } finally {
    client.destroy();
  }
}

async function read(ceph: CephInfo, url: string): Promise<Uint8Array> {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
  const client = s3(ceph, ceph.users.owner);
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: match?.[1], Key: match?.[2] }));
    return (await out.Body?.transformToByteArray()) ?? new Uint8Array();
  } finally {
    client.destroy();
  }
}

/** A Polaris catalog whose metadata files go to RGW with the owner's keys. */
function polaris(ceph: CephInfo, location: string, extra: Partial<CatalogEmulatorOptions> = {}) {
  return startCatalogEmulator({
    flavour: 'polaris',
    basePath: '/api/catalog',
    auth: 'bearer',
    clients: [CLIENT],
    dataLocation: location,
    objectStore: {
      endpoint: ceph.endpoint,
      region: ceph.region,
      accessKeyId: ceph.users.owner.accessKey,
      secretAccessKey: ceph.users.owner.secretKey,
    },
    ...extra,
  });
}

function env(configDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FLOE_')));
  return { ...base, CI: 'true', FLOE_CONFIG_DIR: configDir, ...extra };
}

/** `floe setup --yes` for the Polaris emulator and RGW with `user`'s keys; the probe writes to `dataLocation`. */
async function setUp(
  ceph: CephInfo,
  emu: CatalogEmulator,
  user: CephUser,
  dataLocation: string,
): Promise<string> {
  const configDir = tempConfigDir();
  const r = await spawnCli(
    [
      'setup',
      '--yes',
      '--profile',
      'p',
      '--preset',
      'polaris',
      '--catalog-url',
      emu.url,
      '--warehouse',
      DEFAULT_WAREHOUSES.polaris,
      '--credential-stdin',
      '--region',
      ceph.region,
      '--storage',
      's3-compatible',
      '--s3-endpoint',
      ceph.endpoint,
      '--access-key',
      user.accessKey,
      '--data-location',
      dataLocation,
      '--insecure-storage',
    ],
    env(configDir, { FLOE_SECRET_KEY: user.secretKey }),
    `${CLIENT.id}:${CLIENT.secret}`,
  );
  expect(r.code, r.stderr).toBe(0);
  return configDir;
}

async function testJson(
  configDir: string,
  args: string[],
): Promise<{ code: number | null; report: CheckReport; output: string }> {
  const r = await spawnCli(['test', '--profile', 'p', '--json', '--timeout', '10', ...args], env(configDir));
  return { code: r.code, report: checkReportSchema.parse(JSON.parse(r.stdout)), output: r.stdout + r.stderr };
}

describe('floe test --write with table metadata in Ceph RGW', () => {
  it('--keep leaves a table that icebird and Apache Avro read back; a run without it leaves nothing', async () => {
    const ceph = info!;
    emulator = await polaris(ceph, `s3://${BUCKET}/polaris`);
    const configDir = await setUp(ceph, emulator, ceph.users.owner, `s3://${BUCKET}/polaris`);
    const kept = await testJson(configDir, ['--write', '--keep']);
    expect(kept.report.diagnoses).toEqual([]);
    expect(kept.code).toBe(0);
    const w = kept.report.write!;
    expect(w).toMatchObject({ namespace: 'test_olake', kept: true, rows: 1 });
    expect(kept.report.steps.filter((s) => s.chain === 'write').map((s) => s.state)).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      'skipped',
    ]);
    expect(kept.output).not.toContain(CLIENT.secret);
    expect(kept.output).not.toContain(ceph.users.owner.secretKey);

    // icebird: metadata.json → manifest list → manifest → the Parquet file, by field id.
    const rows = await readIcebergTable({
      metadataLocation: w.metadataLocation!,
      s3: {
        endpoint: ceph.endpoint,
        region: ceph.region,
        accessKeyId: ceph.users.owner.accessKey,
        secretAccessKey: ceph.users.owner.secretKey,
      },
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ _op_type: 'r', data: '{"name":"olake"}' });
    expect(String(rows[0]?._olake_id)).toMatch(/^floe-check-/);

    // Apache Avro for Python: the manifest list and the manifest, with Iceberg's field ids in their schemas.
    const metadata = JSON.parse(Buffer.from(await read(ceph, w.metadataLocation!)).toString('utf8'));
    const snapshot = metadata.snapshots.find(
      (s: { 'snapshot-id': number }) => String(s['snapshot-id']) === w.snapshotId,
    );
    expect(snapshot.summary.operation).toBe('append');
    // OLake's table shape (IcebergUtil.createIcebergTable): sorted by the identifier field, and the
    // codec the table names is the one its data file uses.
    const olakeId = metadata.schemas[0].fields.find((f: { name: string }) => f.name === '_olake_id').id;
    const order = metadata['sort-orders'].find(
      (o: { 'order-id': number }) => o['order-id'] === metadata['default-sort-order-id'],
    );
    expect(order.fields).toEqual([
      { transform: 'identity', 'source-id': olakeId, direction: 'asc', 'null-order': 'nulls-first' },
    ]);
    expect(metadata.properties['write.parquet.compression-codec']).toBe('snappy');
    const list = await readAvroWithPython(await read(ceph, snapshot['manifest-list']));
    const listFields = (list.schema as { fields: { name: string; 'field-id': number }[] }).fields;
    expect(listFields.find((f) => f.name === 'manifest_path')?.['field-id']).toBe(500);
    expect(list.metadata['snapshot-id']).toBe(w.snapshotId);
    const entry = list.records[0] as {
      manifest_path: string;
      added_rows_count: number;
      sequence_number: number;
    };
    expect(entry).toMatchObject({ added_rows_count: 1, sequence_number: 1 });
    const manifest = await readAvroWithPython(await read(ceph, entry.manifest_path));
    expect(manifest.metadata['format-version']).toBe('2');
    expect(JSON.parse(manifest.metadata.schema!).fields.map((f: { id: number }) => f.id)).toEqual(
      metadata.schemas[0].fields.map((f: { id: number }) => f.id),
    );
    const file = (manifest.records[0] as { data_file: { file_path: string; record_count: number } })
      .data_file;
    expect(file.record_count).toBe(1);
    expect(file.file_path).toMatch(
      new RegExp(`^s3://${BUCKET}/polaris/test_olake/${w.table}/data/.*\\.parquet$`),
    );

    // Without --keep: the same checks, then nothing of the run is left in the bucket.
    const before = await keys(ceph, BUCKET, 'polaris/');
    const clean = await testJson(configDir, ['--write']);
    expect(clean.report.diagnoses).toEqual([]);
    expect(clean.report.write?.kept).toBe(false);
    expect(await keys(ceph, BUCKET, 'polaris/')).toEqual(before);
  });

  it('the probe location may be written but the table location not: WRITE_LOCATION_DENIED names both', async () => {
    const ceph = info!;
    const reader = ceph.users.reader;
    const own = s3(ceph, reader);
    await own
      .send(new CreateBucketCommand({ Bucket: 'floe-reader-probe' }))
      .catch((error: { name?: string }) => {
        if (error.name !== 'BucketAlreadyOwnedByYou') throw error;
      });
    own.destroy();
    // Purge on, as the sandbox's Polaris: its metadata file is the catalog's to remove, not the reader's.
    emulator = await polaris(ceph, `s3://${BUCKET}/denied`, {
      catalogProperties: { 'polaris.config.drop-with-purge.enabled': 'true' },
    });
    const configDir = await setUp(ceph, emulator, reader, 's3://floe-reader-probe');
    const before = await keys(ceph, BUCKET, 'denied/');
    const { code, report, output } = await testJson(configDir, ['--write']);
    expect(code).toBe(1);
    expect(report.steps.filter((s) => s.chain === 'storage').every((s) => s.state === 'ok')).toBe(true);
    expect(report.diagnoses.map((d) => [d.code, d.step])).toEqual([['WRITE_LOCATION_DENIED', 'write.data']]);
    const d = report.diagnoses[0]!;
    expect(d.what).toContain(`s3://${BUCKET}/denied/test_olake/`);
    expect(d.what).toContain('while the storage check wrote under s3://floe-reader-probe');
    expect(d.evidence).toMatchObject({ status: 403, errorCode: 'AccessDenied' });
    expect(report.steps.find((s) => s.id === 'write.cleanup')?.state).toBe('ok');
    expect(await keys(ceph, BUCKET, 'denied/')).toEqual(before);
    expect(output).not.toContain(reader.secretKey);
  });

  it('Ctrl-C during the commit: exit 130 after the cleanup removed the table and every file', async () => {
    const ceph = info!;
    emulator = await polaris(ceph, `s3://${BUCKET}/interrupted`);
    emulator.setFault({ kind: 'slow', delayMs: 20_000 }, 'commit');
    const configDir = await setUp(ceph, emulator, ceph.users.owner, `s3://${BUCKET}/interrupted`);
    const before = await keys(ceph, BUCKET, 'interrupted/');
    const child = spawn(process.execPath, [BIN, 'test', '--profile', 'p', '--write', '--timeout', '30'], {
      env: env(configDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    // One Ctrl-C: the storage chain's lines may follow the data file's before it is sent.
    let interrupting = false;
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        if (/Write a Parquet data file/.test(stdout) && !interrupting) {
          interrupting = true;
          setTimeout(() => child.kill('SIGINT'), 300);
        }
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code, stdout + stderr).toBe(130);
    expect(stderr).toContain('floe: interrupted; cleaning up what the test made…');
    expect(stdout).toMatch(/⊘ Write \(as OLake\): Commit an append/);
    expect(stdout).toMatch(
      /✓ Write \(as OLake\): Drop the table and its files .*dropped namespace test_olake/,
    );
    expect(await keys(ceph, BUCKET, 'interrupted/')).toEqual(before);
  });
});

/**
 * Starts `floe test --write` and, once the commit (held by the emulator) is under way, sends the first
 * signal; each further signal follows half a second after floe says it is cleaning up.
 */
async function killDuringCommit(
  configDir: string,
  signals: NodeJS.Signals[],
  beforeFirst: () => void = () => {},
): Promise<number | null> {
  const child = spawn(process.execPath, [BIN, 'test', '--profile', 'p', '--write', '--timeout', '30'], {
    env: env(configDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let started = false;
  const rest = signals.slice(1);
  child.stderr.on('data', (c: Buffer) => {
    if (/cleaning up what the test made/.test(c.toString()))
      for (const [i, signal] of rest.entries()) setTimeout(() => child.kill(signal), 500 * (i + 1));
  });
  return new Promise<number | null>((resolve) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (/Write a Parquet data file/.test(stdout) && !started) {
        started = true;
        setTimeout(() => {
          beforeFirst();
          child.kill(signals[0]!);
        }, 300);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe('what a killed write check leaves is found and removed by the next run', () => {
  const kills: [string, NodeJS.Signals[]][] = [
    ['SIGKILL during the commit', ['SIGKILL']],
    ['a second Ctrl-C during the cleanup', ['SIGINT', 'SIGINT']],
  ];
  for (const [name, signals] of kills)
    it(`${name}: floe test --cleanup reports and removes every leftover`, async () => {
      const ceph = info!;
      emulator = await polaris(ceph, `s3://${BUCKET}/killed`);
      const configDir = await setUp(ceph, emulator, ceph.users.owner, `s3://${BUCKET}/killed`);
      const before = await keys(ceph, BUCKET, 'killed/');
      const emu = emulator;
      emu.setFault({ kind: 'slow', delayMs: 20_000 }, 'commit');
      // The cleanup's drop is held too, so that a second signal comes while it runs.
      await killDuringCommit(configDir, signals, () =>
        emu.setFault({ kind: 'slow', delayMs: 20_000 }, 'tables'),
      );
      emu.setFault(null, 'commit');
      emu.setFault(null, 'tables');
      // The journal in the config folder names what the killed run made.
      expect(readFileSync(join(configDir, 'write-journal.json'), 'utf8')).toMatch(/floe_check_/);
      expect(statSync(join(configDir, 'write-journal.json')).mode & 0o777).toBe(0o600);
      expect((await keys(ceph, BUCKET, 'killed/')).length).toBeGreaterThan(before.length);
      const { code, report } = await testJson(configDir, ['--cleanup']);
      expect(report.diagnoses).toEqual([]);
      expect(code).toBe(0);
      expect(report.steps.filter((s) => s.chain === 'write').map((s) => [s.id, s.state])).toEqual([
        ['write.cleanup', 'ok'],
      ]);
      expect(report.steps.find((s) => s.id === 'write.cleanup')?.detail).toMatch(
        /earlier check test_olake\.floe_check_.*dropped the table/,
      );
      expect(await keys(ceph, BUCKET, 'killed/')).toEqual(before);
      expect(JSON.parse(readFileSync(join(configDir, 'write-journal.json'), 'utf8')).records).toEqual([]);
    });

  it('a principal that may not drop tables: exit 0, a warning, and write.leftovers naming the grant', async () => {
    const ceph = info!;
    emulator = await polaris(ceph, `s3://${BUCKET}/nodrop`, { deny: ['drop-table'] });
    const configDir = await setUp(ceph, emulator, ceph.users.owner, `s3://${BUCKET}/nodrop`);
    const { code, report } = await testJson(configDir, ['--write']);
    expect(report.diagnoses).toEqual([]);
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.steps.find((s) => s.id === 'write.cleanup')?.state).toBe('warning');
    const table = report.write?.leftovers.find((l) => l.kind === 'table');
    expect(table?.name).toBe(`test_olake.${report.write?.table}`);
    expect(table?.remove).toContain('floe test --cleanup --profile p');
    // The plain output says the same, and still exits 0.
    emulator.setDeny([]);
    const plain = await spawnCli(['test', '--profile', 'p', '--cleanup'], env(configDir));
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/earlier check test_olake\.floe_check_/);
  });
});
