// The write check's files (src/write): the Parquet data file read back by icebird's own bundled
// hyparquet and by readDataFile, the manifest and manifest list read by Apache Avro's Python library,
// and a hand-assembled table read end to end by icebird through s3rver (and Ceph RGW when it runs).
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startS3Server } from '../../src/sandbox/s3.js';
import {
  type DataFileFacts,
  type IcebergSchema,
  olakeRawSchema,
  type RawRow,
  readDataFile,
  truncateStringMax,
  truncateStringMin,
  writeDataFile,
  writeManifest,
  writeManifestList,
} from '../../src/write/files.js';
import { cephFromEnv } from '../support/ceph.js';
import {
  hexBytes,
  pythonAvroStatus,
  readAvroWithPython,
  readIcebergTable,
} from '../support/iceberg-reader.js';
import { itWithService } from '../support/services.js';

type Hyparquet = typeof import('hyparquet');

/** icebird's own hyparquet (an older copy than floe's), or floe's when npm hoisted a single one. */
async function icebirdHyparquet(): Promise<Hyparquet> {
  const bundled = fileURLToPath(
    new URL('../../node_modules/icebird/node_modules/hyparquet/src/index.js', import.meta.url),
  );
  return existsSync(bundled)
    ? ((await import(pathToFileURL(bundled).href)) as Hyparquet)
    : import('hyparquet');
}

const ROW: RawRow = {
  _olake_id: 'floe-write-check',
  _olake_timestamp: new Date('2026-03-01T12:34:56.789Z'),
  _op_type: 'r',
  _cdc_timestamp: new Date('2026-03-01T12:00:00.001Z'),
  data: '{"check":"floe test --write","ok":true}',
};

/** As a REST catalog may answer: the same columns under other ids. */
function reassigned(schema: IcebergSchema, offset: number): IcebergSchema {
  return {
    ...schema,
    fields: schema.fields.map((f) => ({ ...f, id: f.id + offset })),
    'identifier-field-ids': (schema['identifier-field-ids'] ?? []).map((id) => id + offset),
  };
}

function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function micros(bytes: Uint8Array): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigInt64(0, true);
}

it('imports avsc, hyparquet and hyparquet-writer only inside the functions', () => {
  for (const file of ['files.ts', 'avro.ts']) {
    const source = readFileSync(fileURLToPath(new URL(`../../src/write/${file}`, import.meta.url)), 'utf8');
    expect(source).not.toMatch(/^import (?!type )[^;]*from '(avsc|hyparquet|hyparquet-writer)'/m);
    expect(source).not.toMatch(/^export (?!type )[^;]*from '(avsc|hyparquet|hyparquet-writer)'/m);
  }
});

describe('olakeRawSchema', () => {
  it('has OLake raw columns in order, _olake_id required and the identifier only when asked', () => {
    const withId = olakeRawSchema(true);
    expect(withId.fields.map((f) => [f.id, f.name, f.type, f.required])).toEqual([
      [1, '_olake_id', 'string', true],
      [2, '_olake_timestamp', 'timestamptz', false],
      [3, '_op_type', 'string', false],
      [4, '_cdc_timestamp', 'timestamptz', false],
      [5, 'data', 'string', false],
    ]);
    expect(withId['identifier-field-ids']).toEqual([1]);
    const without = olakeRawSchema(false);
    expect(without['identifier-field-ids']).toEqual([]);
    // SchemaConvertor: only the identifier field is required.
    expect(without.fields.every((f) => !f.required)).toBe(true);
  });
});

describe('writeDataFile', () => {
  it('writes field ids, Iceberg types, repetition and iceberg.schema that icebird’s hyparquet reads', async () => {
    const schema = reassigned(olakeRawSchema(true), 10);
    const facts = await writeDataFile(schema, [ROW]);
    const hp = await icebirdHyparquet();
    const file = arrayBuffer(facts.bytes);
    const meta = hp.parquetMetadata(file);
    expect(meta.schema[0]).toMatchObject({ name: 'table', num_children: 5 });
    const leaves = meta.schema.slice(1).map((e) => ({
      name: e.name,
      field_id: e.field_id,
      type: e.type,
      repetition_type: e.repetition_type,
      converted_type: e.converted_type,
      logical_type: e.logical_type,
    }));
    const string = { type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    const timestamptz = {
      type: 'INT64',
      converted_type: 'TIMESTAMP_MICROS',
      logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
    };
    expect(leaves).toEqual([
      { name: '_olake_id', field_id: 11, repetition_type: 'REQUIRED', ...string },
      { name: '_olake_timestamp', field_id: 12, repetition_type: 'OPTIONAL', ...timestamptz },
      { name: '_op_type', field_id: 13, repetition_type: 'OPTIONAL', ...string },
      { name: '_cdc_timestamp', field_id: 14, repetition_type: 'OPTIONAL', ...timestamptz },
      { name: 'data', field_id: 15, repetition_type: 'OPTIONAL', ...string },
    ]);
    const kv = meta.key_value_metadata?.find((k) => k.key === 'iceberg.schema');
    expect(JSON.parse(kv?.value ?? 'null')).toEqual(schema);
    expect(await hp.parquetReadObjects({ file })).toEqual([ROW]);

    const back = await readDataFile(facts.bytes);
    expect(back.rows).toEqual([ROW]);
    expect(back.fieldIds).toEqual({
      _olake_id: 11,
      _olake_timestamp: 12,
      _op_type: 13,
      _cdc_timestamp: 14,
      data: 15,
    });
  });

  it('reports Iceberg stats keyed by field id, bounds in single-value serialization', async () => {
    const facts = await writeDataFile(olakeRawSchema(true), [ROW]);
    expect(facts.recordCount).toBe(1);
    const ids = [1, 2, 3, 4, 5];
    expect([...facts.valueCounts]).toEqual(ids.map((id) => [id, 1]));
    expect([...facts.nullValueCounts]).toEqual(ids.map((id) => [id, 0]));
    expect([...facts.columnSizes.keys()]).toEqual(ids);
    for (const size of facts.columnSizes.values()) expect(size).toBeGreaterThan(0);
    const sum = [...facts.columnSizes.values()].reduce((a, b) => a + b, 0);
    expect(sum).toBeLessThan(facts.bytes.length);

    const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);
    expect(text(facts.lowerBounds.get(1))).toBe(ROW._olake_id);
    expect(text(facts.upperBounds.get(1))).toBe(truncateStringMax(ROW._olake_id, 16));
    expect(text(facts.lowerBounds.get(3))).toBe('r');
    expect(text(facts.upperBounds.get(3))).toBe('r');
    // data is longer than 16 code points: Java's truncate(16) metrics mode.
    expect(text(facts.lowerBounds.get(5))).toBe('{"check":"floe t');
    expect(text(facts.upperBounds.get(5))).toBe('{"check":"floe u');
    for (const [id, date] of [
      [2, ROW._olake_timestamp],
      [4, ROW._cdc_timestamp],
    ] as const) {
      expect(facts.lowerBounds.get(id)).toHaveLength(8);
      expect(micros(facts.lowerBounds.get(id) as Uint8Array)).toBe(BigInt(date.getTime()) * 1000n);
      expect(micros(facts.upperBounds.get(id) as Uint8Array)).toBe(BigInt(date.getTime()) * 1000n);
    }
  });

  it('keeps min and max over several rows', async () => {
    const early = { ...ROW, _olake_id: 'b', _olake_timestamp: new Date('1969-12-31T23:59:59.999Z') };
    const late = { ...ROW, _olake_id: 'é', _olake_timestamp: new Date('2100-01-01T00:00:00Z') };
    const facts = await writeDataFile(olakeRawSchema(true), [late, ROW, early]);
    expect(facts.recordCount).toBe(3);
    expect(facts.valueCounts.get(1)).toBe(3);
    expect(new TextDecoder().decode(facts.lowerBounds.get(1))).toBe('b');
    expect(new TextDecoder().decode(facts.upperBounds.get(1))).toBe('é');
    expect(micros(facts.lowerBounds.get(2) as Uint8Array)).toBe(-1000n);
    expect(micros(facts.upperBounds.get(2) as Uint8Array)).toBe(BigInt(Date.UTC(2100, 0, 1)) * 1000n);
    expect((await readDataFile(facts.bytes)).rows).toEqual([late, ROW, early]);
  });

  it('stores far dates exactly (microseconds beyond 2^53)', async () => {
    const far = {
      ...ROW,
      _olake_timestamp: new Date('9999-12-31T23:59:59.999Z'),
      _cdc_timestamp: new Date('0001-01-01T00:00:00.001Z'),
    };
    const facts = await writeDataFile(olakeRawSchema(true), [far]);
    expect((await readDataFile(facts.bytes)).rows).toEqual([far]);
    expect(micros(facts.lowerBounds.get(2) as Uint8Array)).toBe(253402300799999000n);
    expect(micros(facts.lowerBounds.get(4) as Uint8Array)).toBe(-62135596799999000n);
  });

  it('truncates string bounds as Java UnicodeUtil does', () => {
    expect(truncateStringMin('abc', 16)).toBe('abc');
    expect(truncateStringMax('abc', 16)).toBe('abc');
    expect(truncateStringMin('😀😀😀', 2)).toBe('😀😀');
    expect(truncateStringMax('ab😀c', 3)).toBe('ab😁');
    expect(truncateStringMax('a\u{10FFFF}\u{10FFFF}', 2)).toBe('b');
    expect(truncateStringMax('\u{10FFFF}\u{10FFFF}x', 2)).toBeNull();
    expect(truncateStringMax('a\uD7FFz', 2)).toBe('a\uE000');
  });

  it('rejects a type it does not write and a missing required value', async () => {
    const schema = olakeRawSchema(true);
    const withLong: IcebergSchema = {
      ...schema,
      fields: [...schema.fields, { id: 6, name: 'n', required: false, type: 'long' }],
    };
    await expect(writeDataFile(withLong, [ROW])).rejects.toThrow(/long/);
    await expect(
      writeDataFile(schema, [{ ...ROW, _olake_id: undefined as unknown as string }]),
    ).rejects.toThrow(/_olake_id/);
  });

  it('round-trips any string and date through readDataFile and icebird’s hyparquet (property)', async () => {
    const hp = await icebirdHyparquet();
    const date = fc.date({
      min: new Date('0001-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59.999Z'),
      noInvalidDate: true,
    });
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          _olake_id: text,
          _olake_timestamp: date,
          _op_type: text,
          _cdc_timestamp: date,
          data: text,
        }),
        async (row) => {
          const facts = await writeDataFile(olakeRawSchema(true), [row]);
          expect((await readDataFile(facts.bytes)).rows).toEqual([row]);
          expect(await hp.parquetReadObjects({ file: arrayBuffer(facts.bytes) })).toEqual([row]);
        },
      ),
      { numRuns: 60 },
    );
  });
});

// --- Avro: field ids from format/spec.md ---

/** format/spec.md "Manifests" → "Manifest Entry Fields" and "Data File Fields" (v2 column): path, field id, required in v2. */
const MANIFEST_ENTRY_IDS: [string, number, boolean][] = [
  ['status', 0, true],
  ['snapshot_id', 1, false],
  ['sequence_number', 3, false],
  ['file_sequence_number', 4, false],
  ['data_file', 2, true],
  ['data_file.content', 134, true],
  ['data_file.file_path', 100, true],
  ['data_file.file_format', 101, true],
  ['data_file.partition', 102, true],
  ['data_file.record_count', 103, true],
  ['data_file.file_size_in_bytes', 104, true],
  ['data_file.column_sizes', 108, false],
  ['data_file.column_sizes.key', 117, true],
  ['data_file.column_sizes.value', 118, true],
  ['data_file.value_counts', 109, false],
  ['data_file.value_counts.key', 119, true],
  ['data_file.value_counts.value', 120, true],
  ['data_file.null_value_counts', 110, false],
  ['data_file.null_value_counts.key', 121, true],
  ['data_file.null_value_counts.value', 122, true],
  ['data_file.nan_value_counts', 137, false],
  ['data_file.nan_value_counts.key', 138, true],
  ['data_file.nan_value_counts.value', 139, true],
  ['data_file.lower_bounds', 125, false],
  ['data_file.lower_bounds.key', 126, true],
  ['data_file.lower_bounds.value', 127, true],
  ['data_file.upper_bounds', 128, false],
  ['data_file.upper_bounds.key', 129, true],
  ['data_file.upper_bounds.value', 130, true],
  ['data_file.key_metadata', 131, false],
  ['data_file.split_offsets', 132, false],
  ['data_file.split_offsets.element', 133, true],
  ['data_file.equality_ids', 135, false],
  ['data_file.equality_ids.element', 136, true],
  ['data_file.sort_order_id', 140, false],
  ['data_file.referenced_data_file', 143, false],
];

/** format/spec.md "Manifest Lists" (manifest_file and field_summary, v2 column). */
const MANIFEST_FILE_IDS: [string, number, boolean][] = [
  ['manifest_path', 500, true],
  ['manifest_length', 501, true],
  ['partition_spec_id', 502, true],
  ['content', 517, true],
  ['sequence_number', 515, true],
  ['min_sequence_number', 516, true],
  ['added_snapshot_id', 503, true],
  ['added_files_count', 504, true],
  ['existing_files_count', 505, true],
  ['deleted_files_count', 506, true],
  ['added_rows_count', 512, true],
  ['existing_rows_count', 513, true],
  ['deleted_rows_count', 514, true],
  ['partitions', 507, false],
  ['partitions.element', 508, true],
  ['partitions.element.contains_null', 509, true],
  ['partitions.element.contains_nan', 518, false],
  ['partitions.element.lower_bound', 510, false],
  ['partitions.element.upper_bound', 511, false],
  ['key_metadata', 519, false],
];

type Json = Record<string, unknown>;

/**
 * Every id in an Avro schema as written by Iceberg (spec Appendix A "Avro", Field IDs): record
 * fields' field-id, arrays' element-id, int-keyed maps' key/value field-ids. Optional = a union with
 * null first and default null.
 */
function avroIds(record: Json, prefix = ''): [string, number, boolean][] {
  const out: [string, number, boolean][] = [];
  for (const field of record.fields as Json[]) {
    const path = `${prefix}${field.name as string}`;
    let type = field.type as unknown;
    const optional = Array.isArray(type);
    if (optional) {
      expect(type).toHaveLength(2);
      expect((type as unknown[])[0]).toBe('null');
      expect(field).toHaveProperty('default', null);
      type = (type as unknown[])[1];
    }
    out.push([path, field['field-id'] as number, !optional]);
    out.push(...avroTypeIds(type, path));
  }
  return out;
}

function avroTypeIds(type: unknown, path: string): [string, number, boolean][] {
  if (typeof type !== 'object' || type === null) return [];
  const t = type as Json;
  if (t.type === 'record') return avroIds(t, `${path}.`);
  if (t.type === 'array' && t.logicalType === 'map') return avroIds(t.items as Json, `${path}.`);
  if (t.type === 'array') {
    const element = `${path}.element`;
    return [[element, t['element-id'] as number, !Array.isArray(t.items)], ...avroTypeIds(t.items, element)];
  }
  return [];
}

const python = itWithService(pythonAvroStatus(), 'python3-avro');

function statsPairs(value: unknown): [number, unknown][] {
  return (value as { key: number; value: unknown }[]).map((p) => [p.key, p.value]);
}

describe('writeManifest and writeManifestList (read by Apache Avro for Python)', () => {
  const SNAPSHOT = 2 ** 53 - 7;
  const schema = reassigned(olakeRawSchema(true), 100);

  python('writes a v2 manifest: every field id, the required metadata and the entry', async () => {
    const facts: DataFileFacts = await writeDataFile(schema, [ROW]);
    const path = 's3://warehouse/db/t/data/00000-0-floe.parquet';
    const bytes = await writeManifest({
      schema,
      formatVersion: 2,
      specId: 0,
      snapshotId: SNAPSHOT,
      dataFile: { path, sizeInBytes: facts.bytes.length, facts },
    });
    const avro = await readAvroWithPython(bytes);
    const header = avro.schema as Json;
    expect(header.name).toBe('manifest_entry');
    expect(avroIds(header)).toEqual(MANIFEST_ENTRY_IDS);

    expect(avro.metadata).toMatchObject({
      'schema-id': '0',
      'partition-spec': '[]',
      'partition-spec-id': '0',
      'format-version': '2',
      content: 'data',
    });
    expect(JSON.parse(avro.metadata.schema as string)).toEqual(schema);

    expect(avro.records).toHaveLength(1);
    const entry = avro.records[0] as Json;
    expect(entry).toMatchObject({
      status: 1,
      snapshot_id: SNAPSHOT,
      sequence_number: null,
      file_sequence_number: null,
    });
    const file = entry.data_file as Json;
    expect(file).toMatchObject({
      content: 0,
      file_path: path,
      file_format: 'PARQUET',
      partition: {},
      record_count: 1,
      file_size_in_bytes: facts.bytes.length,
      nan_value_counts: null,
    });
    expect(statsPairs(file.column_sizes)).toEqual([...facts.columnSizes]);
    expect(statsPairs(file.value_counts)).toEqual([101, 102, 103, 104, 105].map((id) => [id, 1]));
    expect(statsPairs(file.null_value_counts)).toEqual([101, 102, 103, 104, 105].map((id) => [id, 0]));
    const lower = new Map(statsPairs(file.lower_bounds).map(([id, v]) => [id, hexBytes(v)]));
    const upper = new Map(statsPairs(file.upper_bounds).map(([id, v]) => [id, hexBytes(v)]));
    expect([...lower.keys()]).toEqual([101, 102, 103, 104, 105]);
    const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);
    expect(text(lower.get(101))).toBe(ROW._olake_id);
    expect(text(lower.get(103))).toBe(ROW._op_type);
    expect(text(upper.get(103))).toBe(ROW._op_type);
    expect(text(lower.get(105))).toBe(ROW.data.slice(0, 16));
    expect(micros(lower.get(102) as Uint8Array)).toBe(BigInt(ROW._olake_timestamp.getTime()) * 1000n);
    expect(micros(upper.get(104) as Uint8Array)).toBe(BigInt(ROW._cdc_timestamp.getTime()) * 1000n);
  });

  python('writes a v2 manifest list: every field id, the metadata and the manifest_file', async () => {
    const input = {
      snapshotId: SNAPSHOT,
      parentSnapshotId: null,
      sequenceNumber: 1,
      manifest: {
        path: 's3://warehouse/db/t/metadata/m0.avro',
        length: 4321,
        specId: 0 as const,
        addedSnapshotId: SNAPSHOT,
        addedFilesCount: 1,
        addedRowsCount: 1,
      },
    };
    const avro = await readAvroWithPython(await writeManifestList(input));
    const header = avro.schema as Json;
    expect(header.name).toBe('manifest_file');
    expect(avroIds(header)).toEqual(MANIFEST_FILE_IDS);
    expect(avro.metadata).toMatchObject({
      'snapshot-id': String(SNAPSHOT),
      'parent-snapshot-id': 'null',
      'sequence-number': '1',
      'format-version': '2',
    });
    expect(avro.records).toEqual([
      {
        manifest_path: input.manifest.path,
        manifest_length: 4321,
        partition_spec_id: 0,
        content: 0,
        sequence_number: 1,
        min_sequence_number: 1,
        added_snapshot_id: SNAPSHOT,
        added_files_count: 1,
        existing_files_count: 0,
        deleted_files_count: 0,
        added_rows_count: 1,
        existing_rows_count: 0,
        deleted_rows_count: 0,
        partitions: [],
        key_metadata: null,
      },
    ]);

    const child = await readAvroWithPython(
      await writeManifestList({ ...input, snapshotId: 8, parentSnapshotId: SNAPSHOT, sequenceNumber: 2 }),
    );
    expect(child.metadata).toMatchObject({
      'snapshot-id': '8',
      'parent-snapshot-id': String(SNAPSHOT),
      'sequence-number': '2',
    });
  });
});

// --- A whole table, read by icebird ---

interface Objects {
  put(key: string, body: Uint8Array | string): Promise<void>;
}

/** Writes a one-row v2 table under s3://<bucket>/<prefix> and returns its metadata location. */
async function putTable(objects: Objects, bucket: string, prefix: string): Promise<string> {
  const location = `s3://${bucket}/${prefix}`;
  const schema = olakeRawSchema(true);
  const snapshotId = 1234567890123;
  const facts = await writeDataFile(schema, [ROW]);
  const dataKey = `${prefix}/data/00000-0-${randomUUID()}.parquet`;
  await objects.put(dataKey, facts.bytes);
  const manifest = await writeManifest({
    schema,
    formatVersion: 2,
    specId: 0,
    snapshotId,
    dataFile: { path: `s3://${bucket}/${dataKey}`, sizeInBytes: facts.bytes.length, facts },
  });
  const manifestKey = `${prefix}/metadata/${randomUUID()}-m0.avro`;
  await objects.put(manifestKey, manifest);
  const list = await writeManifestList({
    snapshotId,
    parentSnapshotId: null,
    sequenceNumber: 1,
    manifest: {
      path: `s3://${bucket}/${manifestKey}`,
      length: manifest.length,
      specId: 0,
      addedSnapshotId: snapshotId,
      addedFilesCount: 1,
      addedRowsCount: 1,
    },
  });
  const listKey = `${prefix}/metadata/snap-${snapshotId}-1-${randomUUID()}.avro`;
  await objects.put(listKey, list);
  const now = Date.now();
  // format/spec.md "Table Metadata Fields", v2 required fields.
  const metadata = {
    'format-version': 2,
    'table-uuid': randomUUID(),
    location,
    'last-sequence-number': 1,
    'last-updated-ms': now,
    'last-column-id': 5,
    'current-schema-id': 0,
    schemas: [schema],
    'default-spec-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: [] }],
    'last-partition-id': 999,
    'default-sort-order-id': 0,
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    properties: {},
    'current-snapshot-id': snapshotId,
    snapshots: [
      {
        'snapshot-id': snapshotId,
        'sequence-number': 1,
        'timestamp-ms': now,
        'manifest-list': `s3://${bucket}/${listKey}`,
        summary: { operation: 'append' },
        'schema-id': 0,
      },
    ],
    'snapshot-log': [{ 'snapshot-id': snapshotId, 'timestamp-ms': now }],
    'metadata-log': [],
    refs: { main: { 'snapshot-id': snapshotId, type: 'branch' } },
  };
  const metadataKey = `${prefix}/metadata/00001-${randomUUID()}.metadata.json`;
  await objects.put(metadataKey, JSON.stringify(metadata));
  return `s3://${bucket}/${metadataKey}`;
}

function s3Objects(client: S3Client, bucket: string): Objects {
  return {
    async put(key, body) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    },
  };
}

function s3Client(endpoint: string, region: string, accessKeyId: string, secretAccessKey: string): S3Client {
  return new S3Client({
    region,
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

describe('readIcebergTable', () => {
  it('reads a table floe’s writers assembled, through s3rver', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'floe-write-s3-'));
    const server = await startS3Server({ port: 0, bucket: 'warehouse', directory });
    const fetchBefore = globalThis.fetch;
    try {
      const client = s3Client(server.url, 'us-east-1', server.accessKey, server.secretKey);
      const metadataLocation = await putTable(s3Objects(client, 'warehouse'), 'warehouse', 'db/floe_check');
      client.destroy();
      const rows = await readIcebergTable({
        metadataLocation,
        s3: {
          endpoint: server.url,
          region: 'us-east-1',
          accessKeyId: server.accessKey,
          secretAccessKey: server.secretKey,
        },
      });
      expect(rows).toEqual([ROW]);
      expect(globalThis.fetch).toBe(fetchBefore);
    } finally {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  const ceph = cephFromEnv();
  itWithService(ceph.status, 'Ceph RGW')('reads it through Ceph RGW, which verifies SigV4', async () => {
    const info = ceph.info;
    if (!info) throw new Error('no Ceph');
    const { accessKey, secretKey } = info.users.owner;
    const client = s3Client(info.endpoint, info.region, accessKey, secretKey);
    const bucket = 'floe-write-files';
    await client.send(new CreateBucketCommand({ Bucket: bucket })).catch((e: { name?: string }) => {
      if (e.name !== 'BucketAlreadyOwnedByYou' && e.name !== 'BucketAlreadyExists') throw e;
    });
    const metadataLocation = await putTable(s3Objects(client, bucket), bucket, `db/t-${randomUUID()}`);
    client.destroy();
    const s3 = {
      endpoint: info.endpoint,
      region: info.region,
      accessKeyId: accessKey,
      secretAccessKey: secretKey,
    };
    expect(await readIcebergTable({ metadataLocation, s3 })).toEqual([ROW]);
    await expect(
      readIcebergTable({ metadataLocation, s3: { ...s3, secretAccessKey: 'wrong' } }),
    ).rejects.toThrow();
  });
});
