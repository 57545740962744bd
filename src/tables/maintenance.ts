// The maintenance to paste, per engine floe exports to, with the catalog and table names filled in:
// Spark's Iceberg procedures (docs/spark-procedures.md: rewrite_data_files, rewrite_position_delete_files,
// expire_snapshots, remove_orphan_files), Trino's Iceberg connector table procedures (ALTER TABLE …
// EXECUTE optimize / expire_snapshots / remove_orphan_files), and what pyiceberg can do (expire
// snapshots through Table.maintenance since 0.10; it has no compaction or orphan-file procedure).

export type MaintenanceKind = 'compact' | 'compact-deletes' | 'expire' | 'orphans';

export interface Maintenance {
  spark: string[];
  trino: string[];
  pyiceberg: string[];
}

export interface TableName {
  /** The catalog's name in the engines (the export's catalog name). */
  catalog: string;
  namespace: string[];
  name: string;
}

const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A Spark multipart identifier as a string literal's content: plain parts bare, others in backticks. */
function sparkIdentifier(parts: string[]): string {
  const quoted = parts.map((p) => (PLAIN.test(p) ? p : `\`${p.replaceAll('`', '``')}\``)).join('.');
  return quoted.replaceAll("'", "\\'");
}

const trinoPart = (part: string) => `"${part.replaceAll('"', '""')}"`;

/** Trino's name: nested namespace levels are one schema name "a.b" (nested-namespace-enabled). */
function trinoIdentifier(t: TableName): string {
  return [t.catalog, t.namespace.join('.'), t.name].map(trinoPart).join('.');
}

const pyString = (s: string) => JSON.stringify(s);

/** `YYYY-MM-DD HH:MM:SS` (UTC) of `ms`. */
function sqlTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

export interface MaintenanceContext {
  /** Now, for expire_snapshots' cut-off. */
  nowMs: number;
  /** Keep snapshots younger than this. */
  retainMs: number;
  /** Data files below this are rewritten. */
  smallFileBytes: number;
}

/** The statements for `kind` on table `t`. */
export function maintenance(kind: MaintenanceKind, t: TableName, ctx: MaintenanceContext): Maintenance {
  const spark = PLAIN.test(t.catalog) ? t.catalog : `\`${t.catalog.replaceAll('`', '``')}\``;
  const table = sparkIdentifier([...t.namespace, t.name]);
  const call = (procedure: string, args: string) =>
    `CALL ${spark}.system.${procedure}(table => '${table}'${args});`;
  const trino = trinoIdentifier(t);
  const cutoff = sqlTimestamp(ctx.nowMs - ctx.retainMs);
  const days = Math.max(1, Math.round(ctx.retainMs / 86_400_000));
  const pyLoad = `table = catalog.load_table((${[...t.namespace.map(pyString), pyString(t.name)].join(', ')}))`;
  switch (kind) {
    case 'compact':
      return {
        spark: [
          call('rewrite_data_files', `, options => map('min-file-size-bytes', '${ctx.smallFileBytes}')`),
        ],
        trino: [`ALTER TABLE ${trino} EXECUTE optimize(file_size_threshold => '${mb(ctx.smallFileBytes)}');`],
        pyiceberg: ['# pyiceberg has no compaction: run the Spark or Trino statement'],
      };
    case 'compact-deletes':
      return {
        spark: [
          call('rewrite_data_files', ", options => map('delete-file-threshold', '1')"),
          call('rewrite_position_delete_files', ''),
        ],
        trino: [`ALTER TABLE ${trino} EXECUTE optimize;`],
        pyiceberg: ['# pyiceberg cannot rewrite delete files: run the Spark or Trino statement'],
      };
    case 'expire':
      return {
        spark: [call('expire_snapshots', `, older_than => TIMESTAMP '${cutoff}', retain_last => 1`)],
        trino: [`ALTER TABLE ${trino} EXECUTE expire_snapshots(retention_threshold => '${days}d');`],
        pyiceberg: [
          'from datetime import datetime, timedelta, timezone',
          pyLoad,
          `table.maintenance.expire_snapshots().older_than(datetime.now(timezone.utc) - timedelta(days=${days})).commit()`,
        ],
      };
    case 'orphans':
      return {
        spark: [call('remove_orphan_files', `, older_than => TIMESTAMP '${cutoff}'`)],
        trino: [`ALTER TABLE ${trino} EXECUTE remove_orphan_files(retention_threshold => '${days}d');`],
        pyiceberg: ['# pyiceberg has no orphan-file removal: run the Spark or Trino statement'],
      };
  }
}

/** Trino's data size text: whole megabytes, at least 1MB. */
function mb(bytes: number): string {
  return `${Math.max(1, Math.round(bytes / 1024 / 1024))}MB`;
}
