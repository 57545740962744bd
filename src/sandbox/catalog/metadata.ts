// Table metadata as apache/iceberg builds it (format version 2): a new table from a
// CreateTableRequest (TableMetadata.newTableMetadata, TypeUtil.assignFreshIds), the next version and
// the metadata file names (BaseMetastoreTableOperations). A commit's requirements (UpdateRequirement.java)
// are in requirements.ts, its updates (MetadataUpdate.java through TableMetadata.Builder) in updates.ts.
import type { FlavourError } from './flavours/index.js';

export type Json = Record<string, unknown>;

export interface Snapshot {
  'snapshot-id': number;
  'parent-snapshot-id'?: number;
  'sequence-number': number;
  'timestamp-ms': number;
  'manifest-list': string;
  summary: { operation: string } & Record<string, string>;
  'schema-id'?: number;
}

export interface SnapshotRef {
  'snapshot-id': number;
  type: 'branch' | 'tag';
  'min-snapshots-to-keep'?: number;
  'max-snapshot-age-ms'?: number;
  'max-ref-age-ms'?: number;
}

export interface TableMetadata {
  'format-version': 2;
  'table-uuid': string;
  location: string;
  'last-sequence-number': number;
  'last-updated-ms': number;
  'last-column-id': number;
  'current-schema-id': number;
  schemas: Json[];
  'default-spec-id': number;
  'partition-specs': { 'spec-id': number; fields: Json[] }[];
  'last-partition-id': number;
  'default-sort-order-id': number;
  'sort-orders': { 'order-id': number; fields: Json[] }[];
  properties: Record<string, string>;
  /** -1 without a snapshot, as TableMetadataParser writes it. */
  'current-snapshot-id': number;
  refs: Record<string, SnapshotRef>;
  snapshots: Snapshot[];
  statistics: Json[];
  'partition-statistics': Json[];
  'snapshot-log': { 'timestamp-ms': number; 'snapshot-id': number }[];
  'metadata-log': { 'timestamp-ms': number; 'metadata-file': string }[];
}

/** A request the metadata rules refuse. */
export class MetadataError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
  get error(): FlavourError {
    return { status: this.status, type: this.type, message: this.message };
  }
}

export const bad = (message: string) => new MetadataError(400, 'BadRequestException', message);
export const invalid = (message: string) => new MetadataError(400, 'ValidationException', message);
export const conflict = (message: string) => new MetadataError(409, 'CommitFailedException', message);
/** What the emulator does not model: UnsupportedOperationException, as for routes it does not serve. */
const unmodelled = (message: string) => new MetadataError(406, 'UnsupportedOperationException', message);

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A long the emulator can hold: JSON numbers above 2^53 lose digits in JavaScript, so they are refused. */
export function long(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw bad(`Cannot parse ${what} to a long value: ${String(value)}`);
  if (!Number.isSafeInteger(value))
    throw unmodelled(`${what} ${value} is beyond 2^53: the emulator holds ids as JavaScript numbers`);
  return value;
}

/** TableMetadata.newTableMetadata: format-version is taken out of the properties; v2 only here. */
const PARQUET_CODEC = 'write.parquet.compression-codec';

/**
 * TypeUtil.assignFreshIds (AssignFreshIds): a struct's fields get ids first, then their nested
 * types, depth first; a list's element id, a map's key then value id, before their types.
 */
function freshIds(schema: Json): { fields: Json[]; last: number; ids: Map<number, number> } {
  let next = 0;
  const ids = new Map<number, number>();
  const type = (t: unknown): unknown => {
    if (typeof t === 'string') return t;
    if (!isObject(t)) throw bad(`Cannot parse type from: ${JSON.stringify(t)}`);
    if (t.type === 'struct') return { type: 'struct', fields: struct(t.fields) };
    if (t.type === 'list') {
      const elementId = ++next;
      if (typeof t['element-id'] === 'number') ids.set(t['element-id'], elementId);
      return { ...t, 'element-id': elementId, element: type(t.element) };
    }
    if (t.type === 'map') {
      const keyId = ++next;
      const valueId = ++next;
      if (typeof t['key-id'] === 'number') ids.set(t['key-id'], keyId);
      if (typeof t['value-id'] === 'number') ids.set(t['value-id'], valueId);
      return { ...t, 'key-id': keyId, 'value-id': valueId, key: type(t.key), value: type(t.value) };
    }
    throw bad(`Cannot parse type from: ${JSON.stringify(t)}`);
  };
  const struct = (fields: unknown): Json[] => {
    if (!Array.isArray(fields)) throw bad('Invalid schema: fields must be an array');
    const numbered = fields.map((f) => {
      if (!isObject(f) || typeof f.name !== 'string' || typeof f.required !== 'boolean')
        throw bad(`Cannot parse struct field from: ${JSON.stringify(f)}`);
      const id = ++next;
      if (typeof f.id === 'number') ids.set(f.id, id);
      return { ...f, id } as Json;
    });
    return numbered.map((f) => ({ ...f, type: type(f.type) }));
  };
  if (schema.type !== 'struct') throw bad('Invalid schema: the type must be struct');
  const fields = struct(schema.fields);
  return { fields, last: next, ids };
}

function remapSource(fields: unknown, ids: Map<number, number>, what: string): Json[] {
  if (fields === undefined) return [];
  if (!Array.isArray(fields)) throw bad(`Invalid ${what}: fields must be an array`);
  return fields.map((f) => {
    const source = isObject(f) ? f['source-id'] : undefined;
    const mapped = typeof source === 'number' ? ids.get(source) : undefined;
    if (mapped === undefined)
      throw invalid(`Cannot find source column for ${what} field: ${JSON.stringify(f)}`);
    return { ...(f as Json), 'source-id': mapped };
  });
}

/** CatalogHandlers.createTable → TableMetadata.newTableMetadata for a CreateTableRequest. */
export function newTableMetadata(request: Json, location: string, uuid: string, now: number): TableMetadata {
  if (!isObject(request.schema)) throw bad('Invalid schema: null');
  const properties: Record<string, string> = {};
  if (request.properties !== undefined) {
    if (!isObject(request.properties)) throw bad('Invalid properties: must be an object');
    for (const [k, v] of Object.entries(request.properties)) properties[k] = String(v);
  }
  const version = properties['format-version'];
  delete properties['format-version'];
  if (version !== undefined && version !== '2')
    throw unmodelled(`format-version ${version}: the emulator models format version 2 only`);
  // TableMetadata.persistedProperties: new tables get zstd unless the request says otherwise.
  properties[PARQUET_CODEC] ??= 'zstd';
  const { fields, last, ids } = freshIds(request.schema);
  const identifiers = request.schema['identifier-field-ids'];
  const schema: Json = { type: 'struct', 'schema-id': 0, fields };
  if (Array.isArray(identifiers) && identifiers.length)
    schema['identifier-field-ids'] = identifiers.map((id) => ids.get(id as number) ?? id);
  const spec = isObject(request['partition-spec']) ? request['partition-spec'] : {};
  const partitionFields = remapSource(spec.fields, ids, 'partition').map((f, i) => ({
    ...f,
    'field-id': 1000 + i,
  }));
  const order = isObject(request['write-order']) ? request['write-order'] : {};
  const orderFields = remapSource(order.fields, ids, 'sort order');
  return {
    'format-version': 2,
    'table-uuid': uuid,
    location,
    'last-sequence-number': 0,
    'last-updated-ms': now,
    'last-column-id': last,
    'current-schema-id': 0,
    schemas: [schema],
    'default-spec-id': 0,
    'partition-specs': [{ 'spec-id': 0, fields: partitionFields }],
    'last-partition-id': 999 + partitionFields.length,
    'default-sort-order-id': orderFields.length ? 1 : 0,
    'sort-orders': [{ 'order-id': orderFields.length ? 1 : 0, fields: orderFields }],
    properties,
    'current-snapshot-id': -1,
    refs: {},
    snapshots: [],
    statistics: [],
    'partition-statistics': [],
    'snapshot-log': [],
    'metadata-log': [],
  };
}

/** write.metadata.previous-versions-max's default. */
const PREVIOUS_VERSIONS_MAX = 100;

/** The next metadata version: last-updated-ms now, the previous file in metadata-log. */
export function nextVersion(
  meta: TableMetadata,
  previous: { location: string; updatedMs: number },
  now: number,
): TableMetadata {
  const log = [
    ...meta['metadata-log'],
    { 'timestamp-ms': previous.updatedMs, 'metadata-file': previous.location },
  ];
  return { ...meta, 'last-updated-ms': now, 'metadata-log': log.slice(-PREVIOUS_VERSIONS_MAX) };
}

/** BaseMetastoreTableOperations.newTableMetadataFilePath: <location>/metadata/<5-digit version>-<uuid>.metadata.json. */
export function metadataFile(location: string, version: number, uuid: string): string {
  return `${location}/metadata/${String(version).padStart(5, '0')}-${uuid}.metadata.json`;
}
