// Each catalog server's own refusals inside the Iceberg client's messages: Polaris, Lakekeeper, Nessie,
// Unity OSS. Texts and their sources: ../catalog.ts.
import { POLARIS_PRIVILEGE } from '../../../write/diagnoses.js';
import { capture, type Facts, type FailureRule, facts, or } from '../rule.js';

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

export const RUN_POLARIS_NO_PRINCIPAL_ROLE: FailureRule = {
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
};

export const RUN_POLARIS_NOT_AUTHORIZED: FailureRule = {
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
};

export const RUN_LAKEKEEPER_FORBIDDEN: FailureRule = {
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
};

export const RUN_NESSIE_RULE_DENIED: FailureRule = {
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
};

export const RUN_UNITY_USER_NOT_ALLOWED: FailureRule = {
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
};

export const RUN_UNITY_PERMISSION_DENIED: FailureRule = {
  code: 'RUN_UNITY_PERMISSION_DENIED',
  component: 'catalog',
  summary:
    'Unity Catalog refused the writer (PERMISSION_DENIED, “Access denied.”): its Iceberg REST API admits only the metastore’s owner (OWNER on the metastore).',
  example: 'Forbidden: Access denied.',
  match: /PERMISSION_DENIED|Forbidden: Access denied\./,
  what: () => 'Unity Catalog refused the writer: the privilege it checks is OWNER on the securable metastore',
  cause: () =>
    'Unity OSS authorizes every Iceberg REST call, reads included, with #authorize(#principal, #metastore, OWNER) (IcebergRestCatalogService); “Access denied.” is what any other principal gets. OWNER is not a privilege a permission grant gives: only the metastore’s owner (the server’s admin) passes.',
  remedy: () =>
    'Use the metastore owner’s token for the destination (Unity OSS writes the admin’s to etc/conf/token.txt). Through Unity’s own API a user needs, on the metastore’s objects: bin/uc permission create --securable_type catalog --name <catalog> --principal <user> --privilege "USE CATALOG"; --securable_type schema --name <catalog>.<schema> --privilege "USE SCHEMA" and --privilege "CREATE TABLE"; --securable_type table --name <catalog>.<schema>.<table> --privilege "MODIFY".',
};
