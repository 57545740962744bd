// The REST protocol's own failures as Iceberg's ErrorHandlers rewrite them: missing warehouse, namespace
// or table, commit conflicts, 5xx, 403, and a catalog's storage failure passed on. Sources: ../catalog.ts.
import { CATALOG_DIAGNOSIS_INFO as INFO } from '../../../catalog/diagnoses.js';
import { capture, type FailureRule, facts, or } from '../rule.js';

export const RUN_CATALOG_STORAGE_FAILURE: FailureRule = {
  code: 'RUN_CATALOG_STORAGE_FAILURE',
  component: 'catalog',
  summary:
    'The catalog’s own access to the object store failed and it passed the failure on (Nessie "… (due to: …)", an S3 error inside a catalog answer).',
  example:
    'Forbidden: Access Denied (Service: S3, Status Code: 403, …) (due to: software.amazon.awssdk.services.s3.model.S3Exception: …)',
  // Only on a line attributed to the catalog: its HTTP error comes before the storage text.
  match: /\(due to: |Service: S3|S3Exception|StorageException/,
  only: 'catalog',
  facts: (text) => facts({ due: capture(text, /\(due to: ([^\n]{1,300})/) }),
  what: () => 'The catalog failed to reach its own storage and refused the writer’s request because of it',
  cause: (f) =>
    `The catalog server reads and writes table metadata (or vends credentials) with its own storage settings, and that failed${f.due ? `: ${f.due}` : ''}. The writer’s privileges are not the problem.`,
  remedy: () =>
    'Fix the catalog’s storage configuration (its S3 credentials, endpoint, region or role for the warehouse), then run the sync again.',
};

export const RUN_NO_SUCH_WAREHOUSE: FailureRule = {
  code: 'RUN_NO_SUCH_WAREHOUSE',
  component: 'catalog',
  summary: 'The catalog has no such warehouse (NoSuchWarehouseException).',
  example:
    "org.apache.iceberg.exceptions.NoSuchWarehouseException: A warehouse with id '0195f3c2-7a0e-7c31-9b4e-5f3c1d2a9e10' does not exist",
  match: /NoSuchWarehouseException/,
  what: () => 'The catalog does not know the warehouse the destination names',
  cause: () =>
    'The destination’s warehouse (iceberg_s3_path) names a warehouse or catalog the server does not have.',
  remedy: () =>
    'Set the destination’s warehouse to one the catalog lists (e.g. the Lakekeeper warehouse or Polaris catalog name) in the OLake UI.',
};

export const RUN_NO_SUCH_NAMESPACE: FailureRule = {
  code: 'RUN_NO_SUCH_NAMESPACE',
  component: 'catalog',
  summary: 'The catalog has no such namespace (NoSuchNamespaceException).',
  example: 'org.apache.iceberg.exceptions.NoSuchNamespaceException: Namespace does not exist: lake',
  match: /NoSuchNamespaceException|Namespace does not exist/,
  facts: (text) => facts({ namespace: capture(text, /Namespace does not exist: '?([\w.-]{1,200})/) }),
  what: (f) => `The catalog has no namespace ${or(f.namespace, 'the sync writes to')}`,
  cause: () =>
    'The namespace was dropped, or the job writes into a namespace the catalog does not create on demand.',
  remedy: (f) =>
    `Create the namespace${f.namespace ? ` ${f.namespace}` : ''} in the catalog, or point the job’s streams at an existing one (destination database), then run the sync again.`,
};

export const RUN_NO_SUCH_TABLE: FailureRule = {
  code: 'RUN_NO_SUCH_TABLE',
  component: 'catalog',
  summary: 'The catalog has no such table (NoSuchTableException): dropped outside OLake.',
  example: 'org.apache.iceberg.exceptions.NoSuchTableException: Table does not exist: lake.orders',
  match: /NoSuchTableException|Table does not exist/,
  facts: (text) => facts({ table: capture(text, /Table does not exist: '?([\w.-]{1,200})/) }),
  what: (f) => `The catalog has no table ${or(f.table, 'the sync expected')}`,
  cause: () =>
    'The table was dropped or renamed outside OLake while the job’s state still refers to it (an incremental or CDC sync).',
  remedy: () =>
    'Clear the destination for that stream in the OLake UI (or reset the job’s state) so the next sync creates the table again.',
};

export const RUN_COMMIT_CONFLICT: FailureRule = {
  code: 'RUN_COMMIT_CONFLICT',
  component: 'catalog',
  summary:
    'Another writer committed to the table first (CommitFailedException, 409) and the retries ran out.',
  example:
    'org.apache.iceberg.exceptions.CommitFailedException: Commit failed: Requirement failed: branch main has changed: expected id 1 != 2',
  match: /CommitFailedException|Commit failed: |Requirement failed: /,
  what: () => 'The catalog refused the writer’s commit: the table changed since the writer read it',
  cause: () =>
    'Another writer (a second job or sync on the same table, a compaction or maintenance job) committed between the writer’s read and its commit, more often than the writer retries.',
  remedy: () =>
    'Make sure only one job writes each table, and schedule compaction or maintenance outside the sync; then run the sync again.',
};

export const RUN_COMMIT_STATE_UNKNOWN: FailureRule = {
  code: 'RUN_COMMIT_STATE_UNKNOWN',
  component: 'catalog',
  summary:
    'The commit got no clear answer (CommitStateUnknownException): it may or may not have been applied.',
  example: 'org.apache.iceberg.exceptions.CommitStateUnknownException: Service failed: 500: …',
  match: /CommitStateUnknownException/,
  what: () => 'The writer’s commit got no clear answer from the catalog',
  cause: () => 'The catalog (or a proxy) failed or timed out while committing.',
  remedy: () =>
    'Check the table’s latest snapshot in the catalog before running again (the data may be there twice after a retry), and the catalog’s logs for the failure.',
};

export const CATALOG_GATEWAY_ERROR: FailureRule = {
  code: 'CATALOG_GATEWAY_ERROR',
  component: 'catalog',
  summary:
    'A proxy or load balancer in front of the catalog answered 502 / 504 with its own page (RESTException “Unable to process (code: 502 …)”).',
  example: 'org.apache.iceberg.exceptions.RESTException: Unable to process (code: 502, type: null): <html>',
  match: /Unable to process \(code: 50[24],/,
  facts: (text) => facts({ status: capture(text, /Unable to process \(code: (50[24]),/) }),
  what: (f) =>
    `The gateway in front of the catalog answered ${or(f.status, '502')} ${f.status === '504' ? 'Gateway Timeout' : 'Bad Gateway'}`,
  cause: (f) =>
    f.status === '504'
      ? 'The proxy or load balancer gave up waiting for the catalog: the catalog (or its database) was too slow to answer.'
      : 'The proxy or load balancer could not get an answer from the catalog behind it: the catalog was down, restarting, or not registered as healthy.',
  remedy: (f) =>
    `Check the catalog service behind the proxy (its health, restarts and logs at the time of the run)${f.status === '504' ? ' and raise the proxy’s upstream timeout' : ''}, then run the sync again.`,
};

export const CATALOG_UNAVAILABLE: FailureRule = {
  code: 'CATALOG_UNAVAILABLE',
  component: 'catalog',
  summary: 'The catalog answered 503 Service Unavailable (ServiceUnavailableException).',
  example: 'org.apache.iceberg.exceptions.ServiceUnavailableException: Service unavailable: …',
  match: /ServiceUnavailableException|Service unavailable: /,
  what: () => 'The catalog answered 503 Service Unavailable',
  cause: () => INFO.CATALOG_UNAVAILABLE.cause,
  remedy: () => 'Wait for the catalog (or its load balancer) to be healthy, then run the sync again.',
};

export const CATALOG_SERVER_ERROR: FailureRule = {
  code: 'CATALOG_SERVER_ERROR',
  component: 'catalog',
  summary: 'The catalog failed with a server error (ServiceFailureException, 5xx).',
  example: 'org.apache.iceberg.exceptions.ServiceFailureException: Server error: …',
  match: /ServiceFailureException|Server error: /,
  what: () => 'The catalog failed with a server error',
  cause: () => 'An error inside the catalog server (or a proxy in front of it); its message says which.',
  remedy: () => 'Check the catalog server’s logs at the time of the run, then run the sync again.',
};

export const CATALOG_FORBIDDEN: FailureRule = {
  code: 'CATALOG_FORBIDDEN',
  component: 'catalog',
  summary:
    'The catalog denied the writer an operation (ForbiddenException, 403), without naming which grant.',
  example: 'org.apache.iceberg.exceptions.ForbiddenException: Forbidden: …',
  match: /ForbiddenException|Forbidden: /,
  what: () => 'The catalog denied the writer an operation',
  cause: () =>
    'The credentials are valid but lack a privilege the sync needs: create namespaces or tables, or write to this table.',
  remedy: () =>
    'Grant the principal the catalog privileges to create and write tables in the target namespace, then run the sync again ("floe test --write" on a profile names the missing one).',
};
