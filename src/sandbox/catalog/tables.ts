// The namespace and table routes of the spec, as apache/iceberg CatalogHandlers.java serves them
// (with each flavour's texts, locations and refusals): namespaces list, create, load, head, drop;
// tables list, create, load, head, commit, drop (with purge).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Denial,
  type FlavourContext,
  type FlavourError,
  type Operation,
  PRIVILEGES_OF,
  type Privilege,
  type TableRules,
} from './flavours/index.js';
import { empty, icebergError, json, refuse } from './http.js';
import { isObject, MetadataError, metadataFile, newTableMetadata, nextVersion } from './metadata.js';
import { dotted, namespaceRoutes, page } from './namespaces.js';
import { checkRequirements } from './requirements.js';
import {
  NAMESPACE_SEPARATOR,
  type NamespaceEntry,
  nsKey,
  type ObjectStore,
  StorageError,
  type TableEntry,
  tableKey,
} from './store.js';
import { applyUpdates } from './updates.js';

/** Who calls, as the flavour's refusals name them. */
export type Caller = Omit<Denial, 'operation' | 'privilege' | 'namespace' | 'table' | 'tableUuid' | 'purge'>;

export interface TableRouteDeps {
  rules: TableRules;
  ctx: FlavourContext;
  store: ObjectStore;
  namespaces: Map<string, NamespaceEntry>;
  tables: Map<string, TableEntry>;
  denied: () => ReadonlySet<Privilege>;
  /** The base of new tables' locations: the emulator's tableLocationBase, else the data location. */
  base: string;
  now(): number;
}

export interface Route {
  operation: Operation;
  namespace?: string[];
  table?: string;
}

/** The operation of a request (the path segments after the prefix), or null: not a route served here. */
export function routeOf(method: string, rest: string[]): Route | null {
  if (rest[0] !== 'namespaces') return null;
  const namespace = rest[1] === undefined ? undefined : rest[1].split(NAMESPACE_SEPARATOR);
  const pick = (ops: Record<string, Operation>): Route | null => {
    const operation = ops[method];
    return operation
      ? {
          operation,
          ...(namespace ? { namespace } : {}),
          ...(rest[3] === undefined ? {} : { table: rest[3] }),
        }
      : null;
  };
  if (rest.length === 1) return pick({ GET: 'list-namespaces', POST: 'create-namespace' });
  if (rest.length === 2)
    return pick({ GET: 'load-namespace', HEAD: 'namespace-exists', DELETE: 'drop-namespace' });
  if (rest.length === 3 && rest[2] === 'tables') return pick({ GET: 'list-tables', POST: 'create-table' });
  if (rest.length === 4 && rest[2] === 'tables')
    return pick({ GET: 'load-table', HEAD: 'table-exists', POST: 'update-table', DELETE: 'drop-table' });
  return null;
}

/** The endpoints of the namespace-property and rename routes, as /v1/config advertises them. */
export const PROPERTIES_ENDPOINT = 'POST /v1/{prefix}/namespaces/{namespace}/properties';
export const RENAME_ENDPOINT = 'POST /v1/{prefix}/tables/rename';

/** A namespace-property update or a table rename (the routes outside routeOf's namespace tree). */
export type MoreRoute =
  | { endpoint: typeof PROPERTIES_ENDPOINT; namespace: string[] }
  | { endpoint: typeof RENAME_ENDPOINT };

export function moreRouteOf(method: string, rest: string[]): MoreRoute | null {
  if (method !== 'POST') return null;
  if (rest.length === 3 && rest[0] === 'namespaces' && rest[2] === 'properties' && rest[1])
    return { endpoint: PROPERTIES_ENDPOINT, namespace: rest[1].split(NAMESPACE_SEPARATOR) };
  if (rest.length === 2 && rest[0] === 'tables' && rest[1] === 'rename') return { endpoint: RENAME_ENDPOINT };
  return null;
}

/** A RenameTableRequest's source or destination: a namespace and a name. */
interface Identifier {
  namespace: string[];
  name: string;
}

function identifier(value: unknown, what: string): Identifier {
  if (
    !isObject(value) ||
    !Array.isArray(value.namespace) ||
    !value.namespace.every((l) => typeof l === 'string') ||
    typeof value.name !== 'string' ||
    !value.name
  )
    throw new MetadataError(
      400,
      'BadRequestException',
      `Invalid ${what} table: ${JSON.stringify(value ?? null)}`,
    );
  return { namespace: value.namespace as string[], name: value.name };
}

function parseBody(body: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new MetadataError(400, 'BadRequestException', `Malformed request: ${(error as Error).message}`);
  }
  if (!isObject(parsed))
    throw new MetadataError(400, 'BadRequestException', 'Malformed request: not a JSON object');
  return parsed;
}

export function tableRoutes(deps: TableRouteDeps) {
  const { rules, namespaces, tables } = deps;
  const messages = rules.messages;
  const { listNamespaces, createNamespace, dropNamespace, updateProperties } = namespaceRoutes(
    namespaces,
    tables,
    messages,
  );
  const fail = (res: ServerResponse, e: FlavourError) => icebergError(res, e.status, e.type, e.message);
  const notFound = (res: ServerResponse, method: string, type: string, message: string) =>
    method === 'HEAD' ? empty(res, 404) : icebergError(res, 404, type, message);
  /** The first privilege the operation needs that the caller lacks. */
  const deniedOf = (operation: Operation) => PRIVILEGES_OF[operation].find((p) => deps.denied().has(p));

  /** Writes a metadata version; false once the storage failure was answered. */
  async function write(res: ServerResponse, location: string, content: unknown): Promise<boolean> {
    try {
      await deps.store.put(location, JSON.stringify(content));
      return true;
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
      fail(res, rules.storageFailure(error.failure));
      return false;
    }
  }

  const loadResult = (entry: TableEntry) => ({
    'metadata-location': entry.metadataLocation,
    metadata: entry.metadata,
    config: {},
  });

  async function createTable(res: ServerResponse, levels: string[], request: Record<string, unknown>) {
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
    if (!(await write(res, file, metadata))) return;
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
  async function commit(
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
    if (!(await write(res, file, next))) return;
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
  async function dropTable(res: ServerResponse, url: URL, entry: TableEntry) {
    const purge = url.searchParams.get('purgeRequested') === 'true';
    if (purge) {
      const refused = rules.purgeRefusal?.(entry.name, deps.ctx);
      if (refused) return fail(res, refused);
    }
    tables.delete(tableKey(entry.namespace, entry.name));
    if (purge)
      await deps.store.remove([...entry.metadata.snapshots.map((s) => s['manifest-list']), ...entry.written]);
    empty(res, 204);
  }

  /** Serves the route; the caller already matched it (routeOf). */
  async function serve(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    route: Route,
    body: Buffer,
    caller: Caller,
    conflict: boolean,
  ): Promise<void> {
    const method = req.method ?? 'GET';
    const levels = route.namespace ?? [];
    const entry = route.table === undefined ? undefined : tables.get(tableKey(levels, route.table));
    const privilege = deniedOf(route.operation);
    if (privilege) {
      const request =
        route.operation === 'create-table' || route.operation === 'create-namespace' ? safeBody(body) : {};
      const namespace =
        route.operation === 'create-namespace' && Array.isArray(request.namespace)
          ? (request.namespace as string[])
          : levels;
      const table = route.table ?? (typeof request.name === 'string' ? request.name : undefined);
      return refuse(
        res,
        deps.rules.deny({
          ...caller,
          operation: route.operation,
          privilege,
          namespace,
          ...(table === undefined ? {} : { table }),
          ...(entry ? { tableUuid: entry.metadata['table-uuid'] } : {}),
          purge: url.searchParams.get('purgeRequested') === 'true',
        }),
      );
    }
    try {
      switch (route.operation) {
        case 'list-namespaces':
          return listNamespaces(res, url);
        case 'create-namespace':
          return await createNamespace(res, parseBody(body));
        // createTable answers a missing namespace in the flavour's words for a table.
        case 'create-table':
          return await createTable(res, levels, parseBody(body));
        default:
      }
      const ns = namespaces.get(nsKey(levels));
      if (!ns)
        return notFound(res, method, 'NoSuchNamespaceException', messages.namespaceMissing(dotted(levels)));
      switch (route.operation) {
        case 'load-namespace':
          return json(res, 200, { namespace: ns.levels, properties: ns.properties });
        case 'namespace-exists':
          return empty(res, 204);
        case 'drop-namespace':
          return dropNamespace(res, levels);
        case 'list-tables': {
          const identifiers = [...tables.values()]
            .filter((t) => nsKey(t.namespace) === nsKey(levels))
            .map((t) => ({ namespace: t.namespace, name: t.name }));
          return page(res, url, identifiers, 'identifiers');
        }
        default:
      }
      // CatalogHandlers.updateTable creates the table for a create transaction (assert-create): not modelled.
      if (!entry && route.operation === 'update-table' && /"assert-create"/.test(body.toString('utf8')))
        return icebergError(
          res,
          406,
          'UnsupportedOperationException',
          'Create transactions (assert-create) are not served here',
        );
      if (!entry)
        return notFound(
          res,
          method,
          'NoSuchTableException',
          messages.tableMissing(`${dotted(levels)}.${route.table}`),
        );
      switch (route.operation) {
        case 'load-table':
          return json(res, 200, loadResult(entry));
        case 'table-exists':
          return empty(res, 204);
        case 'update-table':
          return await commit(res, entry, parseBody(body), conflict);
        default:
          return await dropTable(res, url, entry);
      }
    } catch (error) {
      if (error instanceof MetadataError) return fail(res, error.error);
      throw error;
    }
  }

  /**
   * CatalogHandlers.renameTable → the catalog's renameTable, as apache/iceberg JdbcCatalog.renameTable
   * (apache-iceberg-1.10.0) refuses it: a missing source (404 NoSuchTableException), a missing
   * destination namespace (404 NoSuchNamespaceException), an existing destination (409
   * AlreadyExistsException). The table keeps its location; 204 without a body.
   */
  function renameTable(res: ServerResponse, from: Identifier, to: Identifier) {
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

  /** Serves a namespace-property update or a rename; a denied privilege gets the flavour's refusal. */
  async function serveMore(
    res: ServerResponse,
    route: MoreRoute,
    body: Buffer,
    caller: Caller,
  ): Promise<void> {
    try {
      const request = parseBody(body);
      const refusal = (operation: Operation, namespace: string[], more: Partial<Denial> = {}) => {
        const privilege = deniedOf(operation);
        return privilege
          ? deps.rules.deny({ ...caller, operation, privilege, namespace, purge: false, ...more })
          : null;
      };
      if (route.endpoint === PROPERTIES_ENDPOINT) {
        const refused = refusal('update-namespace-properties', route.namespace);
        return refused ? refuse(res, refused) : updateProperties(res, route.namespace, request);
      }
      const from = identifier(request.source, 'source');
      const to = identifier(request.destination, 'destination');
      const entry = tables.get(tableKey(from.namespace, from.name));
      const refused = refusal('rename-table', from.namespace, {
        table: from.name,
        destination: { namespace: to.namespace, table: to.name },
        ...(entry ? { tableUuid: entry.metadata['table-uuid'] } : {}),
      });
      return refused ? refuse(res, refused) : renameTable(res, from, to);
    } catch (error) {
      if (error instanceof MetadataError) return fail(res, error.error);
      throw error;
    }
  }

  return { serve, serveMore };
}

function safeBody(body: Buffer): Record<string, unknown> {
  try {
    const parsed = JSON.parse(body.toString('utf8'));
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
