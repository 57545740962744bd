// A table's metadata as the catalog's LoadTableResult carries it (format/spec.md "Table Metadata"
// v1/v2/v3; the REST spec's LoadTableResult), read defensively: the answer is untrusted, every string is
// sanitized here, ids stay exact (64-bit: decimal strings), and whatever is missing or malformed becomes
// a stated problem rather than an exception. Only the facts `floe tables` shows are kept.
import { sanitize } from '../text/sanitize.js';

export interface SnapshotInfo {
  /** A decimal string: snapshot ids are 64-bit. */
  id: string;
  parentId: string | null;
  sequenceNumber: number;
  timestampMs: number;
  /** The manifest list (v2+; v1 tables may embed `manifests` instead, which floe does not read). */
  manifestList: string | null;
  operation: string;
  summary: Record<string, string>;
  schemaId: number | null;
}

export interface SchemaInfo {
  id: number;
  fields: { id: number; name: string; type: string; required: boolean }[];
}

export interface TableMetadata {
  metadataLocation: string | null;
  location: string;
  formatVersion: number;
  lastUpdatedMs: number | null;
  /** What `main` (else current-snapshot-id) points at; null for a table without a snapshot. */
  currentSnapshotId: string | null;
  snapshots: SnapshotInfo[];
  currentSchemaId: number | null;
  schemas: SchemaInfo[];
  /** Each spec as `field: transform(source)` lines. */
  partitionSpec: string[];
  sortOrder: string[];
  properties: Record<string, string>;
  /** Storage settings the catalog sent with the table (vended credentials among them): values to scrub. */
  config: Record<string, string>;
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' ? sanitize(v) : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
const array = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A 64-bit id as its decimal digits (a JSON number, or the string parseLossless made of a long one). */
export function idText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return value;
  return null;
}

function stringMap(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(value))
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      out[sanitize(key)] = sanitize(String(v));
  return out;
}

/** An Iceberg type as one short line: primitives by name, nested types by kind. */
function typeText(type: unknown): string {
  if (typeof type === 'string') return sanitize(type);
  if (isRecord(type) && typeof type.type === 'string') return sanitize(type.type);
  return '?';
}

function readSchema(value: unknown): SchemaInfo | null {
  if (!isRecord(value)) return null;
  const id = int(value['schema-id']) ?? 0;
  const fields = array(value.fields).flatMap((f) => {
    if (!isRecord(f)) return [];
    const fieldId = int(f.id);
    const name = text(f.name);
    if (fieldId === null || name === null) return [];
    return [{ id: fieldId, name, type: typeText(f.type), required: f.required === true }];
  });
  return { id, fields };
}

function readSnapshot(value: unknown): SnapshotInfo | null {
  if (!isRecord(value)) return null;
  const id = idText(value['snapshot-id']);
  const timestampMs = int(value['timestamp-ms']);
  if (id === null || timestampMs === null) return null;
  const summary = stringMap(value.summary);
  return {
    id,
    parentId: idText(value['parent-snapshot-id']),
    sequenceNumber: int(value['sequence-number']) ?? 0,
    timestampMs,
    manifestList: text(value['manifest-list']),
    operation: summary.operation ?? 'unknown',
    summary,
    schemaId: int(value['schema-id']),
  };
}

/** `name: transform(source id)` per partition field of the default spec. */
function specLines(metadata: Json, schemas: SchemaInfo[]): string[] {
  const specs = array(metadata['partition-specs']).filter(isRecord);
  const wanted = int(metadata['default-spec-id']);
  const spec = specs.find((s) => int(s['spec-id']) === wanted) ?? specs[0];
  const fields = spec ? array(spec.fields) : array(metadata['partition-spec']);
  const columnName = (id: number | null) =>
    schemas.flatMap((s) => s.fields).find((f) => f.id === id)?.name ?? `#${id ?? '?'}`;
  return fields.filter(isRecord).map((f) => {
    const source = int(f['source-id']);
    return `${text(f.name) ?? '?'}: ${text(f.transform) ?? '?'}(${columnName(source)})`;
  });
}

function sortLines(metadata: Json, schemas: SchemaInfo[]): string[] {
  const orders = array(metadata['sort-orders']).filter(isRecord);
  const wanted = int(metadata['default-sort-order-id']);
  const order = orders.find((o) => int(o['order-id']) === wanted);
  if (!order) return [];
  const columnName = (id: number | null) =>
    schemas.flatMap((s) => s.fields).find((f) => f.id === id)?.name ?? `#${id ?? '?'}`;
  return array(order.fields)
    .filter(isRecord)
    .map((f) =>
      `${text(f.transform) ?? 'identity'}(${columnName(int(f['source-id']))}) ${text(f.direction) ?? 'asc'} ${text(f['null-order']) ?? ''}`.trimEnd(),
    );
}

/** The metadata of a LoadTableResult (parsed with parseLossless), or what makes it unusable. */
export function readTableMetadata(body: unknown): TableMetadata | { problem: string } {
  if (!isRecord(body)) return { problem: 'the answer is not a JSON object' };
  const metadata = body.metadata;
  if (!isRecord(metadata)) return { problem: 'the answer has no "metadata" object' };
  const location = text(metadata.location);
  if (!location) return { problem: 'the metadata has no location' };
  const schemas = array(metadata.schemas)
    .map(readSchema)
    .filter((s): s is SchemaInfo => s !== null);
  const single = readSchema(metadata.schema);
  if (schemas.length === 0 && single) schemas.push(single);
  const snapshots = array(metadata.snapshots)
    .map(readSnapshot)
    .filter((s): s is SnapshotInfo => s !== null)
    .sort((a, b) => a.timestampMs - b.timestampMs);
  const refs = isRecord(metadata.refs) ? metadata.refs : {};
  const main = isRecord(refs.main) ? idText(refs.main['snapshot-id']) : null;
  const current = idText(metadata['current-snapshot-id']);
  const currentSnapshotId = main ?? (current && current !== '0' ? current : null);
  const metadataLocation = text(body['metadata-location']);
  return {
    metadataLocation: metadataLocation || null,
    location: location.replace(/\/+$/, ''),
    formatVersion: int(metadata['format-version']) ?? 1,
    lastUpdatedMs: int(metadata['last-updated-ms']),
    currentSnapshotId: snapshots.some((s) => s.id === currentSnapshotId) ? currentSnapshotId : null,
    snapshots,
    currentSchemaId: int(metadata['current-schema-id']) ?? single?.id ?? null,
    schemas,
    partitionSpec: specLines(metadata, schemas),
    sortOrder: sortLines(metadata, schemas),
    properties: stringMap(metadata.properties),
    config: stringMap(body.config),
  };
}

/** The current snapshot, if any. */
export function currentSnapshot(meta: TableMetadata): SnapshotInfo | null {
  return meta.snapshots.find((s) => s.id === meta.currentSnapshotId) ?? null;
}

/** The `write.*` properties (what the writer was told about file sizes, formats, modes). */
export function writeProperties(meta: TableMetadata): Record<string, string> {
  return Object.fromEntries(Object.entries(meta.properties).filter(([k]) => k.startsWith('write.')));
}
