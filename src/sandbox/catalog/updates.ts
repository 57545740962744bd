// A commit's updates as apache/iceberg applies them (MetadataUpdate.java through TableMetadata.Builder,
// apache-iceberg-1.10.0), one function per action, with the schema and sort-order checks they make.
import {
  bad,
  conflict,
  invalid,
  isObject,
  type Json,
  long,
  type Snapshot,
  type SnapshotRef,
  type TableMetadata,
} from './metadata.js';

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

/** TableMetadata.Builder's state over one commit's updates. */
interface Builder {
  meta: TableMetadata;
  now: number;
  /** Snapshots added by this commit. */
  added: Set<number>;
  changed: boolean;
  // Builder.lastAddedSchemaId / lastAddedOrderId: what -1 means in set-current-schema / set-default-sort-order.
  lastAddedSchema: number | null;
  lastAddedOrder: number | null;
  addedSchemas: Set<number>;
  addedOrders: Set<number>;
}

function addSnapshot(b: Builder, u: Json): void {
  const { meta } = b;
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
  b.added.add(snapshot['snapshot-id']);
  b.changed = true;
}

function setSnapshotRef(b: Builder, u: Json): void {
  const { meta } = b;
  const name = u['ref-name'];
  if (typeof name !== 'string' || !name) throw bad('Invalid ref-name: null');
  if (u.type !== 'branch' && u.type !== 'tag') throw bad(`Invalid snapshot ref type: ${String(u.type)}`);
  const id = long(u['snapshot-id'], 'snapshot-id');
  const snapshot = meta.snapshots.find((s) => s['snapshot-id'] === id);
  if (!snapshot) throw invalid(`Cannot set ${name} to unknown snapshot: ${id}`);
  if (name === 'main' && u.type !== 'branch') throw invalid('Cannot set main to a tag, it must be a branch');
  const ref: SnapshotRef = { 'snapshot-id': id, type: u.type };
  for (const key of ['min-snapshots-to-keep', 'max-snapshot-age-ms', 'max-ref-age-ms'] as const)
    if (typeof u[key] === 'number') ref[key] = u[key] as number;
  if (JSON.stringify(meta.refs[name]) === JSON.stringify(ref)) return;
  if (name === 'main') {
    meta['current-snapshot-id'] = id;
    // Builder.setRef: the log entry takes an added snapshot's time, a rollback's the change's.
    meta['snapshot-log'].push({
      'timestamp-ms': b.added.has(id) ? snapshot['timestamp-ms'] : b.now,
      'snapshot-id': id,
    });
  }
  meta.refs[name] = ref;
  b.changed = true;
}

function setProperties(b: Builder, u: Json): void {
  const { meta } = b;
  if (!isObject(u.updates)) throw bad('Invalid set-properties: updates must be an object');
  for (const [k, v] of Object.entries(u.updates)) meta.properties[k] = String(v);
  b.changed = true;
}

function removeProperties(b: Builder, u: Json): void {
  const { meta } = b;
  if (!Array.isArray(u.removals)) throw bad('Invalid remove-properties: removals must be an array');
  for (const k of u.removals) delete meta.properties[String(k)];
  b.changed = true;
}

function assignUuid(b: Builder, u: Json): void {
  const { meta } = b;
  // Builder.assignUUID would take another uuid; the emulator only takes the table's own.
  if (String(u.uuid).toLowerCase() !== meta['table-uuid'].toLowerCase())
    throw invalid(`Cannot reassign uuid ${meta['table-uuid']} to ${String(u.uuid)}`);
}

function addSchema(b: Builder, u: Json): void {
  const { meta } = b;
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
    b.lastAddedSchema = b.addedSchemas.has(id) ? id : null;
    return;
  }
  meta['last-column-id'] = lastColumnId;
  if (!found) {
    const { 'schema-id': _given, ...rest } = schema;
    meta.schemas.push({ ...rest, 'schema-id': id });
  }
  b.lastAddedSchema = id;
  b.addedSchemas.add(id);
  b.changed = true;
}

function setCurrentSchema(b: Builder, u: Json): void {
  const { meta } = b;
  let id = long(u['schema-id'], 'schema-id');
  if (id === -1) {
    if (b.lastAddedSchema === null) throw invalid('Cannot set last added schema: no schema has been added');
    id = b.lastAddedSchema;
  }
  if (id === meta['current-schema-id']) return;
  if (!meta.schemas.some((s) => s['schema-id'] === id))
    throw bad(`Cannot set current schema to unknown schema: ${id}`);
  meta['current-schema-id'] = id;
  b.changed = true;
}

function addSortOrder(b: Builder, u: Json): void {
  const { meta } = b;
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
    b.lastAddedOrder = b.lastAddedOrder !== null && b.addedOrders.has(b.lastAddedOrder) ? id : null;
    return;
  }
  checkSortOrder(fields, currentSchema(meta));
  meta['sort-orders'].push({ 'order-id': id, fields });
  b.lastAddedOrder = id;
  b.addedOrders.add(id);
  b.changed = true;
}

function setDefaultSortOrder(b: Builder, u: Json): void {
  const { meta } = b;
  let id = long(u['sort-order-id'], 'sort-order-id');
  if (id === -1) {
    if (b.lastAddedOrder === null)
      throw invalid('Cannot set last added sort order: no sort order has been added');
    id = b.lastAddedOrder;
  }
  if (id === meta['default-sort-order-id']) return;
  // Stricter than the Builder, which fails later (build()) on an unknown order.
  if (!meta['sort-orders'].some((o) => o['order-id'] === id))
    throw bad(`Cannot set default sort order to unknown sort order: ${id}`);
  meta['default-sort-order-id'] = id;
  b.changed = true;
}

const ACTIONS = new Map<unknown, (b: Builder, u: Json) => void>([
  ['add-snapshot', addSnapshot],
  ['set-snapshot-ref', setSnapshotRef],
  ['set-properties', setProperties],
  ['remove-properties', removeProperties],
  ['assign-uuid', assignUuid],
  ['add-schema', addSchema],
  ['set-current-schema', setCurrentSchema],
  ['add-sort-order', addSortOrder],
  ['set-default-sort-order', setDefaultSortOrder],
]);

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
  const b: Builder = {
    meta: structuredClone(base),
    now,
    added: new Set(),
    changed: false,
    lastAddedSchema: null,
    lastAddedOrder: null,
    addedSchemas: new Set(),
    addedOrders: new Set(),
  };
  for (const u of updates) {
    if (!isObject(u)) throw bad(`Cannot parse metadata update from: ${JSON.stringify(u)}`);
    const apply = ACTIONS.get(u.action);
    if (!apply)
      throw bad(
        `Unsupported metadata update action: ${String(u.action)} (the emulator serves add-snapshot, set-snapshot-ref, set-properties, remove-properties, assign-uuid, add-schema, set-current-schema, add-sort-order and set-default-sort-order)`,
      );
    apply(b, u);
  }
  const { meta, changed } = b;
  // Builder.build: the default sort order must still bind to the current schema.
  const order = meta['sort-orders'].find((o) => o['order-id'] === meta['default-sort-order-id']);
  if (changed && order) checkSortOrder(order.fields, currentSchema(meta));
  return { metadata: meta, changed };
}
