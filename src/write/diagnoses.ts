// Every way the write check (floe test --write) can fail beyond what the catalog and storage checks
// already diagnose, with its cause and remedy. A privilege denial is read in the catalog's own terms:
// Polaris's op name and the privilege it needs, an AWS IAM action, Unity's PERMISSION_DENIED.
import { type DiagnosisInfo, type DiagnosisInput, diagnosisTable } from '../check/diagnoses.js';
import type { Diagnosis } from '../check/types.js';
import type { PresetId } from '../destination/presets.js';

const TABLE = {
  WRITE_PRIVILEGE_DENIED: {
    summary:
      'The catalog authenticated floe but refused a write: create a namespace or table, commit, or drop (403).',
    cause: 'The principal may read the catalog but lacks the privilege OLake needs for this operation.',
    remedy: 'Grant the principal the privilege named above on the catalog or the namespace.',
  },
  WRITE_ENDPOINT_MISSING: {
    summary: 'The catalog does not advertise a route the write path needs (its /v1/config "endpoints").',
    cause: 'The server is read-only for REST clients, or an older version without these routes.',
    remedy:
      'Use a catalog (version) that serves namespace and table writes over REST; OLake calls the same routes.',
  },
  WRITE_NAMESPACE_REFUSED: {
    summary: 'The catalog refused to create the namespace (not a privilege denial).',
    cause: 'The catalog does not create namespaces over REST, or rejects the name or its properties.',
    remedy:
      'Create the namespace in the catalog by hand (its UI or CLI), or pick an existing one with floe test --write --namespace NAME.',
  },
  WRITE_TABLE_REFUSED: {
    summary: 'The catalog refused to create the check table (not a privilege denial).',
    cause: 'The catalog rejects the table request; its own message says why.',
    remedy: 'Read the catalog’s message; OLake’s first sync sends the same request and fails the same way.',
  },
  WRITE_BAD_TABLE_RESPONSE: {
    summary: 'The catalog answered a table request with JSON that is not a usable table (LoadTableResult).',
    cause: 'The server does not follow the Iceberg REST specification for tables.',
    remedy: 'Check the catalog’s version; its answer must carry "metadata" with a location and a schema.',
  },
  WRITE_LOCATION_UNSUPPORTED: {
    summary:
      'The catalog put the table in a location the profile’s storage cannot write to (not s3:// with S3, not gs:// with GCS).',
    cause:
      'The catalog’s or the namespace’s base location uses another store or file system than the profile’s (gs:// with S3 keys, s3:// with a service-account key, abfss://, file:).',
    remedy:
      'Point the catalog’s default base location (or the namespace’s location) at the bucket OLake writes to, or set the profile’s storage to that location’s store.',
  },
  WRITE_LOCATION_NOT_EMPTY: {
    summary:
      'The catalog put the new table at a location that already holds objects: floe wrote nothing there.',
    cause:
      'The location of the new table is not a fresh table’s: the catalog’s base location (or the namespace’s) points at a folder with someone’s files, or the catalog reuses table locations.',
    remedy:
      'Point the catalog’s default base location (or the namespace’s location) at an empty prefix; OLake would write its data files next to the objects named.',
  },
  WRITE_LOCATION_DENIED: {
    summary:
      'The profile’s keys may not write where the catalog puts the table, although the probe location may be written.',
    cause:
      'The catalog places tables under its own base location (default-base-location, the namespace location), in a bucket or prefix the keys cannot write.',
    remedy:
      'Grant s3:PutObject, s3:GetObject and s3:DeleteObject on the table location to the keys, or set the catalog’s base location to the bucket they may write.',
  },
  WRITE_LOCATION_BUCKET_MISSING: {
    summary: 'The table location’s bucket does not exist at the profile’s S3 endpoint.',
    cause:
      'The catalog’s base location names another bucket (or another store) than the one OLake writes to.',
    remedy: 'Create the bucket, or set the catalog’s default base location to the profile’s bucket.',
  },
  WRITE_LOCATION_REGION: {
    summary: 'The table location’s bucket is in another region than the profile’s.',
    cause: 'The catalog’s base location names a bucket in another AWS region.',
    remedy:
      'Set Region to the bucket’s region, or move the catalog’s base location to a bucket in this region.',
  },
  WRITE_COMMIT_CONFLICT: {
    summary: 'The commit kept failing with 409 CommitFailedException after the retries.',
    cause:
      'Another writer changed the table between floe’s reload and commit each time, or the catalog rejects the requirement it should accept.',
    remedy:
      'Run the check again; if it persists, read the catalog’s message: a requirement it always refuses is a catalog bug.',
  },
  WRITE_COMMIT_REJECTED: {
    summary: 'The catalog refused the commit (400 or another 4xx) with its own message.',
    cause: 'The catalog considers the snapshot or the update invalid; its message says why.',
    remedy: 'Read the catalog’s message; OLake’s commits send the same updates and fail the same way.',
  },
  WRITE_COMMIT_STATE_UNKNOWN: {
    summary: 'The commit got no clear answer (a 5xx or a time-out): it may or may not have been applied.',
    cause: 'The catalog or a proxy failed while committing (Iceberg calls this CommitStateUnknownException).',
    remedy:
      'floe kept the table and its files (they may be part of a committed snapshot): load the table (GET …/tables/<table>) to see whether floe’s snapshot is there, then remove it with floe test --cleanup (drop with purge); raise --timeout if the catalog is just slow.',
  },
  WRITE_READBACK_MISMATCH: {
    summary: 'The table read back does not show floe’s commit, or the record differs from what was written.',
    cause: 'The catalog did not apply the commit it acknowledged, or the store returned another object.',
    remedy: 'Check the catalog’s logs for the commit and the object store’s consistency.',
  },
  WRITE_CLEANUP_INCOMPLETE: {
    summary:
      'A warning, not a failure: floe could not remove everything a write check made; each leftover is named in write.leftovers with the command or grant that removes it (exit code 0 when the write steps passed).',
    cause:
      'A drop or delete was refused (a least-privilege principal may not drop tables), failed or was cut short, or a commit’s outcome is unknown (the files are kept).',
    remedy:
      'Run the command named for each leftover (floe test --cleanup retries, after the grant it names).',
  },
} satisfies Record<string, DiagnosisInfo>;

export type WriteDiagnosisCode = keyof typeof TABLE;

const { summaries, make } = diagnosisTable(TABLE);

/** One line per code, for docs/diagnoses.md. */
export const WRITE_DIAGNOSES = summaries;

export const writeDiagnosis: (code: WriteDiagnosisCode, step: string, input: DiagnosisInput) => Diagnosis =
  make;

/** What the refused request did, in words and as OLake's operation. */
export type WriteOperation =
  | 'load-namespace'
  | 'create-namespace'
  | 'create-table'
  | 'commit'
  | 'load-table'
  | 'drop-table'
  | 'drop-namespace';

const OPERATION_TEXT: Record<WriteOperation, string> = {
  'load-namespace': 'read the namespace',
  'create-namespace': 'create the namespace',
  'create-table': 'create the table',
  commit: 'commit to the table',
  'load-table': 'load the table',
  'drop-table': 'drop the table with purge',
  'drop-namespace': 'drop the namespace',
};

export function operationText(operation: WriteOperation): string {
  return OPERATION_TEXT[operation];
}

/**
 * Polaris op → the privilege it needs (apache/polaris polaris-core RbacOperationSemantics.java
 * `register(...)`); TABLE_WRITE_DATA includes TABLE_WRITE_PROPERTIES, and CATALOG_MANAGE_CONTENT all
 * of them (PolarisAuthorizerImpl SUPER_PRIVILEGES).
 */
export const POLARIS_PRIVILEGE: Record<string, string> = {
  CREATE_NAMESPACE: 'NAMESPACE_CREATE',
  LOAD_NAMESPACE_METADATA: 'NAMESPACE_READ_PROPERTIES',
  NAMESPACE_EXISTS: 'NAMESPACE_LIST',
  DROP_NAMESPACE: 'NAMESPACE_DROP',
  LIST_TABLES: 'TABLE_LIST',
  CREATE_TABLE_DIRECT: 'TABLE_CREATE',
  CREATE_TABLE_DIRECT_WITH_WRITE_DELEGATION: 'TABLE_CREATE',
  LOAD_TABLE: 'TABLE_READ_PROPERTIES',
  UPDATE_TABLE: 'TABLE_WRITE_DATA',
  DROP_TABLE_WITHOUT_PURGE: 'TABLE_DROP',
  DROP_TABLE_WITH_PURGE: 'TABLE_DROP and TABLE_WRITE_DATA',
  TABLE_EXISTS: 'TABLE_LIST',
};
const POLARIS_OP_FOR: Record<WriteOperation, string> = {
  'load-namespace': 'LOAD_NAMESPACE_METADATA',
  'create-namespace': 'CREATE_NAMESPACE',
  'create-table': 'CREATE_TABLE_DIRECT',
  commit: 'UPDATE_TABLE',
  'load-table': 'LOAD_TABLE',
  'drop-table': 'DROP_TABLE_WITH_PURGE',
  'drop-namespace': 'DROP_NAMESPACE',
};
/** The IAM action each operation needs (Glue's and S3 Tables' Iceberg REST documentation). */
const IAM_ACTION: Record<'glue' | 's3tables', Record<WriteOperation, string>> = {
  glue: {
    'load-namespace': 'glue:GetDatabase',
    'create-namespace': 'glue:CreateDatabase',
    'create-table': 'glue:CreateTable',
    commit: 'glue:UpdateTable',
    'load-table': 'glue:GetTable',
    'drop-table': 'glue:DeleteTable',
    'drop-namespace': 'glue:DeleteDatabase',
  },
  s3tables: {
    'load-namespace': 's3tables:GetNamespace',
    'create-namespace': 's3tables:CreateNamespace',
    'create-table': 's3tables:CreateTable',
    commit: 's3tables:UpdateTableMetadataLocation',
    'load-table': 's3tables:GetTableMetadataLocation',
    'drop-table': 's3tables:DeleteTable',
    'drop-namespace': 's3tables:DeleteNamespace',
  },
};
const UNITY_PRIVILEGE: Record<WriteOperation, string> = {
  'load-namespace': 'USE SCHEMA on the schema',
  'create-namespace': 'CREATE SCHEMA on the catalog',
  'create-table': 'CREATE TABLE and EXTERNAL USE SCHEMA on the schema',
  commit: 'MODIFY on the table and EXTERNAL USE SCHEMA on the schema',
  'load-table': 'SELECT on the table and EXTERNAL USE SCHEMA on the schema',
  'drop-table': 'ownership of the table (MANAGE)',
  'drop-namespace': 'ownership of the schema (MANAGE)',
};
const LAKEKEEPER_ACTION: Record<WriteOperation, string> = {
  'load-namespace': 'get_metadata',
  'create-namespace': 'create_namespace',
  'create-table': 'create_table',
  commit: 'commit',
  'load-table': 'get_metadata',
  'drop-table': 'drop',
  'drop-namespace': 'delete',
};

export interface PrivilegeContext {
  preset: PresetId;
  operation: WriteOperation;
  /** The server's error type and message (already scrubbed). */
  errorCode?: string;
  message?: string;
  /** The catalog (warehouse) and namespace, for a remedy one can paste. */
  warehouse: string;
  namespace: string;
}

/** Cause and remedy of a 403 on a write, in the catalog's own terms. */
export function privilegeAdvice(ctx: PrivilegeContext): {
  cause: string;
  remedy: string;
  extra: Record<string, string>;
} {
  const message = ctx.message ?? '';
  const doing = OPERATION_TEXT[ctx.operation];
  switch (ctx.preset) {
    case 'polaris':
    case 'open-catalog': {
      const op = /not authorized for op '?(\w+)'?/.exec(message)?.[1] ?? POLARIS_OP_FOR[ctx.operation];
      const privilege = POLARIS_PRIVILEGE[op] ?? 'the privilege of that operation';
      const catalog = ctx.warehouse || '<catalog>';
      const first = privilege.split(' and ')[0] ?? privilege;
      return {
        cause: `The principal’s roles lack ${privilege}: Polaris refuses the operation ${op}.`,
        remedy: `Grant ${privilege} (or CATALOG_MANAGE_CONTENT, which covers everything OLake does) to a catalog role the principal role holds, e.g. polaris privileges catalog grant --catalog ${catalog} --catalog-role <role> ${first}${ctx.preset === 'open-catalog' ? ' (in Open Catalog: Roles → the catalog role → Privileges)' : ''}.`,
        extra: { operation: op, privilege },
      };
    }
    case 'glue':
    case 's3tables': {
      const action = /perform: ([\w-]+:\w+)/.exec(message)?.[1] ?? IAM_ACTION[ctx.preset][ctx.operation];
      const who = /User: (\S+) is not authorized/.exec(message)?.[1];
      const lakeFormation =
        ctx.preset === 'glue'
          ? ' If the policy allows it already, Lake Formation may be denying it: grant the principal CREATE_TABLE / ALTER / DROP on the database there.'
          : '';
      return {
        cause: `The IAM policy of ${who ?? 'the signing identity'} does not allow ${action}, needed to ${doing}.`,
        remedy: `Allow ${action} for ${who ?? 'that identity'} (OLake also needs the other actions of its check and syncs: ${Object.values(IAM_ACTION[ctx.preset]).join(', ')}).${lakeFormation}`,
        extra: { action },
      };
    }
    case 'unity':
      return {
        cause: `Unity Catalog refused to ${doing}${/PERMISSION_DENIED/.test(`${ctx.errorCode ?? ''} ${message}`) ? ' (PERMISSION_DENIED)' : ''}: the principal lacks ${UNITY_PRIVILEGE[ctx.operation]}.`,
        remedy: `In Databricks SQL, grant it, e.g. GRANT ${ctx.operation === 'create-table' ? 'CREATE TABLE, EXTERNAL USE SCHEMA' : ctx.operation === 'create-namespace' ? 'CREATE SCHEMA' : 'MODIFY, EXTERNAL USE SCHEMA'} ON ${ctx.operation === 'create-namespace' ? `CATALOG ${ctx.warehouse || '<catalog>'}` : `SCHEMA ${ctx.warehouse || '<catalog>'}.${ctx.namespace}`} TO \`<principal>\`; external engines also need the metastore’s “External data access” setting on.`,
        extra: { privilege: UNITY_PRIVILEGE[ctx.operation] },
      };
    case 'lakekeeper':
      return {
        cause: `Lakekeeper’s authorizer refused to ${doing}: the user has no role that allows ${LAKEKEEPER_ACTION[ctx.operation]} on the warehouse or namespace.`,
        remedy: `Give the user (or its role) a role that allows ${LAKEKEEPER_ACTION[ctx.operation]} there, e.g. “modify” on the warehouse ${ctx.warehouse || '<warehouse>'} in the Lakekeeper UI’s Permissions tab (or its management API).`,
        extra: { action: LAKEKEEPER_ACTION[ctx.operation] },
      };
    case 'nessie':
      return {
        cause: `Nessie’s authorization rules refused to ${doing}.`,
        remedy:
          'Allow the user CREATE_ENTITY, UPDATE_ENTITY and DELETE_ENTITY on the branch in nessie.server.authorization.rules.*.',
        extra: {},
      };
    case 'r2':
      return {
        cause: `The Cloudflare API token may not ${doing}.`,
        remedy:
          'Use an API token with R2 Data Catalog “Admin Read & Write” and R2 Storage write permissions.',
        extra: {},
      };
    case 'biglake':
      return {
        cause: `BigLake refused to ${doing}: the service account lacks the role for it.`,
        remedy: 'Grant the service account roles/biglake.editor on the catalog’s project.',
        extra: {},
      };
    default:
      return {
        cause: `The catalog refused to ${doing} for this principal.`,
        remedy: `Grant the principal the privilege to ${doing} in the catalog (OLake’s check and every sync need it).`,
        extra: {},
      };
  }
}
