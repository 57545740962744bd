// Helpers every flavour uses: error constructors, Iceberg's own message texts, the generic table
// location and AWS's access-denied answer.
import { createHash } from 'node:crypto';
import type { Refusal } from '../http.js';
import type { FlavourError, Messages, StorageFailure, TablePlace } from './model.js';

/** The path segment after the prefix that starts a route of the spec (namespaces, tables/rename, …). */
export const isRouteHead = (segment: string | undefined) =>
  segment === 'namespaces' || segment === 'tables' || segment === 'views' || segment === 'transactions';

export const notFound = (type: string, message: string): FlavourError => ({ status: 404, type, message });
export const badRequest = (type: string, message: string): FlavourError => ({
  status: 400,
  type,
  message,
});

/** An Iceberg error as a flavour's answer. */
export const icebergRefusal = (status: number, type: string, message: string): Refusal => ({
  status,
  body: { error: { message, type, code: status } },
});

/** java.net.URLEncoder.encode(s, UTF_8): spaces as `+`, `*` kept, `~ ! ' ( )` encoded. */
export function javaUrlEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2A/g, '*');
}

/** Lakekeeper identifies a warehouse by a UUID; the emulator derives a stable one from the name. */
export function lakekeeperWarehouseId(name: string): string {
  const h = createHash('sha256').update(`lakekeeper:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const stripSlash = (text: string) => text.replace(/\/+$/, '');

/**
 * apache/iceberg's texts: Namespace.toString() joins the levels with `.`, TableIdentifier.toString()
 * is `<namespace>.<name>`. CatalogHandlers.java (namespaceExists, dropNamespace, dropTable,
 * loadTable), InMemoryCatalog.java (createNamespace, dropNamespace), BaseMetastoreCatalog.java
 * (create: "Table already exists").
 */
export const ICEBERG_MESSAGES: Messages = {
  namespaceExists: (ns) => `Namespace already exists: ${ns}`,
  parentMissing: (ns) => `Cannot create namespace ${ns}. Parent namespace does not exist.`,
  namespaceNotEmpty: (ns, tables) => `Namespace ${ns} is not empty. ${tables} tables exist.`,
  namespaceMissing: (ns) => `Namespace does not exist: ${ns}`,
  tableNamespaceMissing: (_table, ns) => `Namespace does not exist: ${ns}`,
  tableExists: (table) => `Table already exists: ${table}`,
  tableMissing: (table) => `Table does not exist: ${table}`,
};

/** `<base>/<namespace levels>/<table>`: apache/iceberg JdbcCatalog.defaultWarehouseLocation. */
export function nestedLocation(place: TablePlace): string {
  return [stripSlash(place.base), ...place.namespace, place.table].join('/');
}

/**
 * apache/iceberg RESTCatalogAdapter.java: an exception it has no status for (the AWS SDK's
 * S3Exception from S3FileIO) is 500, its type the exception's simple name.
 */
export function genericStorageFailure(failure: StorageFailure): FlavourError {
  return { status: 500, type: 'S3Exception', message: s3Message(failure) };
}

/** The AWS SDK v2 S3Exception message: the service's text, then its status and code. */
export function s3Message(failure: StorageFailure): string {
  return `${failure.message} (Service: S3, Status Code: ${failure.status ?? 0}, Error Code: ${failure.code})`;
}

/** AWS IAM's refusal: 403, x-amzn-errortype AccessDeniedException, `{"message": …}`. */
export function awsAccessDenied(callerArn: string, action: string, resource: string): Refusal {
  return {
    status: 403,
    headers: { 'x-amzn-errortype': 'AccessDeniedException' },
    body: {
      message: `User: ${callerArn} is not authorized to perform: ${action} on resource: ${resource} because no identity-based policy allows the ${action} action`,
    },
  };
}
