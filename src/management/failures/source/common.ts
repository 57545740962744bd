// Failures any source database answers (locked or refused accounts, a missing database, too many
// connections, permissions) and the facts every source rule reads. Texts and their sources: ../source.ts.
import { capture, type Facts, type FailureRule, facts, hostOf, or } from '../rule.js';

/** A line comes from a source driver. */
export const SOURCE_TEXT =
  /SQLSTATE|failed to connect to `user=|failed to ping database|failed to connect to MongoDB|failed to ping kafka|failed in pre cdc run|failed to open change stream|failed to get binlog position|ORA-\d{5}|\bError \d{4} \(|\bERROR \d{4} \(|replication slot|server selection error|SASL_AUTHENTICATION_FAILED|\(AuthenticationFailed\)|\bpq: |Kafka CDC sync|UNKNOWN_TOPIC_OR_PARTITION|(?:TOPIC|GROUP|CLUSTER)_AUTHORIZATION_FAILED|OFFSET_OUT_OF_RANGE|partition end offset|ahead of destination metadata offset|UNSUPPORTED_SASL_MECHANISM|ChangeStreamHistoryLost|Type: ReplicaSetNoPrimary|is not permitted to log in|is not allowed to connect to this|\b(?:Error|ERROR) \d{4}: /;

export function sourceFacts(text: string): Facts {
  return facts({
    user:
      capture(text, /user "([^"]{1,100})"/) ??
      capture(text, /for user '([^']{1,100})'/) ??
      capture(text, /`user=(\S{1,100}) /),
    host: capture(text, /: ([\w.-]{1,200}:\d{2,5}) \(/) ?? hostOf(text),
    slot: capture(text, /replication slot ['"]([^'"]{1,100})['"]/),
    database: capture(text, /database '([^']{1,100})'/) ?? capture(text, / database=(\S{1,100})`/),
    sqlstate: capture(text, /SQLSTATE (\w{5})/),
    topic: capture(text, /\btopic (?!metadata\b)([\w.-]{1,249})/),
    group: capture(text, /\bgroup ([\w.-]{1,255})/),
    ora: capture(text, /(ORA-\d{5})/),
  });
}

/** The host a source's network failure names: the name looked up, else the address dialled. */
export function dialFacts(text: string): Facts {
  return facts({
    host:
      capture(text, /lookup ([\w.-]{1,253}) on /) ??
      capture(text, /dial tcp ([\w.:[\]-]{1,260}): /) ??
      capture(text, /: ([\w.-]{1,200}:\d{2,5}) \(/) ??
      hostOf(text),
  });
}

export const SOURCE_FIX = 'the source’s host and port in the OLake UI (Sources → the source)';

export const SOURCE_ACCOUNT_LOCKED: FailureRule = {
  code: 'SOURCE_ACCOUNT_LOCKED',
  component: 'source',
  only: 'source',
  summary:
    'The source database refused a locked, expired or no-login account (Oracle ORA-28000 / ORA-28001, MySQL 3118 / 1862, Postgres NOLOGIN role).',
  example: "Error 3118 (HY000): Access denied for user 'olake'@'172.18.0.5'. Account is locked.",
  match:
    /ORA-2800[01]\b|(?:Error|ERROR) (?:3118|1862) \(|Account is locked\.|Your password has expired|role "[^"]{1,100}" is not permitted to log in/,
  facts: (text) =>
    facts({
      ...sourceFacts(text),
      user: capture(text, /role "([^"]{1,100})"/) ?? sourceFacts(text).user,
      db: /ORA-\d{5}/.test(text) ? 'oracle' : /(?:Error|ERROR) \d{4} \(/.test(text) ? 'mysql' : 'postgres',
      state: /is not permitted to log in/.test(text)
        ? 'nologin'
        : /ORA-28001|password has expired|(?:Error|ERROR) 1862 \(/.test(text)
          ? 'expired'
          : 'locked',
    }),
  what: (f) =>
    `The source database refused ${f.user ? `user ${f.user}` : 'the job’s user'}: ${f.state === 'nologin' ? 'the role may not log in' : f.state === 'expired' ? 'its password has expired' : 'the account is locked'}${f.ora ? ` (${f.ora})` : ''}`,
  cause: (f) =>
    f.state === 'nologin'
      ? 'The Postgres role exists but has NOLOGIN (a group role, or LOGIN was revoked), so no password is even checked.'
      : f.state === 'expired'
        ? 'The account’s password passed its lifetime (a password profile or policy); the server refuses logins until it is changed, so the username and password in the source are right but no longer accepted.'
        : 'The database locked the account: an administrator locked it, or too many failed logins (often a sync retrying with an old password) locked it.',
  remedy: (f) => {
    const user = or(f.user, '<user>');
    if (f.state === 'nologin')
      return `As a superuser on the source: ALTER ROLE ${user} LOGIN; then run the sync again.`;
    if (f.db === 'oracle')
      return f.state === 'expired'
        ? `As a DBA: ALTER USER ${user} IDENTIFIED BY "<new password>"; then put the new password in the source in the OLake UI (or give the user a profile with PASSWORD_LIFE_TIME UNLIMITED).`
        : `As a DBA: ALTER USER ${user} ACCOUNT UNLOCK; and make sure the source’s password in the OLake UI is right first, or failed logins lock it again.`;
    if (f.db === 'mysql')
      return f.state === 'expired'
        ? `As an admin: ALTER USER '${user}'@'<host>' IDENTIFIED BY '<new password>'; (or PASSWORD EXPIRE NEVER), then put the new password in the source in the OLake UI.`
        : `As an admin: ALTER USER '${user}'@'<host>' ACCOUNT UNLOCK; (SELECT user, host, account_locked FROM mysql.user shows the account), then run the sync again.`;
    return `As a superuser: ALTER ROLE ${user} VALID UNTIL 'infinity'; or set a new password, then run the sync again.`;
  },
};

export const SOURCE_HOST_NOT_ALLOWED: FailureRule = {
  code: 'SOURCE_HOST_NOT_ALLOWED',
  component: 'source',
  only: 'source',
  summary: 'MySQL has no account for the job’s user from the OLake worker’s address (1130).',
  example: "Error 1130: Host '172.18.0.5' is not allowed to connect to this MySQL server",
  match: /is not allowed to connect to this (?:MySQL|MariaDB) server/,
  facts: (text) => facts({ client: capture(text, /Host '([^']{1,100})' is not allowed/) }),
  what: (f) => `MySQL refused the OLake worker’s address${f.client ? ` ${f.client}` : ''} before the login`,
  cause: () =>
    'MySQL accounts are user@host: no account of the source’s user matches the host the worker connects from (often the user exists only as user@localhost).',
  remedy: (f) =>
    `As an admin: CREATE USER '<user>'@'${or(f.client, '<worker address>')}' IDENTIFIED BY '<password>'; (or '<user>'@'%') and grant it what the sync needs (GRANT SELECT, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO it), then run the sync again.`,
};

export const SOURCE_DATABASE_MISSING: FailureRule = {
  code: 'SOURCE_DATABASE_MISSING',
  component: 'source',
  only: 'source',
  summary: 'The database the source names does not exist on the server (Postgres 3D000, MySQL 1049).',
  example: 'FATAL: database "prod" does not exist (SQLSTATE 3D000)',
  match: /database "[^"]{1,100}" does not exist|(?:Error|ERROR) 1049 \(|Unknown database '/,
  facts: (text) =>
    facts({
      ...sourceFacts(text),
      database:
        capture(text, /database "([^"]{1,100})" does not exist/) ??
        capture(text, /Unknown database '([^']{1,100})'/),
      mysql: /1049|Unknown database/.test(text) ? 'yes' : undefined,
    }),
  what: (f) => `The source server has no database ${or(f.database, 'by the name the source gives')}`,
  cause: () =>
    'The database name in the source is misspelt (names are case-sensitive), or the source points at another server than the one holding the data.',
  remedy: (f) =>
    `Set the source’s database to one that exists (${f.mysql ? 'SHOW DATABASES;' : 'SELECT datname FROM pg_database;'} lists them) in the OLake UI, or create ${or(f.database, 'it')}, then test the source.`,
};

export const SOURCE_TOO_MANY_CONNECTIONS: FailureRule = {
  code: 'SOURCE_TOO_MANY_CONNECTIONS',
  component: 'source',
  only: 'source',
  summary: 'The source database has no free connection slot (Postgres 53300 “too many clients”, MySQL 1040).',
  example: 'FATAL: sorry, too many clients already (SQLSTATE 53300)',
  match:
    /sorry, too many clients already|remaining connection slots are reserved|too many connections for role|(?:Error|ERROR) 1040\b|Too many connections/,
  facts: sourceFacts,
  what: () => 'The source database refused a new connection: its connection limit is reached',
  cause: () =>
    'The server’s max_connections (or the role’s CONNECTION LIMIT) is used up: the sync opens a connection per thread, on top of the applications’ and any idle ones.',
  remedy: () =>
    'Lower the job’s max threads in its advanced settings, end idle connections on the source, or raise max_connections (a restart for Postgres), then run the sync again.',
};

export const SOURCE_AUTH_FAILED: FailureRule = {
  code: 'SOURCE_AUTH_FAILED',
  component: 'source',
  summary:
    'The source database refused the login (Postgres 28P01, MySQL 1045, MongoDB AuthenticationFailed, Oracle ORA-01017, Kafka SASL).',
  example:
    'failed to connect to `user=olake database=prod`: 10.0.0.5:5432 (postgres.db.internal): server error: FATAL: password authentication failed for user "olake" (SQLSTATE 28P01)',
  match:
    /password authentication failed|SQLSTATE 28P01|SQLSTATE 28000|Error 1045 \(28000\)|ERROR 1045 \(28000\)|\(AuthenticationFailed\)|ORA-01017|SASL_AUTHENTICATION_FAILED|SASL Authentication failed/,
  facts: sourceFacts,
  what: (f) =>
    `The source database refused the login${f.user ? ` of user ${f.user}` : ''}${f.host ? ` at ${f.host}` : ''}`,
  cause: () =>
    'The source’s username or password is wrong (or, for Postgres, its VALID UNTIL has passed), or the user may not log in from the OLake worker’s address.',
  remedy: (f) =>
    `Fix the username and password of the job’s source in the OLake UI (Sources → the source → test connection)${f.sqlstate === '28000' ? '; for Postgres also check pg_hba.conf allows the worker’s address' : ''}.`,
};

export const SOURCE_PERMISSION_DENIED: FailureRule = {
  code: 'SOURCE_PERMISSION_DENIED',
  component: 'source',
  only: 'source',
  summary:
    'The source database denied the job’s user an object it reads (Postgres 42501, MySQL 1142 / 1044, MongoDB Unauthorized, Oracle ORA-01045).',
  example: 'ERROR: permission denied for table orders (SQLSTATE 42501)',
  match:
    /permission denied for (?:table|schema|relation|sequence|database|view) |(?:Error|ERROR) (?:1142|1044) \(|\(Unauthorized\) not authorized on |ORA-01045/,
  facts: (text) =>
    facts({
      ...sourceFacts(text),
      object:
        capture(
          text,
          /permission denied for (?:table|schema|relation|sequence|database|view) ([^\s(]{1,200})/,
        ) ??
        capture(text, /for table '([^']{1,192})'/) ??
        capture(text, /to database '([^']{1,192})'/) ??
        capture(text, /not authorized on ([^\s]{1,100}) to execute/),
      kind: /ORA-01045/.test(text)
        ? 'oracle'
        : /not authorized on /.test(text)
          ? 'mongo'
          : /(?:Error|ERROR) 1(?:142|044) \(/.test(text)
            ? 'mysql'
            : 'postgres',
      schema: /permission denied for schema /.test(text) ? 'yes' : undefined,
    }),
  what: (f) =>
    f.kind === 'oracle'
      ? 'Oracle refused the login: the user lacks CREATE SESSION (ORA-01045)'
      : `The source database denied the job’s user ${f.object ? `access to ${f.object}` : 'an object it reads'}`,
  cause: (f) =>
    f.kind === 'oracle'
      ? 'An Oracle user needs the CREATE SESSION privilege to log in at all.'
      : 'The user logs in, but lacks the read privilege on a table, schema or database the job selected.',
  remedy: (f) => {
    const user = or(f.user, '<user>');
    const object = or(f.object, '<object>');
    if (f.kind === 'oracle') return `As a DBA: GRANT CREATE SESSION TO ${user};`;
    if (f.kind === 'mongo')
      return `Grant the user the read role on that database: db.getSiblingDB('admin').grantRolesToUser('${user}', [{ role: 'read', db: '${f.object ?? '<database>'}' }]) (change streams need it too), then run the sync again.`;
    if (f.kind === 'mysql')
      return `As an admin: GRANT SELECT ON ${f.object && !f.object.includes('.') ? `<database>.${f.object}` : '<database>.*'} TO '${user}'@'%'; then run the sync again.`;
    return f.schema
      ? `On the source: GRANT USAGE ON SCHEMA ${object} TO ${user}; GRANT SELECT ON ALL TABLES IN SCHEMA ${object} TO ${user}; then run the sync again.`
      : `On the source: GRANT SELECT ON ${object} TO ${user}; (and GRANT USAGE on its schema), then run the sync again.`;
  },
};

export const SOURCE_FAILED: FailureRule = {
  code: 'SOURCE_FAILED',
  component: 'source',
  summary: 'The source database failed with a message floe has no rule for; its message is shown.',
  example: 'failed to ping database: …',
  match: SOURCE_TEXT,
  facts: sourceFacts,
  what: (f) => `The source database failed${f.host ? ` (${f.host})` : ''}; the destination is not involved`,
  cause: () => 'The source driver’s own error, shown as evidence; floe does not know this one.',
  remedy: () =>
    'Read the source’s message below; test the source in the OLake UI (Sources → test connection).',
};
