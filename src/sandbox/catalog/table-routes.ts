// Which table or namespace route a request is (the spec's paths after the prefix), and the request
// bodies those routes read (apache/iceberg RESTSerializers: a malformed one is 400 BadRequestException).
import type { Denial, FlavourContext, Operation, Privilege, TableRules } from './flavours/index.js';
import { isObject, MetadataError } from './metadata.js';
import { NAMESPACE_SEPARATOR, type NamespaceEntry, type ObjectStore, type TableEntry } from './store.js';

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
export interface Identifier {
  namespace: string[];
  name: string;
}

export function identifier(value: unknown, what: string): Identifier {
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

export function parseBody(body: Buffer): Record<string, unknown> {
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

export function safeBody(body: Buffer): Record<string, unknown> {
  try {
    const parsed = JSON.parse(body.toString('utf8'));
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
