// Apache Polaris, as apache/polaris has it: CatalogConfigHandler (config), CatalogPrefixParser
// (prefix), LocalIcebergCatalog (locations, namespace and table texts, purge), PolarisAuthorizerImpl
// (refusals), IcebergExceptionMapper (storage failures).
import type { Denial, FlavourModel, Operation, StorageFailure, TablePlace } from './model.js';
import {
  badRequest,
  ICEBERG_MESSAGES,
  icebergRefusal,
  isRouteHead,
  notFound,
  s3Message,
  stripSlash,
} from './shared.js';

/** The catalog property that lets DELETE …?purgeRequested=true through (FeatureConfiguration.DROP_WITH_PURGE_ENABLED, default false). */
export const POLARIS_PURGE_PROPERTY = 'polaris.config.drop-with-purge.enabled';

/** PolarisAuthorizableOperation's name for each operation. */
function polarisOp(denial: Denial): string {
  const ops: Record<Operation, string> = {
    'list-namespaces': 'LIST_NAMESPACES',
    'create-namespace': 'CREATE_NAMESPACE',
    'load-namespace': 'LOAD_NAMESPACE_METADATA',
    'namespace-exists': 'NAMESPACE_EXISTS',
    'drop-namespace': 'DROP_NAMESPACE',
    'list-tables': 'LIST_TABLES',
    'create-table': denial.delegation ? 'CREATE_TABLE_DIRECT_WITH_WRITE_DELEGATION' : 'CREATE_TABLE_DIRECT',
    'load-table': denial.delegation ? 'LOAD_TABLE_WITH_READ_DELEGATION' : 'LOAD_TABLE',
    'table-exists': 'TABLE_EXISTS',
    'update-table': 'UPDATE_TABLE',
    'drop-table': denial.purge ? 'DROP_TABLE_WITH_PURGE' : 'DROP_TABLE_WITHOUT_PURGE',
    // IcebergCatalogHandler.updateNamespaceProperties / renameTable (RbacOperationSemantics:
    // NAMESPACE_WRITE_PROPERTIES; TABLE_DROP on the source, TABLE_LIST and TABLE_CREATE on the target).
    'update-namespace-properties': 'UPDATE_NAMESPACE_PROPERTIES',
    'rename-table': 'RENAME_TABLE',
  };
  return ops[denial.operation];
}

/**
 * LocalIcebergCatalog.defaultWarehouseLocation → resolveLocationForPath: from the innermost
 * namespace outwards up to the first entity with a `location` property (the catalog's
 * default-base-location otherwise), each entity's location or name joined with `/`, then the table.
 */
function tableLocation(place: TablePlace): string {
  const parts: string[] = [];
  let i = place.namespace.length - 1;
  for (; i >= 0; i--) {
    const location = place.namespaceProperties[i]?.location;
    if (location !== undefined) {
      parts.unshift(stripSlash(location).replace(/^\/+/, ''));
      break;
    }
    parts.unshift(place.namespace[i]!);
  }
  if (i < 0) parts.unshift(stripSlash(place.base));
  return [...parts, place.table].join('/');
}

/**
 * IcebergExceptionMapper.mapCloudExceptionToResponseCode: an S3Exception whose message hints at
 * access denied is 403; S3's 404 is 400, 401 is 403; 400, 403, 408, 429, 504 pass through;
 * redirects are 422, other 5xx 502; anything else 500. The type is the exception's simple name.
 */
function storageFailure(failure: StorageFailure) {
  const message = s3Message(failure);
  const s = failure.status ?? 0;
  const lower = message.toLowerCase();
  let status = 500;
  if (['access denied', 'not authorized', 'forbidden'].some((hint) => lower.includes(hint))) status = 403;
  else if (s === 404) status = 400;
  else if (s === 401) status = 403;
  else if ([400, 403, 408, 429, 504].includes(s)) status = s;
  else if (s >= 300 && s < 400) status = 422;
  else if (s >= 500) status = 502;
  return { status, type: 'S3Exception', message };
}

export const polaris: FlavourModel = {
  // polaris IcebergCatalogAdapter.getConfig: `if (warehouse == null) throw new BadRequestException(…)`;
  // CatalogConfigHandler.getConfig: unknown catalog → NotFoundException "Unable to find warehouse %s",
  // defaults = the catalog's properties (default-base-location and the rest), overrides = prefix
  // (the catalog name) and namespace-separator %1F.
  config(warehouse, ctx) {
    if (warehouse === null) return badRequest('BadRequestException', 'Please specify a warehouse');
    if (!ctx.warehouses.includes(warehouse))
      return notFound('NotFoundException', `Unable to find warehouse ${warehouse}`);
    return {
      defaults: { ...ctx.catalogProperties, 'default-base-location': ctx.dataLocation },
      overrides: { prefix: warehouse, 'namespace-separator': '%1F' },
    };
  },
  // polaris CatalogPrefixParser: the prefix is the catalog name; an unknown one does not resolve
  // (answered as the config route answers it; the namespace route's own text is not pinned here).
  matchPrefix(segments, ctx) {
    const name = segments[0];
    if (name === undefined || !isRouteHead(segments[1])) return null;
    if (!ctx.warehouses.includes(name))
      return { error: notFound('NotFoundException', `Unable to find warehouse ${name}`) };
    return { consumed: 1, warehouse: name };
  },
  legacyToken: 'polaris',
  tableLocation,
  // PolarisAuthorizerImpl.authorizeOrThrow: ForbiddenException (403 through IcebergExceptionMapper),
  // polaris-core/src/main/java/org/apache/polaris/core/auth/PolarisAuthorizerImpl.java line 949 at
  // apache/polaris 4b42186.
  // The principal roles and grants are those of a root principal's token, as a real answer shows them.
  deny(denial) {
    return icebergRefusal(
      403,
      'ForbiddenException',
      `Principal '${denial.principal}' with activated PrincipalRoles '[]' and activated grants via '[service_admin, catalog_admin]' is not authorized for op ${polarisOp(denial)}`,
    );
  },
  storageFailure,
  messages: {
    ...ICEBERG_MESSAGES,
    // LocalIcebergCatalog.createNamespace / dropNamespace / doCommit / listTables.
    namespaceExists: (ns) => `Cannot create namespace ${ns}. Namespace already exists`,
    namespaceNotEmpty: (ns) => `Namespace ${ns} is not empty`,
    tableNamespaceMissing: (table, ns) => `Cannot create table '${table}'. Namespace does not exist: '${ns}'`,
  },
  // LocalIcebergCatalog.dropTableLike: purge needs DROP_WITH_PURGE_ENABLED (default false), else a
  // ForbiddenException naming both switches.
  purgeRefusal(table, ctx) {
    if (ctx.catalogProperties[POLARIS_PURGE_PROPERTY] === 'true') return null;
    return {
      status: 403,
      type: 'ForbiddenException',
      message: `Unable to purge entity: ${table}. To enable this feature, set the Polaris configuration DROP_WITH_PURGE_ENABLED or the catalog configuration ${POLARIS_PURGE_PROPERTY}`,
    };
  },
};
