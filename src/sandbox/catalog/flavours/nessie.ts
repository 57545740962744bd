// Project Nessie, as projectnessie/nessie has it: IcebergConfigurer (config), IcebergApiResource
// (prefix), CelBatchAccessChecker + IcebergErrorMapper (refusals, storage failures).
import type { Denial, FlavourContext, FlavourModel, StorageFailure } from './model.js';
import {
  ICEBERG_MESSAGES,
  icebergRefusal,
  isRouteHead,
  javaUrlEncode,
  nestedLocation,
  notFound,
  s3Message,
  stripSlash,
} from './shared.js';

const NESSIE_BRANCH = 'main';

/** Nessie resolves a warehouse by name, else by exact location (trailing `/` ignored). */
function nessieWarehouse(given: string, ctx: FlavourContext): string | undefined {
  if (ctx.warehouses.includes(given)) return given;
  if (stripSlash(given) === stripSlash(ctx.dataLocation)) return ctx.warehouses[0];
  return undefined;
}

/**
 * CelBatchAccessChecker: an AccessCheckException "'<check>' is not allowed for role '<role>' on
 * content '<key>'" (or "on reference '<ref>'" for listings), which IcebergErrorMapper.mapNessieError
 * answers (ErrorCode FORBIDDEN) as 403 NotAuthorizedException.
 */
function deny(denial: Denial) {
  const creating = denial.operation === 'rename-table' && denial.privilege !== 'drop-table';
  const target =
    creating && denial.destination
      ? [...denial.destination.namespace, denial.destination.table]
      : [...denial.namespace, ...(denial.table === undefined ? [] : [denial.table])];
  const key = target.join('.');
  const check: Record<Denial['operation'], string> = {
    'list-namespaces': 'READ_ENTRIES',
    'create-namespace': 'CREATE_ENTITY',
    'load-namespace': 'READ_ENTITY_VALUE',
    'namespace-exists': 'READ_ENTITY_VALUE',
    'drop-namespace': 'DELETE_ENTITY',
    'list-tables': 'READ_ENTRIES',
    'create-table': 'CREATE_ENTITY',
    'load-table': 'READ_ENTITY_VALUE',
    'table-exists': 'READ_ENTITY_VALUE',
    'update-table': 'UPDATE_ENTITY',
    'drop-table': 'DELETE_ENTITY',
    // A property update commits the namespace again (UPDATE_ENTITY); a rename commits a Delete of the
    // source and a Put of the destination (DELETE_ENTITY, then CREATE_ENTITY on the new key).
    'update-namespace-properties': 'UPDATE_ENTITY',
    'rename-table': denial.privilege === 'drop-table' ? 'DELETE_ENTITY' : 'CREATE_ENTITY',
  };
  const on =
    denial.operation === 'list-namespaces' || denial.operation === 'list-tables'
      ? `reference '${NESSIE_BRANCH}'`
      : `content '${key}'`;
  return icebergRefusal(
    403,
    'NotAuthorizedException',
    `'${check[denial.operation]}' is not allowed for role '${denial.principal}' on ${on}`,
  );
}

/**
 * IcebergErrorMapper (storage failures): FORBIDDEN 403 ForbiddenException, UNAUTHORIZED 401
 * NotAuthorizedException, THROTTLED 429, BAD_REQUEST and NOT_FOUND 400 IllegalArgumentException,
 * anything else 500.
 */
function storageFailure(failure: StorageFailure) {
  const message = s3Message(failure);
  switch (failure.status) {
    case 403:
      return { status: 403, type: 'ForbiddenException', message };
    case 401:
      return { status: 401, type: 'NotAuthorizedException', message };
    case 429:
      return { status: 429, type: 'TooManyRequestsException', message };
    case 400:
    case 404:
      return { status: 400, type: 'IllegalArgumentException', message };
    default:
      return { status: 500, type: 'IllegalStateException', message };
  }
}

export const nessie: FlavourModel = {
  // nessie IcebergConfigurer.icebergWarehouseConfig: defaults warehouse (the location),
  // rest-page-size 200 and prefix URLEncoder.encode("main|<warehouse as given>"), or just "main"
  // without a warehouse (the default warehouse); overrides uri = the Iceberg base URI with a
  // trailing slash (ExternalBaseUri) and nessie.* markers. An unknown warehouse is an
  // IllegalStateException "Warehouse '…' is not known" (CatalogConfig.getWarehouse), which
  // IcebergErrorMapper answers as 500 with the exception's simple name as the type.
  config(warehouse, ctx) {
    const hasWarehouse = warehouse !== null && warehouse !== '';
    const resolved = hasWarehouse ? nessieWarehouse(warehouse, ctx) : ctx.warehouses[0];
    if (resolved === undefined)
      return { status: 500, type: 'IllegalStateException', message: `Warehouse '${warehouse}' is not known` };
    return {
      defaults: {
        'rest-metrics-reporting-enabled': 'false',
        warehouse: ctx.dataLocation,
        'rest-page-size': '200',
        prefix: javaUrlEncode(hasWarehouse ? `${NESSIE_BRANCH}|${warehouse}` : NESSIE_BRANCH),
      },
      overrides: {
        'nessie.iceberg-base-uri': `${ctx.baseUrl}/`,
        uri: `${ctx.baseUrl}/`,
        'nessie.is-nessie-catalog': 'true',
        'nessie.prefix-pattern': '{ref}|{warehouse}',
      },
    };
  },
  // nessie IcebergApiResource decodePrefix: "<ref>|<warehouse>" or "<ref>" (the default warehouse).
  matchPrefix(segments, ctx) {
    const prefix = segments[0];
    if (prefix === undefined || !isRouteHead(segments[1])) return null;
    const bar = prefix.indexOf('|');
    const ref = bar < 0 ? prefix : prefix.slice(0, bar);
    const given = bar < 0 ? '' : prefix.slice(bar + 1);
    if (ref !== NESSIE_BRANCH)
      return { error: notFound('NoSuchReferenceException', `Named reference '${ref}' not found`) };
    const resolved = given ? nessieWarehouse(given, ctx) : ctx.warehouses[0];
    if (resolved === undefined)
      return {
        error: { status: 500, type: 'IllegalStateException', message: `Warehouse '${given}' is not known` },
      };
    return { consumed: 1, warehouse: resolved };
  },
  legacyToken: 'not-implemented',
  // Not checked against nessie's catalog service (which may add a suffix to the table's directory):
  // <warehouse location>/<namespace levels>/<table>.
  tableLocation: nestedLocation,
  deny,
  storageFailure,
  messages: ICEBERG_MESSAGES,
};
