// AWS Glue's Iceberg REST endpoint (no public source): AWS docs "Connecting to the Data Catalog
// using AWS Glue Iceberg REST endpoint" and the IAM actions each operation needs.
import type { Denial, FlavourModel } from './model.js';
import {
  awsAccessDenied,
  genericStorageFailure,
  ICEBERG_MESSAGES,
  isRouteHead,
  notFound,
  stripSlash,
} from './shared.js';

/** The glue:* action each operation needs and the resource it names (a database is one namespace level). */
function deny(denial: Denial) {
  const arn = `arn:aws:glue:${denial.region}:${denial.warehouse}`;
  const database = denial.namespace.join('.');
  const need: Record<Denial['operation'], [string, string]> = {
    'list-namespaces': ['glue:GetDatabases', `${arn}:catalog`],
    'create-namespace': ['glue:CreateDatabase', `${arn}:database/${database}`],
    'load-namespace': ['glue:GetDatabase', `${arn}:database/${database}`],
    'namespace-exists': ['glue:GetDatabase', `${arn}:database/${database}`],
    'drop-namespace': ['glue:DeleteDatabase', `${arn}:database/${database}`],
    'list-tables': ['glue:GetTables', `${arn}:database/${database}`],
    'create-table': ['glue:CreateTable', `${arn}:table/${database}/${denial.table}`],
    'load-table': ['glue:GetTable', `${arn}:table/${database}/${denial.table}`],
    'table-exists': ['glue:GetTable', `${arn}:table/${database}/${denial.table}`],
    'update-table': ['glue:UpdateTable', `${arn}:table/${database}/${denial.table}`],
    'drop-table': ['glue:DeleteTable', `${arn}:table/${database}/${denial.table}`],
    'update-namespace-properties': ['glue:UpdateDatabase', `${arn}:database/${database}`],
    // Glue has no rename action: the endpoint creates the new table and deletes the old one.
    'rename-table':
      denial.privilege === 'drop-table'
        ? ['glue:DeleteTable', `${arn}:table/${database}/${denial.table}`]
        : [
            'glue:CreateTable',
            `${arn}:table/${denial.destination?.namespace.join('.')}/${denial.destination?.table}`,
          ],
  };
  const [action, resource] = need[denial.operation];
  return awsAccessDenied(denial.callerArn, action, resource);
}

export const glue: FlavourModel = {
  // AWS Glue Iceberg REST (docs: "GetConfig"): the warehouse is a catalog id (the account id), the
  // prefix is overrides.prefix "catalogs/<id>". Without a warehouse Glue uses the caller's account
  // catalog. An id that is not this account's catalog answers 404 (no public source; inferred
  // from iceberg-python#1449).
  config(warehouse, ctx) {
    const id = warehouse === null || warehouse === '' ? ctx.callerAccount : warehouse;
    if (!ctx.warehouses.includes(id)) return notFound('NoSuchCatalogException', `Catalog not found: ${id}`);
    return { defaults: {}, overrides: { prefix: `catalogs/${id}` } };
  },
  matchPrefix(segments, ctx) {
    if (segments[0] !== 'catalogs' || segments[1] === undefined || !isRouteHead(segments[2])) return null;
    if (!ctx.warehouses.includes(segments[1]))
      return { error: notFound('NoSuchCatalogException', `Catalog not found: ${segments[1]}`) };
    return { consumed: 2, warehouse: segments[1] };
  },
  legacyToken: 'absent',
  // Glue puts a table under its database's location (the namespace's `location` property, Glue's
  // LocationUri); without one: <storage location>/<database>/<table> (not checked against Glue).
  tableLocation(place) {
    const own = place.namespaceProperties.at(-1)?.location;
    const database =
      own !== undefined ? stripSlash(own) : `${stripSlash(place.base)}/${place.namespace.join('.')}`;
    return `${database}/${place.table}`;
  },
  deny,
  storageFailure: genericStorageFailure,
  messages: ICEBERG_MESSAGES,
};
