// A table's size facts, and reading them from a snapshot summary. Iceberg's SnapshotSummary keeps
// running totals (total-records, total-data-files, total-delete-files, total-files-size,
// total-position-deletes, total-equality-deletes); they give every number floe shows only when the
// table has no delete file: the summary neither splits delete files into position and equality nor
// total-files-size into data and deletes. Otherwise, or when a total is missing (writers may omit
// them, and do once a total is unknown), the manifests are read.

export interface TableStats {
  /** Records in live data files (deletes not applied). */
  records: number;
  dataFiles: number;
  dataBytes: number;
  deleteFiles: { position: number; equality: number };
  deleteRows: { position: number; equality: number };
}

export const SUMMARY_TOTALS = [
  'total-records',
  'total-data-files',
  'total-delete-files',
  'total-files-size',
  'total-position-deletes',
  'total-equality-deletes',
] as const;

export const EMPTY_STATS: TableStats = {
  records: 0,
  dataFiles: 0,
  dataBytes: 0,
  deleteFiles: { position: 0, equality: 0 },
  deleteRows: { position: 0, equality: 0 },
};

function total(summary: Record<string, string>, key: string): number | null {
  const value = summary[key];
  if (value === undefined || !/^\d{1,16}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** The facts from a snapshot summary, or null when it does not give them all (see above). */
export function statsFromSummary(summary: Record<string, string>): TableStats | null {
  const totals = SUMMARY_TOTALS.map((key) => total(summary, key));
  if (totals.some((t) => t === null)) return null;
  const [records, dataFiles, deleteFiles, bytes, positionRows, equalityRows] = totals as number[];
  if (deleteFiles !== 0 || positionRows !== 0 || equalityRows !== 0) return null;
  return { ...EMPTY_STATS, records: records!, dataFiles: dataFiles!, dataBytes: bytes! };
}

/** Mean data file size in bytes (0 without data files), rounded down. */
export function averageFileBytes(stats: Pick<TableStats, 'dataFiles' | 'dataBytes'>): number {
  return stats.dataFiles === 0 ? 0 : Math.floor(stats.dataBytes / stats.dataFiles);
}
