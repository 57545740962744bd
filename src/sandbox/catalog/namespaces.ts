// The namespace routes, as apache/iceberg CatalogHandlers.java serves them (list with pagination,
// create, drop, update properties), with each flavour's texts.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Messages } from './flavours/index.js';
import { empty, icebergError, json } from './http.js';
import { isObject } from './metadata.js';
import { NAMESPACE_SEPARATOR, type NamespaceEntry, nsKey, type TableEntry } from './store.js';

export const dotted = (levels: string[]) => levels.join('.');

/** The spec's pagination (pageToken, pageSize ≥ 1), as the namespace listing always had it. */
export function page<T>(res: ServerResponse, url: URL, items: T[], key: string): void {
  const pageToken = url.searchParams.get('pageToken');
  const pageSizeText = url.searchParams.get('pageSize');
  const pageSize = pageSizeText === null ? 100 : Number(pageSizeText);
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    icebergError(res, 400, 'BadRequestException', 'Invalid pageSize: must be at least 1');
    return;
  }
  if (pageToken === null) {
    json(res, 200, { [key]: items, 'next-page-token': null });
    return;
  }
  const start = pageToken ? Number.parseInt(Buffer.from(pageToken, 'base64url').toString('utf8'), 10) : 0;
  if (!Number.isInteger(start) || start < 0) {
    icebergError(res, 400, 'BadRequestException', 'Invalid pageToken');
    return;
  }
  const next =
    start + pageSize < items.length ? Buffer.from(String(start + pageSize)).toString('base64url') : null;
  json(res, 200, { [key]: items.slice(start, start + pageSize), 'next-page-token': next });
}

/** What the namespace routes read and change. */
interface NamespaceDeps {
  namespaces: Map<string, NamespaceEntry>;
  tables: Map<string, TableEntry>;
  messages: Messages;
}

function listNamespaces({ namespaces, messages }: NamespaceDeps, res: ServerResponse, url: URL) {
  const parentText = url.searchParams.get('parent');
  const parent = parentText ? parentText.split(NAMESPACE_SEPARATOR) : [];
  if (parent.length && !namespaces.has(nsKey(parent)))
    return icebergError(res, 404, 'NoSuchNamespaceException', messages.namespaceMissing(dotted(parent)));
  const children = [...namespaces.values()]
    .map((n) => n.levels)
    .filter((ns) => ns.length === parent.length + 1 && parent.every((part, i) => ns[i] === part));
  page(res, url, children, 'namespaces');
}

async function createNamespace(
  { namespaces, messages }: NamespaceDeps,
  res: ServerResponse,
  request: Record<string, unknown>,
) {
  const levels = request.namespace;
  if (!Array.isArray(levels) || !levels.length || !levels.every((l) => typeof l === 'string' && l))
    return icebergError(
      res,
      400,
      'BadRequestException',
      `Invalid namespace: ${JSON.stringify(levels ?? null)}`,
    );
  const properties: Record<string, string> = {};
  if (request.properties !== undefined && request.properties !== null) {
    if (!isObject(request.properties))
      return icebergError(res, 400, 'BadRequestException', 'Invalid properties: must be an object');
    for (const [k, v] of Object.entries(request.properties)) properties[k] = String(v);
  }
  const name = dotted(levels);
  if (namespaces.has(nsKey(levels)))
    return icebergError(res, 409, 'AlreadyExistsException', messages.namespaceExists(name));
  // Polaris and Lakekeeper create no implicit parents (LocalIcebergCatalog.createNamespace).
  if (levels.length > 1 && !namespaces.has(nsKey(levels.slice(0, -1))))
    return icebergError(res, 404, 'NoSuchNamespaceException', messages.parentMissing(name));
  namespaces.set(nsKey(levels), { levels, properties, uuid: randomUUID() });
  json(res, 200, { namespace: levels, properties });
}

function dropNamespace(
  { namespaces, tables, messages }: NamespaceDeps,
  res: ServerResponse,
  levels: string[],
) {
  const key = nsKey(levels);
  const inside = [...tables.values()].filter((t) => nsKey(t.namespace) === key).length;
  const children = [...namespaces.values()].some(
    (n) => n.levels.length > levels.length && nsKey(n.levels.slice(0, levels.length)) === key,
  );
  if (inside || children)
    return icebergError(
      res,
      409,
      'NamespaceNotEmptyException',
      messages.namespaceNotEmpty(dotted(levels), inside),
    );
  namespaces.delete(key);
  empty(res, 204);
}

/**
 * CatalogHandlers.updateNamespaceProperties (apache-iceberg-1.10.0): UpdateNamespacePropertiesRequest
 * .validate refuses a key both set and removed (422); removals of absent keys come back as missing.
 */
function updateProperties(
  { namespaces, messages }: NamespaceDeps,
  res: ServerResponse,
  levels: string[],
  request: Record<string, unknown>,
) {
  const ns = namespaces.get(nsKey(levels));
  if (!ns)
    return icebergError(res, 404, 'NoSuchNamespaceException', messages.namespaceMissing(dotted(levels)));
  const updates = request.updates ?? {};
  const removals = request.removals ?? [];
  if (!isObject(updates) || !Array.isArray(removals))
    return icebergError(
      res,
      400,
      'BadRequestException',
      'Invalid namespace properties update: updates must be an object, removals an array',
    );
  const removed = removals.map(String);
  const common = removed.filter((key) => key in updates);
  if (common.length)
    return icebergError(
      res,
      422,
      'UnprocessableEntityException',
      `Invalid namespace update, cannot simultaneously set and remove keys: [${common.join(', ')}]`,
    );
  const missing = removed.filter((key) => !(key in ns.properties));
  for (const [key, value] of Object.entries(updates)) ns.properties[key] = String(value);
  for (const key of removed) delete ns.properties[key];
  json(res, 200, {
    updated: Object.keys(updates),
    removed: removed.filter((key) => !missing.includes(key)),
    missing,
  });
}

export function namespaceRoutes(
  namespaces: Map<string, NamespaceEntry>,
  tables: Map<string, TableEntry>,
  messages: Messages,
) {
  const deps: NamespaceDeps = { namespaces, tables, messages };
  return {
    listNamespaces: (res: ServerResponse, url: URL) => listNamespaces(deps, res, url),
    createNamespace: (res: ServerResponse, request: Record<string, unknown>) =>
      createNamespace(deps, res, request),
    dropNamespace: (res: ServerResponse, levels: string[]) => dropNamespace(deps, res, levels),
    updateProperties: (res: ServerResponse, levels: string[], request: Record<string, unknown>) =>
      updateProperties(deps, res, levels, request),
  };
}
