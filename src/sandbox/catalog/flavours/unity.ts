// Unity Catalog, as unitycatalog/unitycatalog has it: IcebergRestCatalogService (config, prefix),
// IcebergRestExceptionHandler and UnityAccessDecorator (refusals). The open-source service serves
// only the read routes (GET/HEAD); the write routes here are those of Databricks' Unity Catalog
// Iceberg REST endpoint, whose source is not public.
import type { Denial, FlavourModel } from './model.js';
import {
  badRequest,
  genericStorageFailure,
  ICEBERG_MESSAGES,
  icebergRefusal,
  isRouteHead,
  nestedLocation,
  notFound,
} from './shared.js';

/**
 * UnityAccessDecorator throws BaseException(ErrorCode.PERMISSION_DENIED, …); the Iceberg routes'
 * IcebergRestExceptionHandler answers 403 with the exception's simple name as the type. The message
 * names the missing privilege the way Databricks words it ("PERMISSION_DENIED: User does not have
 * CREATE TABLE on Schema '<catalog>.<schema>'."); the open-source server says only "Access denied.".
 */
function deny(denial: Denial) {
  const catalog = denial.warehouse;
  const schema = `${catalog}.${denial.namespace.join('.')}`;
  const table = `${schema}.${denial.table}`;
  const need: Record<Denial['operation'], [string, string]> = {
    'list-namespaces': ['USE CATALOG', `Catalog '${catalog}'`],
    'create-namespace': ['CREATE SCHEMA', `Catalog '${catalog}'`],
    'load-namespace': ['USE SCHEMA', `Schema '${schema}'`],
    'namespace-exists': ['USE SCHEMA', `Schema '${schema}'`],
    'drop-namespace': ['MANAGE', `Schema '${schema}'`],
    'list-tables': ['USE SCHEMA', `Schema '${schema}'`],
    'create-table': ['CREATE TABLE', `Schema '${schema}'`],
    'load-table': ['SELECT', `Table '${table}'`],
    'table-exists': ['SELECT', `Table '${table}'`],
    'update-table': ['MODIFY', `Table '${table}'`],
    'drop-table': ['MANAGE', `Table '${table}'`],
    // Never reached: both routes are unserved (406 before any privilege is looked at).
    'update-namespace-properties': ['MANAGE', `Schema '${schema}'`],
    'rename-table': ['MANAGE', `Table '${table}'`],
  };
  const [privilege, securable] = need[denial.operation];
  return icebergRefusal(
    403,
    'BaseException',
    `PERMISSION_DENIED: User does not have ${privilege} on ${securable}.`,
  );
}

export const unity: FlavourModel = {
  // unitycatalog IcebergRestCatalogService.config: no warehouse → BadRequestException; any
  // warehouse → 200 with overrides.prefix "catalogs/<warehouse>" (it does not check the catalog).
  config(warehouse) {
    if (warehouse === null)
      return badRequest('BadRequestException', 'Must supply a proper catalog in warehouse property.');
    return { defaults: {}, overrides: { prefix: `catalogs/${warehouse}` } };
  },
  // unitycatalog IcebergRestCatalogService.listNamespaces → SchemaService.listSchemas: an unknown
  // catalog fails there, "Catalog not found: <name>" (CatalogRepository; 404).
  matchPrefix(segments, ctx) {
    if (segments[0] !== 'catalogs' || segments[1] === undefined || !isRouteHead(segments[2])) return null;
    if (!ctx.warehouses.includes(segments[1]))
      return { error: notFound('NotFoundException', `Catalog not found: ${segments[1]}`) };
    return { consumed: 2, warehouse: segments[1] };
  },
  legacyToken: 'absent',
  // IcebergRestCatalogService routes neither namespace-property updates nor renames.
  unserved: ['POST /v1/{prefix}/namespaces/{namespace}/properties', 'POST /v1/{prefix}/tables/rename'],
  // Databricks puts managed tables under the metastore's storage root (__unitystorage/…); not
  // public, so: <storage location>/<schema>/<table>.
  tableLocation: nestedLocation,
  deny,
  storageFailure: genericStorageFailure,
  messages: ICEBERG_MESSAGES,
};
