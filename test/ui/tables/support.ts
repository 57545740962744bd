// Rows and details for the tables screen's tests, shaped as `floe tables` returns them.

import type { TableDetail, TableRow } from '../../../src/tables/index.js';
import { maintenance } from '../../../src/tables/maintenance.js';

export const NOW = Date.parse('2026-08-20T12:00:00Z');
const HOUR = 3_600_000;

export function row(name: string, overrides: Partial<TableRow> = {}): TableRow {
  return {
    namespace: ['public'],
    name,
    location: `s3://warehouse/public/${name}`,
    formatVersion: 2,
    lastCommitMs: NOW - 2 * HOUR,
    snapshots: 1,
    records: 200,
    dataFiles: 4,
    dataBytes: 4_000,
    avgDataFileBytes: 1_000,
    deleteFiles: { position: 0, equality: 0 },
    deleteRows: { position: 0, equality: 0 },
    source: 'summary',
    problems: [],
    ...overrides,
  };
}

/** 150 snapshots, 5 years of them: TABLE_MANY_SNAPSHOTS with its expire statements. */
export const SESSIONS = row('sessions', {
  lastCommitMs: NOW - HOUR,
  snapshots: 150,
  records: 450,
  dataFiles: 150,
  dataBytes: 150_000_000,
  avgDataFileBytes: 1_000_000,
  problems: [
    {
      code: 'TABLE_MANY_SNAPSHOTS',
      what: '150 snapshots (above 100)',
      remedy: 'Expire old snapshots',
      maintenance: maintenance(
        'expire',
        { catalog: 'olake', namespace: ['public'], name: 'sessions' },
        { nowMs: NOW, retainMs: 5 * 24 * HOUR, smallFileBytes: 128 * 1024 ** 2 },
      ),
    },
  ],
});

export const ROWS: TableRow[] = [
  row('orders', { lastCommitMs: NOW - 5 * HOUR, dataBytes: 9_000, records: 320 }),
  SESSIONS,
  row('customers', { lastCommitMs: NOW - 3 * HOUR, dataBytes: 1_000 }),
];

export function detailOf(r: TableRow): TableDetail {
  return {
    ...r,
    source: 'manifests',
    metadataLocation: `${r.location}/metadata/00001.metadata.json`,
    manifests: 3,
    histogram: [
      { below: 1024 ** 2, files: r.dataFiles ?? 0 },
      { below: null, files: 0 },
    ],
    currentSchemaId: 0,
    schemas: [
      {
        id: 0,
        fields: [
          { id: 1, name: '_olake_id', type: 'string', required: true },
          { id: 2, name: 'data', type: 'string', required: false },
        ],
      },
    ],
    partitionSpec: [],
    sortOrder: ['_olake_id ASC NULLS_FIRST'],
    writeProperties: { 'write.parquet.compression-codec': 'snappy' },
    snapshotLog: [],
  };
}
