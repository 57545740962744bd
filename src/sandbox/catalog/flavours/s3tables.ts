// Amazon S3 Tables' Iceberg REST endpoint (no public source): AWS docs "Accessing tables using the
// Amazon S3 Tables Iceberg REST endpoint" and the s3tables:* IAM actions (Service Authorization
// Reference, "Actions defined by Amazon S3 Tables").
import type { Denial, FlavourModel } from './model.js';
import {
  awsAccessDenied,
  badRequest,
  genericStorageFailure,
  ICEBERG_MESSAGES,
  isRouteHead,
  nestedLocation,
  notFound,
} from './shared.js';

/** The s3tables:* action each operation needs; tables are named by the bucket ARN and the table id. */
function deny(denial: Denial) {
  const bucket = denial.warehouse;
  const table = `${bucket}/table/${denial.tableUuid ?? denial.table}`;
  const need: Record<Denial['operation'], [string, string]> = {
    'list-namespaces': ['s3tables:ListNamespaces', bucket],
    'create-namespace': ['s3tables:CreateNamespace', bucket],
    'load-namespace': ['s3tables:GetNamespace', bucket],
    'namespace-exists': ['s3tables:GetNamespace', bucket],
    'drop-namespace': ['s3tables:DeleteNamespace', bucket],
    'list-tables': ['s3tables:ListTables', bucket],
    'create-table': ['s3tables:CreateTable', bucket],
    'load-table': ['s3tables:GetTableMetadataLocation', table],
    'table-exists': ['s3tables:GetTable', table],
    'update-table': ['s3tables:UpdateTableMetadataLocation', table],
    'drop-table': ['s3tables:DeleteTable', table],
    // "Actions defined by Amazon S3 Tables" has none for namespace properties: the emulator names the
    // bucket's CreateNamespace (not checked against AWS). A rename is s3tables:RenameTable.
    'update-namespace-properties': ['s3tables:CreateNamespace', bucket],
    'rename-table': ['s3tables:RenameTable', table],
  };
  const [action, resource] = need[denial.operation];
  return awsAccessDenied(denial.callerArn, action, resource);
}

export const s3tables: FlavourModel = {
  // Amazon S3 Tables Iceberg REST (AWS docs; floe's reference notes): the warehouse is the table
  // bucket ARN and comes back percent-encoded as defaults.prefix. A missing or unknown ARN is
  // refused (statuses inferred: 400 / 404).
  config(warehouse, ctx) {
    if (warehouse === null || warehouse === '')
      return badRequest('BadRequestException', 'The warehouse (table bucket ARN) is required');
    if (!ctx.warehouses.includes(warehouse))
      return notFound('NoSuchWarehouseException', `Table bucket not found: ${warehouse}`);
    return { defaults: { prefix: encodeURIComponent(warehouse) }, overrides: {} };
  },
  matchPrefix(segments, ctx) {
    const arn = segments[0];
    if (arn === undefined || !isRouteHead(segments[1])) return null;
    if (!ctx.warehouses.includes(arn))
      return { error: notFound('NoSuchWarehouseException', `Table bucket not found: ${arn}`) };
    return { consumed: 1, warehouse: arn };
  },
  legacyToken: 'absent',
  // S3 Tables gives each table its own generated bucket (s3://<id>--table-s3); the emulator cannot
  // create buckets, so: <storage location>/<namespace>/<table>.
  tableLocation: nestedLocation,
  deny,
  storageFailure: genericStorageFailure,
  messages: ICEBERG_MESSAGES,
};
