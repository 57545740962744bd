// Google's BigLake metastore Iceberg REST catalog (no public source): Google's pages "Use the BigLake
// metastore Iceberg REST catalog", "Apache Iceberg REST catalog concepts" (a Cloud Storage bucket
// catalog: the catalog is named after its bucket, every table of it in that bucket), the catalog
// resource (iceberg.v1.restcatalog.extensions.projects.catalogs: name projects/<project>/catalogs/<catalog>,
// default-location "the namespace and table identifiers appended" when neither names a location) and
// "BigLake roles and permissions" (biglake.namespaces.*, biglake.tables.*). What those pages do not say
// (the error types, a missing or unknown warehouse's answer) is the emulator's.
import type { Denial, FlavourModel, StorageFailure, TablePlace } from './model.js';
import { badRequest, ICEBERG_MESSAGES, icebergRefusal, notFound, stripSlash } from './shared.js';

/** The bucket of a gs:// warehouse (the catalog's name), else undefined. */
const bucketOf = (warehouse: string) => /^gs:\/\/([^/]+)\/?/.exec(warehouse)?.[1];

/**
 * The IAM permission each operation needs (biglake.namespaces.* and biglake.tables.*), the resource it
 * names, and Google's PERMISSION_DENIED wording ("Permission '<p>' denied on resource '<r>' (or it may
 * not exist).", as Cloud Storage words it: https://cloud.google.com/storage/docs/access-control/iam-permissions).
 */
function deny(denial: Denial) {
  const catalog = `//biglake.googleapis.com/${denial.warehouse}`;
  const namespace = `${catalog}/namespaces/${denial.namespace.join('.')}`;
  const table = `${namespace}/tables/${denial.table}`;
  const destination = denial.destination
    ? `${catalog}/namespaces/${denial.destination.namespace.join('.')}/tables/${denial.destination.table}`
    : table;
  const need: Record<Denial['operation'], [string, string]> = {
    'list-namespaces': ['biglake.namespaces.list', catalog],
    'create-namespace': ['biglake.namespaces.create', namespace],
    'load-namespace': ['biglake.namespaces.get', namespace],
    'namespace-exists': ['biglake.namespaces.get', namespace],
    'drop-namespace': ['biglake.namespaces.delete', namespace],
    'update-namespace-properties': ['biglake.namespaces.update', namespace],
    'list-tables': ['biglake.tables.list', namespace],
    'create-table': ['biglake.tables.create', table],
    'load-table': ['biglake.tables.get', table],
    'table-exists': ['biglake.tables.get', table],
    'update-table': ['biglake.tables.update', table],
    'drop-table': ['biglake.tables.delete', table],
    'rename-table':
      denial.privilege === 'drop-table'
        ? ['biglake.tables.delete', table]
        : ['biglake.tables.create', destination],
  };
  const [permission, resource] = need[denial.operation];
  return icebergRefusal(
    403,
    'PERMISSION_DENIED',
    `Permission '${permission}' denied on resource '${resource}' (or it may not exist).`,
  );
}

/** A failed metadata write to Cloud Storage: Google's status passes through, its message kept. */
function storageFailure(failure: StorageFailure) {
  const status = failure.status === 403 || failure.status === 404 ? failure.status : 500;
  return { status, type: 'StorageException', message: `${failure.message} (Cloud Storage ${failure.code})` };
}

/** The namespace's `location`, else the catalog's default location with the namespace levels appended. */
function tableLocation(place: TablePlace): string {
  const own = place.namespaceProperties.at(-1)?.location;
  const namespace =
    own !== undefined ? stripSlash(own) : [stripSlash(place.base), ...place.namespace].join('/');
  return `${namespace}/${place.table}`;
}

export const biglake: FlavourModel = {
  // The warehouse is gs://<bucket> (the catalog named after its bucket); the prefix is the catalog's
  // resource name in the caller's project.
  config(warehouse, ctx) {
    if (warehouse === null || warehouse === '')
      return badRequest(
        'INVALID_ARGUMENT',
        'The warehouse (gs://<bucket> or bq://projects/<project>) is required',
      );
    const bucket = bucketOf(warehouse);
    if (bucket === undefined || !ctx.warehouses.some((w) => bucketOf(w) === bucket))
      return notFound(
        'NOT_FOUND',
        `Catalog not found: projects/${ctx.project}/catalogs/${bucket ?? warehouse}`,
      );
    return { defaults: {}, overrides: { prefix: `projects/${ctx.project}/catalogs/${bucket}` } };
  },
  matchPrefix(segments, ctx) {
    const [projects, project, catalogs, catalog, head] = segments;
    if (projects !== 'projects' || catalogs !== 'catalogs' || project === undefined || catalog === undefined)
      return null;
    if (head !== 'namespaces' && head !== 'tables') return null;
    const name = `projects/${project}/catalogs/${catalog}`;
    if (project !== ctx.project || !ctx.warehouses.some((w) => bucketOf(w) === catalog))
      return { error: notFound('NOT_FOUND', `Catalog not found: ${name}`) };
    return { consumed: 4, warehouse: name };
  },
  legacyToken: 'absent',
  tableLocation,
  deny,
  storageFailure,
  messages: ICEBERG_MESSAGES,
};
