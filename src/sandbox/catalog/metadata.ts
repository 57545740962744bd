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

/** A schema's fields by id, with their dotted names (Schema.lazyIdToField, findColumnName). */
function fieldsById(schema: Json): Map<number, { name: string; type: unknown }> {
  const out = new Map<number, { name: string; type: unknown }>();
  const visit = (type: unknown, prefix: string) => {
    if (!isObject(type)) return;
    if (type.type === 'struct' && Array.isArray(type.fields))
      for (const f of type.fields)
        if (isObject(f) && typeof f.id === 'number') {
          const name = `${prefix}${String(f.name)}`;
          out.set(f.id, { name, type: f.type });
          visit(f.type, `${name}.`);
        }
    if (type.type === 'list' && typeof type['element-id'] === 'number') {
      out.set(type['element-id'], { name: `${prefix}element`, type: type.element });
      visit(type.element, `${prefix}element.`);
    }
    if (type.type === 'map' && typeof type['key-id'] === 'number' && typeof type['value-id'] === 'number') {
      out.set(type['key-id'], { name: `${prefix}key`, type: type.key });
      out.set(type['value-id'], { name: `${prefix}value`, type: type.value });
      visit(type.key, `${prefix}key.`);
      visit(type.value, `${prefix}value.`);
    }
  };
  visit({ type: 'struct', fields: schema.fields }, '');
  return out;
}

/** Schema.MIN_FORMAT_VERSIONS: the types a v2 table cannot hold. */
const V3_TYPES = /^(timestamp_ns|timestamptz_ns|variant|unknown|geometry|geography)\b/;

/** Schema.checkCompatibility(schema, 2), with its text. */
function checkSchemaForV2(schema: Json): void {
  const problems = [...fieldsById(schema).entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, f]) => {
      const problems: string[] = [];
      if (typeof f.type === 'string' && V3_TYPES.test(f.type))
        problems.push(`Invalid type for ${f.name}: ${f.type} is not supported until v3`);
      return problems;
    });
  if (problems.length) throw invalid(`Invalid schema for v2:\n- ${problems.join('\n- ')}`);
}

/** Schema.sameSchema: the same struct and the same identifier fields (the schema id aside). */
function sameSchema(a: Json, b: Json): boolean {
  const ids = (s: Json) => JSON.stringify([...((s['identifier-field-ids'] as number[]) ?? [])].sort());
  return JSON.stringify(a.fields) === JSON.stringify(b.fields) && ids(a) === ids(b);
}

/** SortField.toString: `identity(1) ASC NULLS_FIRST`. */
function sortFieldText(f: Json): string {
  const upper = (v: unknown) => String(v).toUpperCase().replace('-', '_');
  return `${String(f.transform)}(${String(f['source-id'])}) ${upper(f.direction)} ${upper(f['null-order'])}`;
}

/** SortOrder.checkCompatibility against the current schema, with its texts. */
function checkSortOrder(fields: Json[], schema: Json): void {
  const byId = fieldsById(schema);
  for (const f of fields) {
    const source = typeof f['source-id'] === 'number' ? byId.get(f['source-id']) : undefined;
    if (!source) throw invalid(`Cannot find source column for sort field: ${sortFieldText(f)}`);
    if (typeof source.type !== 'string')
      throw invalid(`Cannot sort by non-primitive source field: ${JSON.stringify(source.type)}`);
  }
}

const currentSchema = (meta: TableMetadata): Json =>
  meta.schemas.find((s) => s['schema-id'] === meta['current-schema-id']) ?? { fields: [] };

/** A sort order's fields from an update, each with transform, source-id, direction and null-order. */
function parseSortFields(order: unknown): Json[] {
  if (!isObject(order) || !Array.isArray(order.fields))
    throw bad(`Cannot parse sort order from: ${JSON.stringify(order ?? null)}`);
  return order.fields.map((f) => {
    if (
      !isObject(f) ||
      typeof f.transform !== 'string' ||
      typeof f['source-id'] !== 'number' ||
      (f.direction !== 'asc' && f.direction !== 'desc') ||
      (f['null-order'] !== 'nulls-first' && f['null-order'] !== 'nulls-last')
    )
      throw bad(`Cannot parse sort field from: ${JSON.stringify(f)}`);
    return {
      transform: f.transform,
      'source-id': f['source-id'],
      direction: f.direction,
      'null-order': f['null-order'],
    };
  });
}

/**
 * The updates through TableMetadata.Builder, in order, on a copy of `base`; whether anything
 * changed (CatalogHandlers.commit writes nothing for a commit without changes). Served:
 * add-snapshot, set-snapshot-ref, set-properties, remove-properties, assign-uuid, and the schema and
 * sort-order updates OLake's schema evolution sends (add-schema, set-current-schema, add-sort-order,
 * set-default-sort-order: apache/iceberg core TableMetadata.java Builder at apache-iceberg-1.10.0,
 * MetadataUpdate.java). Any other action is refused with 400 BadRequestException naming it: a real
 * server would apply it, so a 400 tells the client plainly that this catalog (the emulator) did not.
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
  // Builder.lastAddedSchemaId / lastAddedOrderId: what -1 means in set-current-schema / set-default-sort-order.
  let lastAddedSchema: number | null = null;
  let lastAddedOrder: number | null = null;
  const addedSchemas = new Set<number>();
  const addedOrders = new Set<number>();
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
      case 'add-schema': {
        // MetadataUpdate.AddSchema.applyTo → Builder.addSchema → addSchemaInternal (the request's
        // last-column-id is ignored: the new last column id is the larger of the table's and the schema's).
        const schema = u.schema;
        if (!isObject(schema) || schema.type !== 'struct' || !Array.isArray(schema.fields))
          throw bad(`Cannot parse schema from: ${JSON.stringify(schema ?? null)}`);
        const highest = Math.max(0, ...fieldsById(schema).keys());
        const lastColumnId = Math.max(meta['last-column-id'], highest);
        checkSchemaForV2(schema);
        // reuseOrCreateNewSchemaId: an equal schema's id, else one above the highest.
        let id = meta['current-schema-id'];
        for (const existing of meta.schemas) {
          const existingId = existing['schema-id'] as number;
          if (sameSchema(existing, schema)) {
            id = existingId;
            break;
          }
          if (existingId >= id) id = existingId + 1;
        }
        const found = meta.schemas.some((s) => s['schema-id'] === id);
        if (found && lastColumnId === meta['last-column-id']) {
          lastAddedSchema = addedSchemas.has(id) ? id : null;
          break;
        }
        meta['last-column-id'] = lastColumnId;
        if (!found) {
          const { 'schema-id': _given, ...rest } = schema;
          meta.schemas.push({ ...rest, 'schema-id': id });
        }
        lastAddedSchema = id;
        addedSchemas.add(id);
        changed = true;
        break;
      }
      case 'set-current-schema': {
        let id = long(u['schema-id'], 'schema-id');
        if (id === -1) {
          if (lastAddedSchema === null)
            throw invalid('Cannot set last added schema: no schema has been added');
          id = lastAddedSchema;
        }
        if (id === meta['current-schema-id']) break;
        if (!meta.schemas.some((s) => s['schema-id'] === id))
          throw bad(`Cannot set current schema to unknown schema: ${id}`);
        meta['current-schema-id'] = id;
        changed = true;
        break;
      }
      case 'add-sort-order': {
        // Builder.addSortOrder → addSortOrderInternal: unsorted is order 0; an equal order keeps its id.
        const fields = parseSortFields(u['sort-order']);
        let id = 0;
        if (fields.length) {
          id = 1;
          for (const order of meta['sort-orders']) {
            if (JSON.stringify(order.fields) === JSON.stringify(fields)) {
              id = order['order-id'];
              break;
            }
            if (id <= order['order-id']) id = order['order-id'] + 1;
          }
        }
        if (meta['sort-orders'].some((o) => o['order-id'] === id)) {
          lastAddedOrder = lastAddedOrder !== null && addedOrders.has(lastAddedOrder) ? id : null;
          break;
        }
        checkSortOrder(fields, currentSchema(meta));
        meta['sort-orders'].push({ 'order-id': id, fields });
        lastAddedOrder = id;
        addedOrders.add(id);
        changed = true;
        break;
      }
      case 'set-default-sort-order': {
        let id = long(u['sort-order-id'], 'sort-order-id');
        if (id === -1) {
          if (lastAddedOrder === null)
            throw invalid('Cannot set last added sort order: no sort order has been added');
          id = lastAddedOrder;
        }
        if (id === meta['default-sort-order-id']) break;
        // Stricter than the Builder, which fails later (build()) on an unknown order.
        if (!meta['sort-orders'].some((o) => o['order-id'] === id))
          throw bad(`Cannot set default sort order to unknown sort order: ${id}`);
        meta['default-sort-order-id'] = id;
        changed = true;
        break;
      }
      default:
        throw bad(
          `Unsupported metadata update action: ${String(u.action)} (the emulator serves add-snapshot, set-snapshot-ref, set-properties, remove-properties, assign-uuid, add-schema, set-current-schema, add-sort-order and set-default-sort-order)`,
        );
    }
  }
  // Builder.build: the default sort order must still bind to the current schema.
  const order = meta['sort-orders'].find((o) => o['order-id'] === meta['default-sort-order-id']);
  if (changed && order) checkSortOrder(order.fields, currentSchema(meta));
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
