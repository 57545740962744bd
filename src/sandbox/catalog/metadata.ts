// Table metadata as apache/iceberg builds it (format version 2): a new table from a
// CreateTableRequest (TableMetadata.newTableMetadata, TypeUtil.assignFreshIds), a commit's
// requirements (UpdateRequirement.java) and updates (MetadataUpdate.java applied through
// TableMetadata.Builder), and the metadata file names (BaseMetastoreTableOperations).
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
const invalid = (message: string) => new MetadataError(400, 'ValidationException', message);
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

function parseSnapshot(value: unknown): Snapshot {
  if (!isObject(value)) throw bad('Cannot parse snapshot from a non-object');
  const summary = value.summary;
  // The spec's Snapshot requires manifest-list and summary.operation (v2 has no embedded manifests);
  // apache/iceberg SnapshotParser would default a missing operation to overwrite: stricter here.
  if (typeof value['manifest-list'] !== 'string' || !value['manifest-list'])
    throw bad('Cannot add a snapshot without a manifest-list: format version 2 requires one');
  if (!isObject(summary) || typeof summary.operation !== 'string')
    throw bad('Cannot add a snapshot without summary.operation');
  const snapshot: Snapshot = {
    'snapshot-id': long(value['snapshot-id'], 'snapshot-id'),
    // SnapshotParser: a missing sequence-number is INITIAL_SEQUENCE_NUMBER (0).
    'sequence-number':
      value['sequence-number'] === undefined ? 0 : long(value['sequence-number'], 'sequence-number'),
    'timestamp-ms': long(value['timestamp-ms'], 'timestamp-ms'),
    'manifest-list': value['manifest-list'],
    summary: Object.fromEntries(
      Object.entries(summary).map(([k, v]) => [k, String(v)]),
    ) as Snapshot['summary'],
  };
  if (value['parent-snapshot-id'] !== undefined && value['parent-snapshot-id'] !== null)
    snapshot['parent-snapshot-id'] = long(value['parent-snapshot-id'], 'parent-snapshot-id');
  if (value['schema-id'] !== undefined) snapshot['schema-id'] = long(value['schema-id'], 'schema-id');
  return snapshot;
}

/**
 * The updates through TableMetadata.Builder, in order, on a copy of `base`; whether anything
 * changed (CatalogHandlers.commit writes nothing for a commit without changes). Served:
 * add-snapshot, set-snapshot-ref, set-properties, remove-properties, assign-uuid. Any other action
 * is refused with 400 BadRequestException naming it: a real server would apply it, so a 400 tells
 * the client plainly that this catalog (the emulator) did not.
 */
export function applyUpdates(
  base: TableMetadata,
  updates: unknown,
  now: number,
): { metadata: TableMetadata; changed: boolean } {
  if (!Array.isArray(updates)) throw bad('Invalid updates: must be an array');
  const meta: TableMetadata = structuredClone(base);
  const added = new Set<number>();
  let changed = false;
  for (const u of updates) {
    if (!isObject(u)) throw bad(`Cannot parse metadata update from: ${JSON.stringify(u)}`);
    switch (u.action) {
      case 'add-snapshot': {
        const snapshot = parseSnapshot(u.snapshot);
        if (meta.snapshots.some((s) => s['snapshot-id'] === snapshot['snapshot-id']))
          throw invalid(`Snapshot already exists for id: ${snapshot['snapshot-id']}`);
        // TableMetadata.Builder.addSnapshot exempts a snapshot without a parent; the emulator does
        // not (a new snapshot's sequence number must always move on). CatalogHandlers.commit turns
        // the RetryableValidationException into a CommitFailedException.
        if (snapshot['sequence-number'] <= meta['last-sequence-number'])
          throw conflict(
            `Validation failed, please retry: Cannot add snapshot with sequence number ${snapshot['sequence-number']} older than last sequence number ${meta['last-sequence-number']}`,
          );
        // Stricter than the Builder, which does not look: the schema a snapshot names must exist.
        if (
          snapshot['schema-id'] !== undefined &&
          !meta.schemas.some((s) => s['schema-id'] === snapshot['schema-id'])
        )
          throw invalid(`Cannot add snapshot with unknown schema id: ${snapshot['schema-id']}`);
        meta['last-sequence-number'] = snapshot['sequence-number'];
        meta.snapshots.push(snapshot);
        added.add(snapshot['snapshot-id']);
        changed = true;
        break;
      }
      case 'set-snapshot-ref': {
        const name = u['ref-name'];
        if (typeof name !== 'string' || !name) throw bad('Invalid ref-name: null');
        if (u.type !== 'branch' && u.type !== 'tag')
          throw bad(`Invalid snapshot ref type: ${String(u.type)}`);
        const id = long(u['snapshot-id'], 'snapshot-id');
        const snapshot = meta.snapshots.find((s) => s['snapshot-id'] === id);
        if (!snapshot) throw invalid(`Cannot set ${name} to unknown snapshot: ${id}`);
        if (name === 'main' && u.type !== 'branch')
          throw invalid('Cannot set main to a tag, it must be a branch');
        const ref: SnapshotRef = { 'snapshot-id': id, type: u.type };
        for (const key of ['min-snapshots-to-keep', 'max-snapshot-age-ms', 'max-ref-age-ms'] as const)
          if (typeof u[key] === 'number') ref[key] = u[key] as number;
        if (JSON.stringify(meta.refs[name]) === JSON.stringify(ref)) break;
        if (name === 'main') {
          meta['current-snapshot-id'] = id;
          // Builder.setRef: the log entry takes an added snapshot's time, a rollback's the change's.
          meta['snapshot-log'].push({
            'timestamp-ms': added.has(id) ? snapshot['timestamp-ms'] : now,
            'snapshot-id': id,
          });
        }
        meta.refs[name] = ref;
        changed = true;
        break;
      }
      case 'set-properties': {
        if (!isObject(u.updates)) throw bad('Invalid set-properties: updates must be an object');
        for (const [k, v] of Object.entries(u.updates)) meta.properties[k] = String(v);
        changed = true;
        break;
      }
      case 'remove-properties': {
        if (!Array.isArray(u.removals)) throw bad('Invalid remove-properties: removals must be an array');
        for (const k of u.removals) delete meta.properties[String(k)];
        changed = true;
        break;
      }
      case 'assign-uuid':
        // Builder.assignUUID would take another uuid; the emulator only takes the table's own.
        if (String(u.uuid).toLowerCase() !== meta['table-uuid'].toLowerCase())
          throw invalid(`Cannot reassign uuid ${meta['table-uuid']} to ${String(u.uuid)}`);
        break;
      default:
        throw bad(
          `Unsupported metadata update action: ${String(u.action)} (the emulator serves add-snapshot, set-snapshot-ref, set-properties, remove-properties and assign-uuid)`,
        );
    }
  }
  return { metadata: meta, changed };
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
