// The table routes that write, as apache/iceberg CatalogHandlers.java serves them (with each flavour's
// texts, locations and refusals): create, commit (requirements, updates, a new metadata file), drop
// (with purge) and rename.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { empty, icebergError, json } from './http.js';
import { isObject, metadataFile, newTableMetadata, nextVersion } from './metadata.js';
import { dotted } from './namespaces.js';
import { checkRequirements } from './requirements.js';
import { nsKey, StorageError, type TableEntry, tableKey } from './store.js';
import type { Identifier, TableRouteDeps } from './table-routes.js';
import { applyUpdates } from './updates.js';

/** Writes a metadata version; false once the storage failure was answered. */
async function write(
  deps: TableRouteDeps,
  res: ServerResponse,
  location: string,
  content: unknown,
): Promise<boolean> {
  try {
    await deps.store.put(location, JSON.stringify(content));
    return true;
  } catch (error) {
    if (!(error instanceof StorageError)) throw error;
    const failure = deps.rules.storageFailure(error.failure);
    icebergError(res, failure.status, failure.type, failure.message);
    return false;
  }
}

export const loadResult = (entry: TableEntry) => ({
  'metadata-location': entry.metadataLocation,
  metadata: entry.metadata,
  config: {},
});

export async function createTable(
  deps: TableRouteDeps,
  res: ServerResponse,
  levels: string[],
  request: Record<string, unknown>,
) {
  const { rules, namespaces, tables } = deps;
  const messages = rules.messages;
  const name = request.name;
  if (typeof name !== 'string' || !name)
    return icebergError(res, 400, 'BadRequestException', 'Invalid table name: null');
  const id = `${dotted(levels)}.${name}`;
  if (request['stage-create'] === true)
    return icebergError(
      res,
      406,
      'UnsupportedOperationException',
      'Staged table creation (stage-create) is not served here',
    );
  if (!namespaces.has(nsKey(levels)))
    return icebergError(
      res,
      404,
      'NoSuchNamespaceException',
      messages.tableNamespaceMissing(id, dotted(levels)),
    );
  if (tables.has(tableKey(levels, name)))
    return icebergError(res, 409, 'AlreadyExistsException', messages.tableExists(id));
  const uuid = randomUUID();
  const given = typeof request.location === 'string' && request.location ? request.location : undefined;
  const location = (
    given ??
    rules.tableLocation({
      base: deps.base,
      namespace: levels,
      namespaceProperties: levels.map(
        (_, i) => namespaces.get(nsKey(levels.slice(0, i + 1)))?.properties ?? {},
      ),
      namespaceUuid: namespaces.get(nsKey(levels))!.uuid,
      table: name,
      tableUuid: uuid,
    })
  ).replace(/\/+$/, '');
  const metadata = newTableMetadata(request, location, uuid, deps.now());
  const file = metadataFile(location, 0, randomUUID());
  if (!(await write(deps, res, file, metadata))) return;
  const entry: TableEntry = {
    namespace: levels,
    name,
    metadata,
    metadataLocation: file,
    version: 0,
    written: [file],
  };
  tables.set(tableKey(levels, name), entry);
  json(res, 200, loadResult(entry));
}

/** CatalogHandlers.updateTable → commit: requirements, then updates, then a new metadata file. */
export async function commit(
  deps: TableRouteDeps,
  res: ServerResponse,
  entry: TableEntry,
  request: Record<string, unknown>,
  conflict: boolean,
) {
  const requirements = request.requirements;
  const isCreate =
    Array.isArray(requirements) && requirements.some((r) => isObject(r) && r.type === 'assert-create');
  if (conflict && !isCreate) {
    const main = Array.isArray(requirements)
      ? requirements.find((r) => isObject(r) && r.type === 'assert-ref-snapshot-id' && r.ref === 'main')
      : undefined;
    const expected = isObject(main) ? main['snapshot-id'] : entry.metadata.refs.main?.['snapshot-id'];
    const concurrent = Math.floor(Math.random() * 2 ** 52) + 1;
    return icebergError(
      res,
      409,
      'CommitFailedException',
      expected === null || expected === undefined
        ? 'Requirement failed: branch main was created concurrently'
        : `Requirement failed: branch main has changed: expected id ${expected} != ${concurrent}`,
    );
  }
  checkRequirements(entry.metadata, requirements);
  const now = deps.now();
  const { metadata, changed } = applyUpdates(entry.metadata, request.updates ?? [], now);
  if (!changed)
    return json(res, 200, { 'metadata-location': entry.metadataLocation, metadata: entry.metadata });
  const next = nextVersion(
    metadata,
    { location: entry.metadataLocation, updatedMs: entry.metadata['last-updated-ms'] },
    now,
  );
  const file = metadataFile(next.location, entry.version + 1, randomUUID());
  if (!(await write(deps, res, file, next))) return;
  Object.assign(entry, { metadata: next, metadataLocation: file, version: entry.version + 1 });
  entry.written.push(file);
  json(res, 200, { 'metadata-location': file, metadata: next });
}

/**
 * DELETE …?purgeRequested=true deletes, before answering, the metadata files the emulator wrote
 * for the table and the manifest lists its snapshots name (apache/iceberg CatalogUtil.dropTableData
 * also reads the manifests to delete data files and manifests; the emulator reads no Avro, so
 * those stay). Real Polaris purges asynchronously: LocalIcebergCatalog.dropTable schedules a
 * cleanup task (TableCleanupTaskHandler, then a task per manifest), so right after its 204 the
 * files may still be there, and a client cannot count on the catalog to have removed anything.
 */
export async function dropTable(deps: TableRouteDeps, res: ServerResponse, url: URL, entry: TableEntry) {
  const purge = url.searchParams.get('purgeRequested') === 'true';
  if (purge) {
    const refused = deps.rules.purgeRefusal?.(entry.name, deps.ctx);
    if (refused) return icebergError(res, refused.status, refused.type, refused.message);
  }
  deps.tables.delete(tableKey(entry.namespace, entry.name));
  if (purge)
    await deps.store.remove([...entry.metadata.snapshots.map((s) => s['manifest-list']), ...entry.written]);
  empty(res, 204);
}

/**
 * CatalogHandlers.renameTable → the catalog's renameTable, as apache/iceberg JdbcCatalog.renameTable
 * (apache-iceberg-1.10.0) refuses it: a missing source (404 NoSuchTableException), a missing
 * destination namespace (404 NoSuchNamespaceException), an existing destination (409
 * AlreadyExistsException). The table keeps its location; 204 without a body.
 */
export function renameTable(deps: TableRouteDeps, res: ServerResponse, from: Identifier, to: Identifier) {
  const { namespaces, tables } = deps;
  const messages = deps.rules.messages;
  const entry = tables.get(tableKey(from.namespace, from.name));
  const fromName = `${dotted(from.namespace)}.${from.name}`;
  const toName = `${dotted(to.namespace)}.${to.name}`;
  if (!entry) return icebergError(res, 404, 'NoSuchTableException', messages.tableMissing(fromName));
  if (!namespaces.has(nsKey(to.namespace)))
    return icebergError(
      res,
      404,
      'NoSuchNamespaceException',
      messages.namespaceMissing(dotted(to.namespace)),
    );
  if (tables.has(tableKey(to.namespace, to.name)))
    return icebergError(res, 409, 'AlreadyExistsException', messages.tableExists(toName));
  tables.delete(tableKey(from.namespace, from.name));
  Object.assign(entry, { namespace: to.namespace, name: to.name });
  tables.set(tableKey(to.namespace, to.name), entry);
  empty(res, 204);
}
