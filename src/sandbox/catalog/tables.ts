// The namespace and table routes of the spec, as apache/iceberg CatalogHandlers.java serves them
// (with each flavour's texts, locations and refusals): namespaces list, create, load, head, drop;
// tables list, create, load, head, commit, drop (with purge). Which route a request is: table-routes.ts;
// the routes that write a table: table-writes.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Denial,
  type FlavourError,
  type Operation,
  PRIVILEGES_OF,
  type Privilege,
} from './flavours/index.js';
import { empty, icebergError, json, refuse } from './http.js';
import { MetadataError } from './metadata.js';
import { dotted, namespaceRoutes, page } from './namespaces.js';
import { nsKey, type TableEntry, tableKey } from './store.js';
import {
  type Caller,
  identifier,
  type MoreRoute,
  PROPERTIES_ENDPOINT,
  parseBody,
  type Route,
  safeBody,
  type TableRouteDeps,
} from './table-routes.js';
import { commit, createTable, dropTable, loadResult, renameTable } from './table-writes.js';

export {
  type Caller,
  type MoreRoute,
  moreRouteOf,
  PROPERTIES_ENDPOINT,
  RENAME_ENDPOINT,
  type Route,
  routeOf,
  type TableRouteDeps,
} from './table-routes.js';

type NamespaceRoutes = ReturnType<typeof namespaceRoutes>;

const fail = (res: ServerResponse, e: FlavourError) => icebergError(res, e.status, e.type, e.message);

/** The first privilege the operation needs that the caller lacks. */
const deniedOf = (deps: TableRouteDeps, operation: Operation) =>
  PRIVILEGES_OF[operation].find((p) => deps.denied().has(p));

const notFound = (res: ServerResponse, method: string, type: string, message: string) =>
  method === 'HEAD' ? empty(res, 404) : icebergError(res, 404, type, message);

/** Who was refused what: the flavour's refusal of a route the caller lacks a privilege for names these. */
function denial(
  route: Route,
  url: URL,
  body: Buffer,
  caller: Caller,
  entry: TableEntry | undefined,
  privilege: Privilege,
): Denial {
  const levels = route.namespace ?? [];
  const request =
    route.operation === 'create-table' || route.operation === 'create-namespace' ? safeBody(body) : {};
  const namespace =
    route.operation === 'create-namespace' && Array.isArray(request.namespace)
      ? (request.namespace as string[])
      : levels;
  const table = route.table ?? (typeof request.name === 'string' ? request.name : undefined);
  return {
    ...caller,
    operation: route.operation,
    privilege,
    namespace,
    ...(table === undefined ? {} : { table }),
    ...(entry ? { tableUuid: entry.metadata['table-uuid'] } : {}),
    purge: url.searchParams.get('purgeRequested') === 'true',
  };
}

interface TableRequest {
  method: string;
  url: URL;
  route: Route;
  levels: string[];
  entry: TableEntry | undefined;
  body: Buffer;
  conflict: boolean;
}

/** The routes on one table: load, head, commit, drop. */
async function serveTable(
  deps: TableRouteDeps,
  res: ServerResponse,
  { method, url, route, levels, entry, body, conflict }: TableRequest,
): Promise<void> {
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
      deps.rules.messages.tableMissing(`${dotted(levels)}.${route.table}`),
    );
  switch (route.operation) {
    case 'load-table':
      return json(res, 200, loadResult(entry));
    case 'table-exists':
      return empty(res, 204);
    case 'update-table':
      return await commit(deps, res, entry, parseBody(body), conflict);
    default:
      return await dropTable(deps, res, url, entry);
  }
}

/** Serves a namespace-property update or a rename; a denied privilege gets the flavour's refusal. */
async function serveMore(
  deps: TableRouteDeps,
  updateProperties: NamespaceRoutes['updateProperties'],
  res: ServerResponse,
  route: MoreRoute,
  body: Buffer,
  caller: Caller,
): Promise<void> {
  try {
    const request = parseBody(body);
    const refusal = (operation: Operation, namespace: string[], more: Partial<Denial> = {}) => {
      const privilege = deniedOf(deps, operation);
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
    const entry = deps.tables.get(tableKey(from.namespace, from.name));
    const refused = refusal('rename-table', from.namespace, {
      table: from.name,
      destination: { namespace: to.namespace, table: to.name },
      ...(entry ? { tableUuid: entry.metadata['table-uuid'] } : {}),
    });
    return refused ? refuse(res, refused) : renameTable(deps, res, from, to);
  } catch (error) {
    if (error instanceof MetadataError) return fail(res, error.error);
    throw error;
  }
}

export function tableRoutes(deps: TableRouteDeps) {
  const { rules, namespaces, tables } = deps;
  const messages = rules.messages;
  const { listNamespaces, createNamespace, dropNamespace, updateProperties } = namespaceRoutes(
    namespaces,
    tables,
    messages,
  );

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
    const privilege = deniedOf(deps, route.operation);
    if (privilege) return refuse(res, deps.rules.deny(denial(route, url, body, caller, entry, privilege)));
    try {
      switch (route.operation) {
        case 'list-namespaces':
          return listNamespaces(res, url);
        case 'create-namespace':
          return await createNamespace(res, parseBody(body));
        // createTable answers a missing namespace in the flavour's words for a table.
        case 'create-table':
          return await createTable(deps, res, levels, parseBody(body));
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
      return await serveTable(deps, res, { method, url, route, levels, entry, body, conflict });
    } catch (error) {
      if (error instanceof MetadataError) return fail(res, error.error);
      throw error;
    }
  }

  return {
    serve,
    serveMore: (res: ServerResponse, route: MoreRoute, body: Buffer, caller: Caller) =>
      serveMore(deps, updateProperties, res, route, body, caller),
  };
}
