// The catalog's failures as the Iceberg Java REST client in OLake's writer reports them. The client
// rewrites server answers (apache/iceberg core/…/rest/ErrorHandlers.java): 401 "Not authorized: %s",
// 403 "Forbidden: %s", 400 "Malformed request: %s", 503 "Service unavailable: %s", 5xx "Server error:
// %s: %s", 409 on commit "Commit failed: %s"; a token endpoint's invalid_client becomes
// NotAuthorizedException "Not authorized: invalid_client: …" and unauthorized_client, invalid_grant,
// invalid_scope… BadRequestException "Malformed request: <type>: …" (OAuthErrorHandler, lines 371-389);
// OAuth2Util logs "Failed to refresh token" (auth/OAuth2Util.java:512). Inside those messages: each
// server's own refusal (Polaris, Lakekeeper, Nessie, Unity OSS, AWS Glue / Lake Formation, S3 Tables).
import { CATALOG_DIAGNOSIS_INFO as INFO } from '../../catalog/diagnoses.js';
import { POLARIS_PRIVILEGE } from '../../write/diagnoses.js';
import { capture, type Facts, type FailureRule, facts, or } from './rule.js';

function polarisFacts(text: string): Facts {
  const op = capture(text, /is not authorized for op '?(\w{1,80})/);
  return facts({
    principal: capture(text, /Principal '([^']{1,200})'/),
    roles: capture(text, /activated PrincipalRoles '\[([^\]]{0,500})\]'/),
    grants: capture(text, /activated grants via '\[([^\]]{0,500})\]'/),
    op,
    privilege: op ? POLARIS_PRIVILEGE[op] : undefined,
  });
}

/** AWS IAM's "User: X is not authorized to perform: A on resource: R". */
function iamFacts(text: string): Facts {
  return facts({
    principal: capture(text, /User: (arn:\S{1,300}) is not authorized/),
    action: capture(text, /not authorized to perform: ([\w-]{1,40}:\w{1,80})/),
    resource: capture(text, /on resource: "?(arn:[^\s"]{1,300})/),
  });
}

const LF_PERMISSION: Record<string, string> = {
  'Create Table': 'CREATE_TABLE',
  'Create Database': 'CREATE_DATABASE',
  Alter: 'ALTER',
  Drop: 'DROP',
  Describe: 'DESCRIBE',
  Select: 'SELECT',
  Insert: 'INSERT',
  Delete: 'DELETE',
  'Data Location Access': 'DATA_LOCATION_ACCESS',
};

function oauth(code: keyof typeof INFO, type: string, example: string): FailureRule {
  return {
    code,
    component: 'catalog',
    summary: `${INFO[code].summary} In a log: ${example.split(':').slice(0, 2).join(':')}: …`,
    example,
    match: new RegExp(`(?:Not authorized|Malformed request): ${type}\\b`),
    facts: (text) => facts({ description: capture(text, new RegExp(`${type}: ([^\\n(]{1,200})`)) }),
    what: (f) =>
      `The catalog’s token endpoint refused the writer’s client credentials (${type}${f.description ? `: ${f.description.trim()}` : ''})`,
    cause: () => INFO[code].cause,
    remedy: () =>
      `${INFO[code].remedy.replace(/ Verify with .*$/, '')} Update the destination’s credential in the OLake UI; "floe jobs test ID" checks it.`,
  };
}

export const CATALOG_RULES: FailureRule[] = [
  {
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
  },
  {
    code: 'RUN_POLARIS_NO_PRINCIPAL_ROLE',
    component: 'catalog',
    summary: 'Polaris refused an operation because the principal holds no principal role at all.',
    example:
      "Forbidden: Principal 'olake' with activated PrincipalRoles '[]' and activated grants via '[]' is not authorized for op CREATE_TABLE_DIRECT",
    match: /activated PrincipalRoles '\[\]'/,
    facts: polarisFacts,
    what: (f) =>
      `Polaris refused ${or(f.op, 'an operation')}: principal ${or(f.principal, '?')} has no principal role`,
    cause: (f) =>
      `The principal ${or(f.principal, '')} was created but never given a principal role, so no catalog role (and no privilege such as ${or(f.privilege, 'TABLE_CREATE')}) reaches it.`,
    remedy: (f) =>
      `Give it a principal role that holds a catalog role with ${or(f.privilege, 'the privilege')} (or CATALOG_MANAGE_CONTENT): polaris principal-roles create olake_role; polaris principal-roles grant --principal ${or(f.principal, '<principal>')} olake_role; polaris catalog-roles grant --catalog <catalog> --principal-role olake_role <catalog_role>.`,
  },
  {
    code: 'RUN_POLARIS_NOT_AUTHORIZED',
    component: 'catalog',
    summary:
      'Polaris refused an operation: the principal’s roles lack the privilege it names (op → privilege).',
    example:
      "Forbidden: Principal 'olake' with activated PrincipalRoles '[olake_role]' and activated grants via '[olake_catalog_role]' is not authorized for op UPDATE_TABLE",
    match: /is not authorized for op /,
    facts: polarisFacts,
    what: (f) => `Polaris refused ${or(f.op, 'an operation')} to principal ${or(f.principal, '?')}`,
    cause: (f) =>
      `The catalog roles reached through ${f.roles ? `the principal roles [${f.roles}]` : 'its principal roles'}${f.grants ? ` ([${f.grants}])` : ''} lack ${or(f.privilege, 'the privilege of that operation')}.`,
    remedy: (f) =>
      `Grant ${or(f.privilege, 'the privilege')} (or CATALOG_MANAGE_CONTENT, which covers everything OLake does) to ${f.grants ? `the catalog role ${f.grants.split(',')[0]?.trim()}` : 'a catalog role of the principal'}: polaris privileges catalog grant --catalog <catalog> --catalog-role ${f.grants?.split(',')[0]?.trim() || '<catalog_role>'} ${(f.privilege ?? 'CATALOG_MANAGE_CONTENT').split(' and ')[0]}.`,
  },
  {
    code: 'RUN_LAKEKEEPER_FORBIDDEN',
    component: 'catalog',
    summary:
      'Lakekeeper’s authorizer refused an action on a table, namespace or warehouse (“… action `x` forbidden …”).',
    example: 'Forbidden: Table action `commit` forbidden on table … in warehouse `…`',
    match: /(?:Table|Namespace|Warehouse|View) action `\w{1,60}` forbidden/,
    facts: (text) =>
      facts({
        kind: capture(text, /(Table|Namespace|Warehouse|View) action `/)?.toLowerCase(),
        action: capture(text, /action `(\w{1,60})` forbidden/),
        resource: capture(text, /forbidden on ([^\n]{1,200}?)(?: in warehouse|$)/),
        warehouse: capture(text, /in warehouse `([^`]{1,80})`/),
      }),
    what: (f) => `Lakekeeper refused the ${or(f.kind, 'table')} action ${or(f.action, '?')}`,
    cause: (f) =>
      `The user has no role that allows ${or(f.action, 'this action')} on ${or(f.resource, `the ${or(f.kind, 'table')}`)}.`,
    remedy: (f) =>
      `Give the user a role that allows ${or(f.action, 'it')} there, e.g. “modify” on the warehouse${f.warehouse ? ` ${f.warehouse}` : ''} (or the namespace) in the Lakekeeper UI’s Permissions tab or its management API.`,
  },
  {
    code: 'RUN_NESSIE_RULE_DENIED',
    component: 'catalog',
    summary: "Nessie’s authorization rules refused an operation (“'OP' is not allowed for role …”).",
    example: "Forbidden: 'CREATE_ENTITY' is not allowed for role 'olake' on content 'lake.orders'",
    match: /'\w{1,60}' is not allowed for role '/,
    facts: (text) =>
      facts({
        op: capture(text, /'(\w{1,60})' is not allowed for role/),
        role: capture(text, /for role '([^']{0,200})'/),
        resource: capture(text, /on (?:content|reference) '([^']{1,300})'/),
      }),
    what: (f) =>
      `Nessie’s authorization rules refused ${or(f.op, 'an operation')} to ${or(f.role, 'the user')}`,
    cause: (f) =>
      `No nessie.server.authorization.rules.* entry allows ${or(f.op, 'it')} for role '${or(f.role, '')}'${f.resource ? ` on ${f.resource}` : ''}.`,
    remedy: (f) =>
      `Add a rule such as nessie.server.authorization.rules.allow_olake="op in ['VIEW_REFERENCE','READ_ENTITY_VALUE','CREATE_ENTITY','UPDATE_ENTITY','DELETE_ENTITY','COMMIT_CHANGE_AGAINST_REFERENCE'] && role=='${or(f.role, '<user>')}'" and restart Nessie.`,
  },
  {
    code: 'RUN_LAKE_FORMATION_DENIED',
    component: 'catalog',
    summary: 'AWS Lake Formation refused: “Insufficient Lake Formation permission(s): Required … on …”.',
    example: 'Insufficient Lake Formation permission(s): Required Create Table on olake_db',
    match: /Insufficient Lake Formation permission/,
    facts: (text) => {
      const required = capture(text, /Required ([A-Za-z ]{1,40}?) on /);
      return facts({
        permission: required,
        grant: required ? (LF_PERMISSION[required] ?? required.toUpperCase().replace(/ /g, '_')) : undefined,
        resource: capture(text, /Required [A-Za-z ]{1,40}? on ([\w.:/-]{1,200})/),
      });
    },
    what: (f) =>
      `AWS Lake Formation refused: ${or(f.permission, 'a permission')} is missing${f.resource ? ` on ${f.resource}` : ''}`,
    cause: (f) =>
      `IAM allows the call, but Lake Formation governs the Glue catalog and the writer’s role has no ${or(f.grant, 'Lake Formation')} permission${f.resource ? ` on ${f.resource}` : ''}.`,
    remedy: (f) =>
      `Grant it in Lake Formation: aws lakeformation grant-permissions --principal DataLakePrincipalIdentifier=<role arn> --permissions ${or(f.grant, '<PERMISSION>')} --resource '${f.resource && f.resource !== 'catalog' ? `{"Database":{"Name":"${f.resource.split('.')[0]}"}}` : '{"Catalog":{}}'}' (or in the console: Data permissions → Grant).`,
  },
  {
    code: 'CATALOG_ASSUME_ROLE_DENIED',
    component: 'catalog',
    summary: 'AWS refused sts:AssumeRole for the role the catalog (or its signing) uses.',
    example:
      'User: arn:aws:iam::123456789012:user/olake is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::123456789012:role/…',
    match: /not authorized to perform: sts:AssumeRole/,
    facts: iamFacts,
    what: (f) =>
      `AWS refused ${or(f.principal, 'the identity')} sts:AssumeRole on ${or(f.resource, 'the role')}`,
    cause: () => INFO.CATALOG_ASSUME_ROLE_DENIED.cause,
    remedy: (f) =>
      `Let ${or(f.principal, 'the identity')} assume ${or(f.resource, 'the role')}: allow sts:AssumeRole in its policy and name it in the role’s trust policy.`,
  },
  {
    code: 'RUN_IAM_ACTION_DENIED',
    component: 'catalog',
    summary:
      'AWS IAM denied the catalog call the message names (glue:…, s3tables:…) for the identity it names.',
    example:
      'Forbidden: User: arn:aws:iam::123456789012:user/olake is not authorized to perform: glue:CreateTable on resource: arn:aws:glue:… because no identity-based policy allows the glue:CreateTable action',
    match: /not authorized to perform: (?:glue|s3tables|lakeformation):/,
    facts: iamFacts,
    what: (f) =>
      `AWS denied ${or(f.action, 'a catalog action')} to ${or(f.principal, 'the writer’s identity')}`,
    cause: (f) =>
      `The IAM policy of ${or(f.principal, 'the signing identity')} does not allow ${or(f.action, 'the action')}${f.resource ? ` on ${f.resource}` : ''}.`,
    remedy: (f) =>
      `Allow ${or(f.action, 'the action')} on ${or(f.resource, 'the resource')} for ${or(f.principal, 'that identity')} (e.g. aws iam put-user-policy / put-role-policy with "Action": "${or(f.action, '<action>')}"); OLake’s syncs also need the other create, get and update actions of the catalog.`,
  },
  {
    code: 'RUN_UNITY_USER_NOT_ALLOWED',
    component: 'catalog',
    summary:
      'Unity Catalog refused the token’s identity: no enabled Unity user has its email (PERMISSION_DENIED “User not allowed: …”).',
    example: 'Forbidden: User not allowed: olake@example.com',
    match: /User not allowed: /,
    facts: (text) => facts({ principal: capture(text, /User not allowed: ([^\s"]{1,200})/) }),
    what: (f) => `Unity Catalog does not admit ${or(f.principal, 'the token’s identity')} as a user`,
    cause: () =>
      'Unity OSS checks every request’s token subject against its own users (AuthDecorator): the token is valid, but no user with that email exists, or the user is disabled.',
    remedy: (f) =>
      `As the Unity admin, add the user: bin/uc --auth_token $(cat etc/conf/token.txt) user create --name "<name>" --email ${or(f.principal, '<email>')} (or enable it again), grant it the catalog, schema and table privileges, then run the sync again.`,
  },
  {
    code: 'RUN_UNITY_PERMISSION_DENIED',
    component: 'catalog',
    summary:
      'Unity Catalog refused the writer (PERMISSION_DENIED, “Access denied.”): its Iceberg REST API admits only the metastore’s owner (OWNER on the metastore).',
    example: 'Forbidden: Access denied.',
    match: /PERMISSION_DENIED|Forbidden: Access denied\./,
    what: () =>
      'Unity Catalog refused the writer: the privilege it checks is OWNER on the securable metastore',
    cause: () =>
      'Unity OSS authorizes every Iceberg REST call, reads included, with #authorize(#principal, #metastore, OWNER) (IcebergRestCatalogService); “Access denied.” is what any other principal gets. OWNER is not a privilege a permission grant gives: only the metastore’s owner (the server’s admin) passes.',
    remedy: () =>
      'Use the metastore owner’s token for the destination (Unity OSS writes the admin’s to etc/conf/token.txt). Through Unity’s own API a user needs, on the metastore’s objects: bin/uc permission create --securable_type catalog --name <catalog> --principal <user> --privilege "USE CATALOG"; --securable_type schema --name <catalog>.<schema> --privilege "USE SCHEMA" and --privilege "CREATE TABLE"; --securable_type table --name <catalog>.<schema>.<table> --privilege "MODIFY".',
  },
  {
    code: 'RUN_TOKEN_REFRESH_FAILED',
    component: 'catalog',
    summary:
      'The writer could not renew its OAuth2 token during a long sync (Iceberg OAuth2Util “Failed to refresh token”).',
    example: 'WARN  org.apache.iceberg.rest.auth.OAuth2Util - Failed to refresh token',
    match: /Failed to refresh token/,
    what: () => 'The writer could not renew its catalog token during the run',
    cause: () =>
      'Iceberg’s client renews the OAuth2 token before it expires; the token endpoint refused or could not be reached, so the next catalog call was rejected.',
    remedy: () =>
      'Check the destination’s OAuth2 credential and token URL (oauth2_uri) with "floe jobs test ID": they must still issue tokens (a rotated secret fails only at renewal); then run the sync again.',
  },
  oauth(
    'CATALOG_OAUTH_INVALID_CLIENT',
    'invalid_client',
    'org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: invalid_client: The Client is invalid',
  ),
  oauth(
    'CATALOG_OAUTH_UNAUTHORIZED_CLIENT',
    'unauthorized_client',
    'org.apache.iceberg.exceptions.BadRequestException: Malformed request: unauthorized_client: The client is not authorized',
  ),
  oauth(
    'CATALOG_OAUTH_INVALID_SCOPE',
    'invalid_scope',
    'org.apache.iceberg.exceptions.BadRequestException: Malformed request: invalid_scope: The scope is invalid',
  ),
  oauth(
    'CATALOG_OAUTH_ERROR',
    '(?:invalid_grant|invalid_request|unsupported_grant_type)',
    'org.apache.iceberg.exceptions.BadRequestException: Malformed request: invalid_grant: The grant is invalid',
  ),
  {
    code: 'RUN_TOKEN_EXPIRED',
    component: 'catalog',
    summary: 'The catalog rejected the writer’s token as expired (a static token outlived).',
    example:
      'org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: <the server’s text naming an expired token, JWT or ExpiredSignature>',
    match:
      /(?:Not authorized|NotAuthorized|401)[^\n]{0,300}?(?:[Tt]oken (?:has )?expired|[Ee]xpired token|[Jj]wt (?:is )?expired|[Tt]oken is expired|ExpiredSignature)/,
    what: () => 'The catalog rejected the writer’s token as expired',
    cause: () =>
      'The destination uses a static token that expired while the job ran (or since it was set); the writer does not renew static tokens.',
    remedy: () =>
      'Give the destination OAuth2 client credentials (credential + oauth2_uri) so the writer fetches fresh tokens, or a token that lives longer than the longest sync; update the destination in the OLake UI.',
    follows: ['RUN_TOKEN_REFRESH_FAILED'],
  },
  {
    code: 'CATALOG_UNAUTHORIZED',
    component: 'catalog',
    summary: 'The catalog rejected the writer’s credentials (NotAuthorizedException, 401).',
    example: 'org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: …',
    match: /NotAuthorizedException|Not authorized: /,
    what: () => 'The catalog rejected the writer’s credentials',
    cause: () =>
      'The token or client credentials in the destination are wrong, expired, revoked or for another catalog.',
    remedy: () =>
      'Check the destination’s token or credential with "floe jobs test ID" (or "floe test" on a profile), then update the destination in the OLake UI.',
    follows: ['RUN_TOKEN_REFRESH_FAILED'],
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
    code: 'CATALOG_UNAVAILABLE',
    component: 'catalog',
    summary: 'The catalog answered 503 Service Unavailable (ServiceUnavailableException).',
    example: 'org.apache.iceberg.exceptions.ServiceUnavailableException: Service unavailable: …',
    match: /ServiceUnavailableException|Service unavailable: /,
    what: () => 'The catalog answered 503 Service Unavailable',
    cause: () => INFO.CATALOG_UNAVAILABLE.cause,
    remedy: () => 'Wait for the catalog (or its load balancer) to be healthy, then run the sync again.',
  },
  {
    code: 'CATALOG_SERVER_ERROR',
    component: 'catalog',
    summary: 'The catalog failed with a server error (ServiceFailureException, 5xx).',
    example: 'org.apache.iceberg.exceptions.ServiceFailureException: Server error: …',
    match: /ServiceFailureException|Server error: /,
    what: () => 'The catalog failed with a server error',
    cause: () => 'An error inside the catalog server (or a proxy in front of it); its message says which.',
    remedy: () => 'Check the catalog server’s logs at the time of the run, then run the sync again.',
  },
  {
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
  },
];
