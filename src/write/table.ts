// The table side of the write check, pure: reading a LoadTableResult (its 64-bit snapshot ids kept
// exact), and the requests floe sends — CreateTableRequest and the append's CommitTableRequest —
// as the Iceberg REST spec (CreateTableRequest, CommitTableRequest, TableRequirement, TableUpdate)
// and Iceberg Java's MergeAppend / SnapshotProducer build them.
import type { IcebergSchema } from './files.js';

/** A snapshot id as a decimal string: ids are 64-bit and JSON numbers above 2^53 lose digits. */
export type SnapshotId = string;

export interface TableFacts {
  metadataLocation: string | null;
  uuid: string;
  location: string;
  formatVersion: number;
  lastSequenceNumber: number;
  schema: IcebergSchema;
  /** The snapshot `main` points at, or null for a table without one. */
  mainSnapshot: SnapshotId | null;
  /** Every snapshot's id and manifest list. */
  snapshots: { id: SnapshotId; manifestList: string }[];
  /** Storage properties the catalog sent with the table (vended credentials…): values to scrub. */
  config: Record<string, string>;
}

/** JSON whose values marked by `rawNumber` are written as bare numbers (snapshot ids). */
export function stringifyWithIds(value: unknown): string {
  return JSON.stringify(value).replace(new RegExp(`"${RAW_NUMBER}(-?\\d+)"`, 'g'), '$1');
}

/** The mark of a number `stringifyWithIds` writes bare: no catalog value starts with it. */
const RAW_NUMBER = 'floe-raw-number:';

/** Marks a snapshot id for `stringifyWithIds` to write as a number. */
export function rawNumber(id: SnapshotId): string {
  return `${RAW_NUMBER}${id}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function idText(value: unknown): SnapshotId | null {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  return null;
}

/** The table a LoadTableResult (create, load) or CommitTableResponse describes, or why it is unusable. */
export function readTable(body: unknown): TableFacts | { problem: string } {
  if (!isRecord(body)) return { problem: 'is not an object' };
  const metadata = body.metadata;
  if (!isRecord(metadata)) return { problem: 'has no "metadata" object' };
  const location = metadata.location;
  if (typeof location !== 'string' || !location) return { problem: 'has no metadata.location' };
  const uuid = metadata['table-uuid'];
  if (typeof uuid !== 'string' || !uuid) return { problem: 'has no metadata.table-uuid' };
  const schemas = Array.isArray(metadata.schemas) ? metadata.schemas : [];
  const current = metadata['current-schema-id'];
  const schema = schemas.find((s) => isRecord(s) && s['schema-id'] === current) ?? schemas[0];
  if (!isRecord(schema) || !Array.isArray(schema.fields)) return { problem: 'has no current schema' };
  const refs = isRecord(metadata.refs) ? metadata.refs : {};
  const main = isRecord(refs.main) ? idText(refs.main['snapshot-id']) : null;
  const currentId = idText(metadata['current-snapshot-id']);
  const snapshots = (Array.isArray(metadata.snapshots) ? metadata.snapshots : []).flatMap((s) => {
    const id = isRecord(s) ? idText(s['snapshot-id']) : null;
    const list = isRecord(s) ? s['manifest-list'] : undefined;
    return id && typeof list === 'string' ? [{ id, manifestList: list }] : [];
  });
  const config = isRecord(body.config)
    ? Object.fromEntries(
        Object.entries(body.config).filter((e): e is [string, string] => typeof e[1] === 'string'),
      )
    : {};
  const metadataLocation = body['metadata-location'];
  return {
    metadataLocation: typeof metadataLocation === 'string' ? metadataLocation : null,
    uuid,
    location: location.replace(/\/+$/, ''),
    formatVersion: typeof metadata['format-version'] === 'number' ? metadata['format-version'] : 1,
    lastSequenceNumber:
      typeof metadata['last-sequence-number'] === 'number' ? metadata['last-sequence-number'] : 0,
    schema: schema as unknown as IcebergSchema,
    // `current-snapshot-id` -1 (older writers) or null: no snapshot.
    mainSnapshot: main ?? (currentId && currentId !== '0' ? currentId : null),
    snapshots,
    config,
  };
}

/**
 * The table as OLake creates it (olake-iceberg-java-writer IcebergUtil.createIcebergTable): format v2,
 * Parquet, and the identifier fields as its sort order (getIdentifierFieldsAsSortOrder: each ascending,
 * SortOrder.Builder's default nulls-first, order id 1). floe writes Snappy (hyparquet-writer has no
 * zstd), so the table says so: a catalog would otherwise default new tables to zstd
 * (TableMetadata.persistedProperties), and the data file would contradict its table.
 */
export function createTableRequest(name: string, schema: IcebergSchema): Record<string, unknown> {
  const identifiers = schema['identifier-field-ids'] ?? [];
  return {
    name,
    schema,
    'stage-create': false,
    ...(identifiers.length
      ? {
          'write-order': {
            'order-id': 1,
            fields: identifiers.map((id) => ({
              transform: 'identity',
              'source-id': id,
              direction: 'asc',
              'null-order': 'nulls-first',
            })),
          },
        }
      : {}),
    properties: {
      'format-version': '2',
      'write.format.default': 'parquet',
      'write.parquet.compression-codec': PARQUET_CODEC,
    },
  };
}

/** The codec of the data files floe writes (files.ts). */
export const PARQUET_CODEC = 'snappy';

export interface AppendCommit {
  table: TableFacts;
  namespace: string[];
  name: string;
  snapshotId: SnapshotId;
  sequenceNumber: number;
  manifestList: string;
  timestampMs: number;
  addedFiles: number;
  addedRecords: number;
  addedBytes: number;
}

/**
 * The append as Iceberg Java commits it: `assert-table-uuid` and `assert-ref-snapshot-id` on main
 * (null: main must not exist yet), then `add-snapshot` and `set-snapshot-ref` (UpdateRequirements
 * .forUpdateTable, SnapshotProducer.commit). The summary has SnapshotSummary's keys for an append
 * to an empty unpartitioned table.
 */
export function appendCommitRequest(c: AppendCommit): string {
  const parent = c.table.mainSnapshot;
  return stringifyWithIds({
    identifier: { namespace: c.namespace, name: c.name },
    requirements: [
      { type: 'assert-table-uuid', uuid: c.table.uuid },
      {
        type: 'assert-ref-snapshot-id',
        ref: 'main',
        'snapshot-id': parent === null ? null : rawNumber(parent),
      },
    ],
    updates: [
      {
        action: 'add-snapshot',
        snapshot: {
          'snapshot-id': rawNumber(c.snapshotId),
          ...(parent === null ? {} : { 'parent-snapshot-id': rawNumber(parent) }),
          'sequence-number': c.sequenceNumber,
          'timestamp-ms': c.timestampMs,
          'manifest-list': c.manifestList,
          summary: {
            operation: 'append',
            'added-data-files': String(c.addedFiles),
            'added-records': String(c.addedRecords),
            'added-files-size': String(c.addedBytes),
            'changed-partition-count': '1',
            'total-records': String(c.addedRecords),
            'total-files-size': String(c.addedBytes),
            'total-data-files': String(c.addedFiles),
            'total-delete-files': '0',
            'total-position-deletes': '0',
            'total-equality-deletes': '0',
          },
          'schema-id': c.table.schema['schema-id'],
        },
      },
      {
        action: 'set-snapshot-ref',
        'ref-name': 'main',
        type: 'branch',
        'snapshot-id': rawNumber(c.snapshotId),
      },
    ],
  });
}
