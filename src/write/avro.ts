// The v2 manifest and manifest list of `floe test --write`, as Avro object container files written
// with avsc (imported inside the functions). Field ids, names and order are Java's
// core/src/main/java/org/apache/iceberg/V2Metadata.java (entrySchema, MANIFEST_LIST_SCHEMA) with the
// ids of api/.../DataFile.java, ManifestFile.java and core/.../ManifestEntry.java; the Avro shapes
// (optional = ["null", T] with default null, int-keyed maps as arrays of k<id>_v<id> records,
// nested records named r<field id>) are core/.../avro/TypeToSchema.java and format/spec.md
// Appendix A "Avro".
import { lazy } from '../lazy.js';
import type { DataFileFacts, IcebergSchema } from './iceberg.js';

export interface ManifestInput {
  schema: IcebergSchema;
  formatVersion: 2;
  /** The unpartitioned spec, fields []. */
  specId: 0;
  /** Below 2^53, positive. */
  snapshotId: number;
  dataFile: { path: string; sizeInBytes: number; facts: DataFileFacts };
}

export interface ManifestListInput {
  snapshotId: number;
  parentSnapshotId: number | null;
  sequenceNumber: number;
  manifest: {
    path: string;
    length: number;
    specId: 0;
    addedSnapshotId: number;
    addedFilesCount: number;
    addedRowsCount: number;
  };
}

type AvroType = string | Record<string, unknown> | AvroType[];

function required(id: number, name: string, type: AvroType): Record<string, unknown> {
  return { name, type, 'field-id': id };
}

function optional(id: number, name: string, type: AvroType): Record<string, unknown> {
  return { name, type: ['null', type], default: null, 'field-id': id };
}

/** An Iceberg map with non-string keys (spec Appendix A "Avro": array with logical type "map"). */
function intKeyMap(keyId: number, valueId: number, value: 'long' | 'bytes'): Record<string, unknown> {
  return {
    type: 'array',
    logicalType: 'map',
    items: {
      type: 'record',
      name: `k${keyId}_v${valueId}`,
      fields: [required(keyId, 'key', 'int'), required(valueId, 'value', value)],
    },
  };
}

function list(elementId: number, items: AvroType): Record<string, unknown> {
  return { type: 'array', items, 'element-id': elementId };
}

/** format/spec.md "Manifest Entry Fields" and "Data File Fields", v2 column; the partition struct is empty (unpartitioned). */
export const MANIFEST_ENTRY_SCHEMA = {
  type: 'record',
  name: 'manifest_entry',
  fields: [
    required(0, 'status', 'int'),
    optional(1, 'snapshot_id', 'long'),
    optional(3, 'sequence_number', 'long'),
    optional(4, 'file_sequence_number', 'long'),
    required(2, 'data_file', {
      type: 'record',
      name: 'r2',
      fields: [
        required(134, 'content', 'int'),
        required(100, 'file_path', 'string'),
        required(101, 'file_format', 'string'),
        required(102, 'partition', { type: 'record', name: 'r102', fields: [] }),
        required(103, 'record_count', 'long'),
        required(104, 'file_size_in_bytes', 'long'),
        optional(108, 'column_sizes', intKeyMap(117, 118, 'long')),
        optional(109, 'value_counts', intKeyMap(119, 120, 'long')),
        optional(110, 'null_value_counts', intKeyMap(121, 122, 'long')),
        optional(137, 'nan_value_counts', intKeyMap(138, 139, 'long')),
        optional(125, 'lower_bounds', intKeyMap(126, 127, 'bytes')),
        optional(128, 'upper_bounds', intKeyMap(129, 130, 'bytes')),
        optional(131, 'key_metadata', 'bytes'),
        optional(132, 'split_offsets', list(133, 'long')),
        optional(135, 'equality_ids', list(136, 'int')),
        optional(140, 'sort_order_id', 'int'),
        optional(143, 'referenced_data_file', 'string'),
      ],
    }),
  ],
} as const;

/** format/spec.md "Manifest Lists", v2 column (manifest_file and field_summary). */
export const MANIFEST_FILE_SCHEMA = {
  type: 'record',
  name: 'manifest_file',
  fields: [
    required(500, 'manifest_path', 'string'),
    required(501, 'manifest_length', 'long'),
    required(502, 'partition_spec_id', 'int'),
    required(517, 'content', 'int'),
    required(515, 'sequence_number', 'long'),
    required(516, 'min_sequence_number', 'long'),
    required(503, 'added_snapshot_id', 'long'),
    required(504, 'added_files_count', 'int'),
    required(505, 'existing_files_count', 'int'),
    required(506, 'deleted_files_count', 'int'),
    required(512, 'added_rows_count', 'long'),
    required(513, 'existing_rows_count', 'long'),
    required(514, 'deleted_rows_count', 'long'),
    optional(
      507,
      'partitions',
      list(508, {
        type: 'record',
        name: 'r508',
        fields: [
          required(509, 'contains_null', 'boolean'),
          optional(518, 'contains_nan', 'boolean'),
          optional(510, 'lower_bound', 'bytes'),
          optional(511, 'upper_bound', 'bytes'),
        ],
      }),
    ),
    optional(519, 'key_metadata', 'bytes'),
  ],
} as const;

/**
 * One Avro container file. The schema goes to BlockEncoder as JSON, not as an avsc Type: avsc then
 * writes that JSON verbatim as `avro.schema`, where a Type's getSchema({exportAttrs}) would drop the
 * field-id / element-id attributes (avsc lib/types.js exports only doc, aliases, default, order).
 */
async function writeContainer(
  schema: Record<string, unknown>,
  metadata: Record<string, string>,
  records: Record<string, unknown>[],
): Promise<Uint8Array> {
  const avsc = await lazy.avsc();
  const meta = Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, Buffer.from(v, 'utf8')]));
  // EncoderOptions' typings omit `metadata`, which lib/containers.js BlockEncoder reads.
  const encoder = new avsc.streams.BlockEncoder(schema as never, { codec: 'null', metadata: meta } as never);
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    encoder.on('data', (chunk: Buffer) => chunks.push(chunk));
    encoder.on('end', resolve);
    encoder.on('error', reject);
  });
  for (const record of records) encoder.write(record);
  encoder.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

function pairs<V>(map: Map<number, V>): { key: number; value: V }[] {
  return [...map].sort(([a], [b]) => a - b).map(([key, value]) => ({ key, value }));
}

function assertLong(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer below 2^53`);
}

/** One entry of a manifest: a data file (content 0) or a delete file (1 position, 2 equality). */
export interface ManifestEntryInput {
  /** 0 EXISTING, 1 ADDED, 2 DELETED. */
  status: 0 | 1 | 2;
  /** Below 2^53: the snapshot that added (or deleted) the file. */
  snapshotId: number;
  /** null: inherited from the manifest list (ADDED entries); set for EXISTING and DELETED ones. */
  sequenceNumber: number | null;
  content: 0 | 1 | 2;
  path: string;
  recordCount: number;
  sizeInBytes: number;
  /** The file's column stats (a data file floe wrote), if any. */
  facts?: DataFileFacts;
  /** Equality deletes: the field ids compared. */
  equalityIds?: number[];
}

export interface ManifestEntriesInput {
  schema: IcebergSchema;
  formatVersion: 2;
  specId: 0;
  /** A manifest holds data files or delete files, never both. */
  content: 'data' | 'deletes';
  entries: ManifestEntryInput[];
}

function entryRecord(e: ManifestEntryInput): Record<string, unknown> {
  assertLong('snapshotId', e.snapshotId);
  assertLong('sizeInBytes', e.sizeInBytes);
  assertLong('recordCount', e.recordCount);
  const { facts } = e;
  return {
    status: e.status,
    snapshot_id: e.snapshotId,
    sequence_number: e.sequenceNumber,
    file_sequence_number: e.sequenceNumber,
    data_file: {
      content: e.content,
      file_path: e.path,
      file_format: 'PARQUET',
      partition: {},
      record_count: e.recordCount,
      file_size_in_bytes: e.sizeInBytes,
      column_sizes: facts ? pairs(facts.columnSizes) : null,
      value_counts: facts ? pairs(facts.valueCounts) : null,
      null_value_counts: facts ? pairs(facts.nullValueCounts) : null,
      nan_value_counts: null,
      lower_bounds: facts
        ? pairs(facts.lowerBounds).map(({ key, value }) => ({ key, value: Buffer.from(value) }))
        : null,
      upper_bounds: facts
        ? pairs(facts.upperBounds).map(({ key, value }) => ({ key, value: Buffer.from(value) }))
        : null,
      key_metadata: null,
      split_offsets: null,
      equality_ids: e.equalityIds ?? null,
      sort_order_id: null,
      referenced_data_file: null,
    },
  };
}

/**
 * A v2 manifest of any number of entries, data or deletes. File metadata as the spec's "Manifests"
 * table (v2 column): schema, schema-id, partition-spec, partition-spec-id, format-version, content.
 */
export async function writeManifestEntries(input: ManifestEntriesInput): Promise<Uint8Array> {
  return writeContainer(
    MANIFEST_ENTRY_SCHEMA,
    {
      schema: JSON.stringify(input.schema),
      'schema-id': String(input.schema['schema-id']),
      // Only the spec's fields array (spec Appendix C "Partition Specs"; Java PartitionSpecParser.toJsonFields).
      'partition-spec': '[]',
      'partition-spec-id': String(input.specId),
      'format-version': String(input.formatVersion),
      content: input.content,
    },
    input.entries.map(entryRecord),
  );
}

/**
 * A v2 data manifest with one ADDED entry. snapshot_id is set; sequence_number and
 * file_sequence_number are null so they inherit from the manifest list (spec "Sequence Number
 * Inheritance").
 */
export async function writeManifest(input: ManifestInput): Promise<Uint8Array> {
  const { facts } = input.dataFile;
  return writeManifestEntries({
    schema: input.schema,
    formatVersion: input.formatVersion,
    specId: input.specId,
    content: 'data',
    entries: [
      {
        status: 1,
        snapshotId: input.snapshotId,
        sequenceNumber: null,
        content: 0,
        path: input.dataFile.path,
        recordCount: facts.recordCount,
        sizeInBytes: input.dataFile.sizeInBytes,
        facts,
      },
    ],
  });
}

/** One manifest in a manifest list. */
export interface ManifestFileInput {
  path: string;
  length: number;
  specId: 0;
  /** 0 data, 1 deletes. */
  content: 0 | 1;
  sequenceNumber: number;
  minSequenceNumber: number;
  addedSnapshotId: number;
  addedFilesCount: number;
  existingFilesCount: number;
  deletedFilesCount: number;
  addedRowsCount: number;
  existingRowsCount: number;
  deletedRowsCount: number;
}

export interface ManifestListFilesInput {
  snapshotId: number;
  parentSnapshotId: number | null;
  sequenceNumber: number;
  manifests: ManifestFileInput[];
}

/**
 * A v2 manifest list of any number of manifests; file metadata as Java's ManifestListWriter.V2Writer:
 * snapshot-id, parent-snapshot-id (String.valueOf(null) = "null" when there is none),
 * sequence-number, format-version.
 */
export async function writeManifestListFiles(input: ManifestListFilesInput): Promise<Uint8Array> {
  assertLong('snapshotId', input.snapshotId);
  assertLong('sequenceNumber', input.sequenceNumber);
  const records = input.manifests.map((m) => {
    assertLong('manifest.length', m.length);
    return {
      manifest_path: m.path,
      manifest_length: m.length,
      partition_spec_id: m.specId,
      content: m.content,
      sequence_number: m.sequenceNumber,
      min_sequence_number: m.minSequenceNumber,
      added_snapshot_id: m.addedSnapshotId,
      added_files_count: m.addedFilesCount,
      existing_files_count: m.existingFilesCount,
      deleted_files_count: m.deletedFilesCount,
      added_rows_count: m.addedRowsCount,
      existing_rows_count: m.existingRowsCount,
      deleted_rows_count: m.deletedRowsCount,
      partitions: [],
      key_metadata: null,
    };
  });
  return writeContainer(
    MANIFEST_FILE_SCHEMA,
    {
      'snapshot-id': String(input.snapshotId),
      'parent-snapshot-id': String(input.parentSnapshotId),
      'sequence-number': String(input.sequenceNumber),
      'format-version': '2',
    },
    records,
  );
}

/** A v2 manifest list with one data manifest whose sequence_number and min_sequence_number are the snapshot's. */
export async function writeManifestList(input: ManifestListInput): Promise<Uint8Array> {
  const { manifest } = input;
  return writeManifestListFiles({
    snapshotId: input.snapshotId,
    parentSnapshotId: input.parentSnapshotId,
    sequenceNumber: input.sequenceNumber,
    manifests: [
      {
        path: manifest.path,
        length: manifest.length,
        specId: manifest.specId,
        content: 0,
        sequenceNumber: input.sequenceNumber,
        minSequenceNumber: input.sequenceNumber,
        addedSnapshotId: manifest.addedSnapshotId,
        addedFilesCount: manifest.addedFilesCount,
        existingFilesCount: 0,
        deletedFilesCount: 0,
        addedRowsCount: manifest.addedRowsCount,
        existingRowsCount: 0,
        deletedRowsCount: 0,
      },
    ],
  });
}
