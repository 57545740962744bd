// What one seeded commit writes beside its data: position delete files (file_path, pos: format/spec.md
// "Position Delete Files"), the snapshot's summary with Iceberg's running totals (SnapshotSummary)
// unless the table is meant to have none, and the append's CommitTableRequest (add-snapshot +
// set-snapshot-ref, as write/table.ts's append).
import { randomBytes } from 'node:crypto';
import { lazy } from '../lazy.js';
import type { IcebergSchema, ManifestEntryInput } from '../write/files.js';
import { rawNumber, stringifyWithIds } from '../write/table.js';

/** Java's positive random longs, below 2^53 here (the catalog emulator holds JavaScript numbers). */
export function newSnapshotId(): number {
  return (randomBytes(6).readUIntBE(0, 6) % 2 ** 47) + 1;
}

const POSITION_SCHEMA: IcebergSchema = {
  type: 'struct',
  'schema-id': 0,
  fields: [
    { id: 2147483546, name: 'file_path', required: true, type: 'string' },
    { id: 2147483545, name: 'pos', required: true, type: 'long' },
  ],
};

export async function positionDeleteFile(dataFile: string, rows: number): Promise<Uint8Array> {
  const { parquetWriteBuffer } = await lazy.hyparquetWriter();
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'file_path', data: Array.from({ length: rows }, () => dataFile) },
      { name: 'pos', data: Array.from({ length: rows }, (_, i) => BigInt(i)) },
    ],
    schema: [
      { name: 'table', num_children: 2 },
      {
        name: 'file_path',
        repetition_type: 'REQUIRED',
        field_id: 2147483546,
        type: 'BYTE_ARRAY',
        converted_type: 'UTF8',
        logical_type: { type: 'STRING' },
      },
      { name: 'pos', repetition_type: 'REQUIRED', field_id: 2147483545, type: 'INT64' },
    ],
    codec: 'SNAPPY',
    kvMetadata: [{ key: 'iceberg.schema', value: JSON.stringify(POSITION_SCHEMA) }],
  });
  return new Uint8Array(buffer);
}

/** The files one commit adds: data files, and delete files (position: content 1, equality: content 2). */
export interface AddedFiles {
  data: ManifestEntryInput[];
  deletes: ManifestEntryInput[];
}

/** The table's running totals, as SnapshotSummary keeps them. */
export interface Totals {
  records: number;
  dataFiles: number;
  deleteFiles: number;
  bytes: number;
  positions: number;
  equalities: number;
}

export const zeroTotals = (): Totals => ({
  records: 0,
  dataFiles: 0,
  deleteFiles: 0,
  bytes: 0,
  positions: 0,
  equalities: 0,
});

/** The snapshot's summary; adds the commit's files to `totals`. */
export function snapshotSummary(
  added: AddedFiles,
  totals: Totals,
  withoutTotals?: boolean,
): Record<string, string> {
  const sum = (entries: ManifestEntryInput[], field: 'recordCount' | 'sizeInBytes') =>
    entries.reduce((n, e) => n + e[field], 0);
  const positions = added.deletes.filter((e) => e.content === 1);
  const equalities = added.deletes.filter((e) => e.content === 2);
  totals.records += sum(added.data, 'recordCount');
  totals.dataFiles += added.data.length;
  totals.deleteFiles += added.deletes.length;
  totals.bytes += sum(added.data, 'sizeInBytes') + sum(added.deletes, 'sizeInBytes');
  totals.positions += sum(positions, 'recordCount');
  totals.equalities += sum(equalities, 'recordCount');
  return {
    operation: added.deletes.length ? 'overwrite' : 'append',
    'added-data-files': String(added.data.length),
    'added-records': String(sum(added.data, 'recordCount')),
    'added-files-size': String(sum(added.data, 'sizeInBytes') + sum(added.deletes, 'sizeInBytes')),
    ...(added.deletes.length
      ? {
          'added-delete-files': String(added.deletes.length),
          'added-position-delete-files': String(positions.length),
          'added-equality-delete-files': String(equalities.length),
          'added-position-deletes': String(sum(positions, 'recordCount')),
          'added-equality-deletes': String(sum(equalities, 'recordCount')),
        }
      : {}),
    ...(withoutTotals
      ? {}
      : {
          'total-records': String(totals.records),
          'total-files-size': String(totals.bytes),
          'total-data-files': String(totals.dataFiles),
          'total-delete-files': String(totals.deleteFiles),
          'total-position-deletes': String(totals.positions),
          'total-equality-deletes': String(totals.equalities),
        }),
  };
}

/** The append's CommitTableRequest: the table must still be `uuid`, its main still `parent`. */
export function appendRequest(
  table: { namespace: string[]; name: string; uuid: string; schemaId: number },
  commit: {
    snapshotId: number;
    parent: number | null;
    sequence: number;
    timestampMs: number;
    listPath: string;
    summary: Record<string, string>;
  },
): string {
  const { namespace, name, uuid, schemaId } = table;
  const { snapshotId, parent, sequence, timestampMs, listPath, summary } = commit;
  return stringifyWithIds({
    identifier: { namespace, name },
    requirements: [
      { type: 'assert-table-uuid', uuid },
      {
        type: 'assert-ref-snapshot-id',
        ref: 'main',
        'snapshot-id': parent === null ? null : rawNumber(String(parent)),
      },
    ],
    updates: [
      {
        action: 'add-snapshot',
        snapshot: {
          'snapshot-id': rawNumber(String(snapshotId)),
          ...(parent === null ? {} : { 'parent-snapshot-id': rawNumber(String(parent)) }),
          'sequence-number': sequence,
          'timestamp-ms': timestampMs,
          'manifest-list': listPath,
          summary,
          'schema-id': schemaId,
        },
      },
      {
        action: 'set-snapshot-ref',
        'ref-name': 'main',
        type: 'branch',
        'snapshot-id': rawNumber(String(snapshotId)),
      },
    ],
  });
}
