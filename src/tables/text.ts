// `floe tables` as lines of text (the command prints them through the output boundary; the screen
// draws the same): a table of every table, its problems, and one table's detail with the maintenance.
import { durationText, type Problem } from './health.js';
import type { TableDetail, TableRow } from './index.js';

export function bytesText(n: number | null): string {
  if (n === null) return '?';
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GiB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

const num = (n: number | null) => (n === null ? '?' : n.toLocaleString('en-US'));

export const tableName = (row: Pick<TableRow, 'namespace' | 'name'>) =>
  [...row.namespace, row.name].join('.');

/** "3 h ago", or "never" for a table without a commit. */
export function ageText(ms: number | null, nowMs: number): string {
  return ms === null ? 'never' : `${durationText(nowMs - ms)} ago`;
}

const deletesText = (row: TableRow) =>
  row.deleteFiles.position === null
    ? '?'
    : `${num(row.deleteFiles.position)}/${num(row.deleteFiles.equality)}`;

/** The list as aligned columns, then one line per problem. */
export function listLines(rows: TableRow[], nowMs: number): string[] {
  const header = ['TABLE', 'LAST COMMIT', 'SNAPS', 'RECORDS', 'FILES', 'AVG FILE', 'DEL P/E', 'PROBLEMS'];
  const cells = rows.map((row) => [
    tableName(row),
    ageText(row.lastCommitMs, nowMs),
    num(row.snapshots),
    num(row.records),
    num(row.dataFiles),
    bytesText(row.avgDataFileBytes),
    deletesText(row),
    row.problems.length ? row.problems.map((p) => p.code.replace(/^TABLE_/, '')).join(',') : '-',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const format = (c: string[]) =>
    c
      .map((cell, i) =>
        i === 0 || i === 1 || i === c.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  const lines = [format(header), ...cells.map(format)];
  const problems = rows.flatMap((row) => row.problems.map((p) => `${tableName(row)}: ${p.code} ${p.what}`));
  if (problems.length)
    lines.push('', 'Problems (floe tables show NS.TABLE for the maintenance to run):', ...problems);
  return lines;
}

export function problemLines(problem: Problem): string[] {
  const lines = [`${problem.code}: ${problem.what}`, `  ${problem.remedy}`];
  if (problem.maintenance) {
    lines.push('  Spark:', ...problem.maintenance.spark.map((l) => `    ${l}`));
    lines.push('  Trino:', ...problem.maintenance.trino.map((l) => `    ${l}`));
    lines.push('  pyiceberg:', ...problem.maintenance.pyiceberg.map((l) => `    ${l}`));
  }
  return lines;
}

const signed = (sign: string, n: number | null) =>
  n === null || n === 0 ? '' : `${sign}${n.toLocaleString('en-US')}`;

/** One table in detail. */
export function detailLines(d: TableDetail, nowMs: number): string[] {
  const lines = [
    `Table       ${tableName(d)}`,
    `Location    ${d.location ?? '?'}`,
    `Metadata    ${d.metadataLocation ?? '?'} (format v${d.formatVersion ?? '?'})`,
    `Last commit ${d.lastCommitMs === null ? 'never' : `${new Date(d.lastCommitMs).toISOString()} (${ageText(d.lastCommitMs, nowMs)})`}`,
    `Snapshots   ${num(d.snapshots)}`,
    `Records     ${num(d.records)} in ${num(d.dataFiles)} data files, ${bytesText(d.dataBytes)} (average ${bytesText(d.avgDataFileBytes)})`,
    `Deletes     position: ${num(d.deleteFiles.position)} files, ${num(d.deleteRows.position)} rows; equality: ${num(d.deleteFiles.equality)} files, ${num(d.deleteRows.equality)} rows`,
    `Read from   ${d.source === 'manifests' ? `the manifests (${num(d.manifests)})` : d.source === 'summary' ? 'the table (no snapshot)' : '?'}`,
  ];
  if (d.histogram.some((b) => b.files > 0)) {
    lines.push('', 'Data file sizes');
    let from = 0;
    for (const bucket of d.histogram) {
      const label =
        bucket.below === null ? `≥ ${bytesText(from)}` : `${bytesText(from)} – ${bytesText(bucket.below)}`;
      lines.push(`  ${label.padEnd(22)} ${num(bucket.files)}`);
      from = bucket.below ?? from;
    }
  }
  const schema = d.schemas.find((s) => s.id === d.currentSchemaId) ?? d.schemas.at(-1);
  if (schema) {
    lines.push(
      '',
      `Schema ${schema.id}${d.schemas.length > 1 ? ` (history: ${d.schemas.map((s) => `${s.id}: ${s.fields.length} fields`).join(', ')})` : ''}`,
    );
    for (const f of schema.fields)
      lines.push(`  ${f.id}  ${f.name} ${f.type}${f.required ? ' required' : ''}`);
  }
  lines.push('', `Partition   ${d.partitionSpec.join(', ') || 'unpartitioned'}`);
  lines.push(`Sort order  ${d.sortOrder.join(', ') || 'unsorted'}`);
  const props = Object.entries(d.writeProperties);
  lines.push(`Write       ${props.length ? props.map(([k, v]) => `${k}=${v}`).join(', ') : 'defaults'}`);
  if (d.snapshotLog.length) {
    lines.push('', 'Snapshots (time, operation, records, data files, delete files)');
    for (const s of d.snapshotLog.slice(-50))
      lines.push(
        `  ${new Date(s.timestampMs).toISOString()}  ${s.operation.padEnd(9)} ${[
          signed('+', s.addedRecords),
          signed('-', s.deletedRecords),
        ]
          .filter(Boolean)
          .join(' ')
          .padEnd(
            18,
          )} ${[signed('+', s.addedFiles), signed('-', s.removedFiles)].filter(Boolean).join(' ').padEnd(12)} ${[
          signed('+', s.addedDeleteFiles),
          signed('-', s.removedDeleteFiles),
        ]
          .filter(Boolean)
          .join(' ')}`.trimEnd(),
      );
    if (d.snapshotLog.length > 50)
      lines.push(`  (the last 50 of ${d.snapshotLog.length}; --json has them all)`);
  }
  lines.push('', d.problems.length ? 'Problems' : 'Problems    none');
  for (const p of d.problems) lines.push(...problemLines(p));
  return lines;
}
