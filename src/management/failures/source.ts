// The source side of a sync. floe is a destination tool, but a failed sync's reader needs at least
// "the source failed, here is its message". Texts: jackc/pgx pgconn/errors.go:52-88 (PgError
// "SEVERITY: message (SQLSTATE code)", ConnectError "failed to connect to `user=… database=…`: host (name):
// …"); go-sql-driver/mysql errors.go:72 ("Error %d (%s): %s"); mongo-go-driver x/mongo/driver/auth/auth.go
// ("unable to authenticate using mechanism …") and topology/errors.go ("server selection error: …");
// OLake's own checks (datazip-inc/olake drivers/postgres/internal/postgres.go:154, drivers/kafka/internal/
// kafka.go:118); the servers' messages (PostgreSQL, MySQL, MongoDB, Oracle, Kafka). Oracle through
// sijms/go-ora v2.8.24: OracleError.Error() is "<server message> error occur at position: N"
// (v2/network/oracle_error.go:14-21), its own texts for the listener (oracle_error.go:54-58, refuse_packet.go:69).
// OLake v0.9.4's Oracle driver has no CDC (drivers/oracle/internal/cdc.go:10), so no LogMiner, supplemental
// logging or archivelog failure reaches a sync log. Kafka through twmb/franz-go v1.21.1: kerr.Error is
// "MESSAGE: Description" (pkg/kerr/kerr.go:30-31), a broker's message appended as ": <message>"
// (pkg/kgo/errors.go:421), "unable to dial: %w" (pkg/kgo/broker.go:730); OLake's offset checks
// (drivers/kafka/internal/cdc.go:471,476). Network texts are Go's net and crypto/tls errors.
// Locked and expired accounts: Oracle's ORA-28000 / ORA-28001, MySQL's ER_ACCOUNT_HAS_BEEN_LOCKED (3118) and
// ER_MUST_CHANGE_PASSWORD_LOGIN (1862, mysql-server share/messages_to_clients.txt), Postgres's "role \"%s\" is
// not permitted to log in" (src/backend/utils/init/miscinit.c). Postgres CDC through pgoutput (olake
// pkg/waljs/pgoutput.go:37-40): the publication (pg_publication.c) and the slot held by another process
// (slot.c ReplicationSlotAcquire). MongoDB: ChangeStreamHistoryLost (286) and a replica set with no primary
// (mongo-go-driver description/topology.go "Type: ReplicaSetNoPrimary").
import { capture, type Facts, type FailureRule, facts, hostOf, or } from './rule.js';

/** A line comes from a source driver. */
export const SOURCE_TEXT =
  /SQLSTATE|failed to connect to `user=|failed to ping database|failed to connect to MongoDB|failed to ping kafka|failed in pre cdc run|failed to open change stream|failed to get binlog position|ORA-\d{5}|\bError \d{4} \(|\bERROR \d{4} \(|replication slot|server selection error|SASL_AUTHENTICATION_FAILED|\(AuthenticationFailed\)|\bpq: |Kafka CDC sync|UNKNOWN_TOPIC_OR_PARTITION|(?:TOPIC|GROUP|CLUSTER)_AUTHORIZATION_FAILED|OFFSET_OUT_OF_RANGE|partition end offset|ahead of destination metadata offset|UNSUPPORTED_SASL_MECHANISM|ChangeStreamHistoryLost|Type: ReplicaSetNoPrimary|is not permitted to log in|is not allowed to connect to this|\b(?:Error|ERROR) \d{4}: /;

function sourceFacts(text: string): Facts {
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
function dialFacts(text: string): Facts {
  return facts({
    host:
      capture(text, /lookup ([\w.-]{1,253}) on /) ??
      capture(text, /dial tcp ([\w.:[\]-]{1,260}): /) ??
      capture(text, /: ([\w.-]{1,200}:\d{2,5}) \(/) ??
      hostOf(text),
  });
}

const SOURCE_FIX = 'the source’s host and port in the OLake UI (Sources → the source)';

export const SOURCE_RULES: FailureRule[] = [
  {
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
  },
  {
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
  },
  {
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
  },
  {
    code: 'SOURCE_TOO_MANY_CONNECTIONS',
    component: 'source',
    only: 'source',
    summary:
      'The source database has no free connection slot (Postgres 53300 “too many clients”, MySQL 1040).',
    example: 'FATAL: sorry, too many clients already (SQLSTATE 53300)',
    match:
      /sorry, too many clients already|remaining connection slots are reserved|too many connections for role|(?:Error|ERROR) 1040\b|Too many connections/,
    facts: sourceFacts,
    what: () => 'The source database refused a new connection: its connection limit is reached',
    cause: () =>
      'The server’s max_connections (or the role’s CONNECTION LIMIT) is used up: the sync opens a connection per thread, on top of the applications’ and any idle ones.',
    remedy: () =>
      'Lower the job’s max threads in its advanced settings, end idle connections on the source, or raise max_connections (a restart for Postgres), then run the sync again.',
  },
  {
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
  },
  {
    code: 'SOURCE_PG_SLOT_MISSING',
    component: 'source',
    summary: 'The Postgres replication slot the job’s CDC uses does not exist.',
    example: "replication slot 'olake_slot' does not exist in the current database 'prod'",
    match: /replication slot ['"][^'"]{1,100}['"] does not exist/,
    facts: sourceFacts,
    what: (f) =>
      `The Postgres replication slot ${or(f.slot, '?')} does not exist${f.database ? ` in ${f.database}` : ''}`,
    cause: () =>
      'CDC reads a logical replication slot that was never created, was dropped, or lives in another database.',
    remedy: (f) =>
      `Create it in the source database: SELECT pg_create_logical_replication_slot('${or(f.slot, 'olake_slot')}', 'pgoutput'); (connected to ${or(f.database, 'the job’s database')}), then run the sync again.`,
  },
  {
    code: 'SOURCE_PG_PUBLICATION_MISSING',
    component: 'source',
    summary: 'The Postgres publication the job’s pgoutput CDC names does not exist (42704).',
    example: 'ERROR: publication "olake_pub" does not exist (SQLSTATE 42704)',
    match: /publication "[^"]{1,100}" does not exist/,
    facts: (text) =>
      facts({ ...sourceFacts(text), publication: capture(text, /publication "([^"]{1,100})"/) }),
    what: (f) => `The Postgres publication ${or(f.publication, 'the source names')} does not exist`,
    cause: () =>
      'CDC through pgoutput streams the tables of the publication named in the source; it was never created, was dropped, or lives in another database than the job’s.',
    remedy: (f) =>
      `In the job’s database on the source: CREATE PUBLICATION ${or(f.publication, 'olake_pub')} FOR ALL TABLES; (or FOR TABLE each selected table), or set the source’s publication to one that exists (SELECT pubname FROM pg_publication;), then run the sync again.`,
  },
  {
    code: 'SOURCE_PG_SLOT_IN_USE',
    component: 'source',
    summary: 'The Postgres replication slot is held by another connection (55006: active for PID n).',
    example: 'ERROR: replication slot "olake_slot" is active for PID 4242 (SQLSTATE 55006)',
    match: /replication slot "[^"]{1,100}" is active for PID \d{1,10}/,
    facts: (text) => facts({ ...sourceFacts(text), pid: capture(text, /is active for PID (\d{1,10})/) }),
    what: (f) =>
      `The Postgres replication slot ${or(f.slot, '?')} is in use by another connection${f.pid ? ` (PID ${f.pid})` : ''}`,
    cause: () =>
      'A slot streams to one consumer at a time: another job (or another run of this one) reads the same slot, or a previous run’s connection is still open on the server.',
    remedy: (f) =>
      `Give each job its own slot, and stop the other consumer; if it is a stale connection, end it on the source: SELECT pg_terminate_backend(${or(f.pid, '<pid>')}); (SELECT active_pid FROM pg_replication_slots WHERE slot_name = '${or(f.slot, '<slot>')}'; shows it), then run the sync again.`,
  },
  {
    code: 'SOURCE_PG_WAL_LEVEL',
    component: 'source',
    summary: 'Postgres is not set up for logical decoding (wal_level is not logical).',
    example: 'ERROR: logical decoding requires wal_level >= logical (SQLSTATE 55000)',
    match: /logical decoding requires "?wal_level"? >= "?logical/,
    facts: sourceFacts,
    what: () => 'Postgres refused logical decoding: wal_level is not logical',
    cause: () => 'CDC needs wal_level = logical on the source server (the default is replica).',
    remedy: () =>
      'On the source: ALTER SYSTEM SET wal_level = logical; then restart Postgres (on RDS / Cloud SQL set rds.logical_replication = 1 / cloudsql.logical_decoding = on in the parameter group).',
  },
  {
    code: 'SOURCE_PG_REPLICATION_PRIVILEGE',
    component: 'source',
    summary: 'The Postgres user may not use replication slots (no REPLICATION attribute).',
    example: 'ERROR: permission denied to use replication slots (SQLSTATE 42501)',
    match: /permission denied to use replication slots|must be superuser or replication role/,
    facts: sourceFacts,
    what: (f) => `Postgres refused replication to user ${or(f.user, 'the job’s user')}`,
    cause: () => 'CDC needs a user with the REPLICATION attribute (or rds_replication on RDS).',
    remedy: (f) =>
      `On the source: ALTER ROLE ${or(f.user, '<user>')} WITH REPLICATION; (on RDS: GRANT rds_replication TO ${or(f.user, '<user>')};).`,
  },
  {
    code: 'SOURCE_MYSQL_REPLICATION_PRIVILEGE',
    component: 'source',
    summary: 'The MySQL user lacks REPLICATION SLAVE / REPLICATION CLIENT for reading the binlog (1227).',
    example:
      'Error 1227 (42000): Access denied; you need (at least one of) the REPLICATION CLIENT privilege(s) for this operation',
    match: /(?:Error|ERROR) 1227 \(42000\)|REPLICATION (?:SLAVE|CLIENT) privilege/,
    facts: sourceFacts,
    what: () => 'MySQL refused the binlog reader: the user lacks a replication privilege',
    cause: () => 'CDC reads the binlog, which needs REPLICATION SLAVE and REPLICATION CLIENT.',
    remedy: () => "On the source: GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '<user>'@'%';",
  },
  {
    code: 'SOURCE_PG_SLOT_LOST',
    component: 'source',
    only: 'source',
    summary:
      'The Postgres slot can no longer serve the job: its WAL was removed (slot invalidated, 55000; requested WAL segment removed, 58P01).',
    example: 'ERROR: can no longer get changes from replication slot "olake_slot" (SQLSTATE 55000)',
    match:
      /can no longer get changes from replication slot|requested WAL segment \S{1,64} has already been removed/,
    facts: (text) => facts({ ...sourceFacts(text), slot: capture(text, /replication slot "([^"]{1,100})"/) }),
    what: (f) => `The Postgres replication slot ${or(f.slot, 'of the job')} lost the WAL the job still needs`,
    cause: () =>
      'The slot fell further behind than the server keeps WAL for (max_slot_wal_keep_size, or the WAL was removed), so Postgres invalidated it: the changes since the job’s last sync are gone.',
    remedy: (f) =>
      `Recreate the slot (SELECT pg_drop_replication_slot('${or(f.slot, 'olake_slot')}'); SELECT pg_create_logical_replication_slot('${or(f.slot, 'olake_slot')}', 'pgoutput');), clear the destination in the OLake UI for a new full load, and raise max_slot_wal_keep_size or sync more often so it does not fall behind again.`,
  },
  {
    code: 'SOURCE_MYSQL_SERVER_ID',
    component: 'source',
    only: 'source',
    summary:
      'Another binlog reader connected to MySQL with the job’s replica server_id, so MySQL dropped one of them (1236).',
    example:
      'ERROR 1236 (HY000): A replica with the same server_uuid/server_id as this replica has connected to the source; …',
    match: /same server_uuid\/server_id as this (?:replica|slave)/,
    facts: sourceFacts,
    what: () => 'MySQL dropped the job’s binlog reader: another reader uses the same server_id',
    cause: () =>
      'A binlog reader is known to MySQL by its server_id. OLake keeps the job’s in its state, so two runs of the same job at once (or two jobs sharing a copied state, or another replica with that id) collide and MySQL disconnects the older one.',
    remedy: () =>
      'Make sure only one run of the job reads the binlog at a time (no overlapping schedule or manual run), and give a job that was copied from another its own state (clear it); SHOW REPLICAS / SHOW PROCESSLIST on the source lists the readers.',
  },
  {
    code: 'SOURCE_MYSQL_BINLOG',
    component: 'source',
    summary: 'MySQL’s binary log is off, or the position the job needs was purged (1381, 1236).',
    example: 'ERROR 1236 (HY000): Could not find first log file name in binary index file',
    match:
      /You are not using binary logging|Could not find first log file name in binary index file|(?:Error|ERROR) 1236 \(HY000\)/,
    facts: sourceFacts,
    what: () => 'MySQL cannot serve the binlog the job reads',
    cause: () =>
      'Binary logging is off (log_bin), or the binlog file the job’s state points at was purged before the sync read it.',
    remedy: () =>
      'Enable log_bin with binlog_format=ROW and binlog_row_image=FULL; if the position was purged, keep binlogs longer (binlog_expire_logs_seconds) and clear the job’s state for a new full load.',
  },
  {
    code: 'SOURCE_MONGO_NOT_REPLICA_SET',
    component: 'source',
    summary: 'MongoDB change streams need a replica set or sharded cluster (40573).',
    example: '(Location40573) The $changeStream stage is only supported on replica sets',
    match: /only supported on replica sets|Location40573/,
    facts: sourceFacts,
    what: () => 'MongoDB refused the change stream: the server is not a replica set',
    cause: () => 'CDC uses change streams, which a standalone mongod does not offer.',
    remedy: () =>
      'Run MongoDB as a replica set (a single-node one works: --replSet rs0, then rs.initiate()), or sync this job with full refresh.',
  },
  {
    code: 'SOURCE_MONGO_HISTORY_LOST',
    component: 'source',
    summary:
      'The MongoDB change stream cannot resume: the oplog no longer holds the job’s resume point (ChangeStreamHistoryLost, 286).',
    example:
      '(ChangeStreamHistoryLost) Resume of change stream was not possible, as the resume point may no longer be in the oplog.',
    match: /ChangeStreamHistoryLost|resume point may no longer be in the oplog/,
    facts: sourceFacts,
    what: () => 'MongoDB cannot resume the job’s change stream: its resume point has left the oplog',
    cause: () =>
      'The resume token in the job’s state points at an oplog entry that was overwritten: the job did not run for longer than the oplog window, or the oplog is small for the write rate.',
    remedy: () =>
      'Clear the destination and the job’s state in the OLake UI (Jobs → the job → Clear destination) and run a full load again; to keep it from recurring, enlarge the oplog (db.adminCommand({replSetResizeOplog: 1, size: <MB>}) or minRetentionHours) and sync more often than the window (rs.printReplicationInfo() shows it).',
  },
  {
    code: 'SOURCE_MONGO_NO_PRIMARY',
    component: 'source',
    summary: 'The MongoDB replica set has no primary the driver can select (ReplicaSetNoPrimary).',
    example:
      'server selection error: context deadline exceeded, current topology: { Type: ReplicaSetNoPrimary, Servers: [{ Addr: mongo-1.db.internal:27017, Type: RSSecondary, … }, ] }',
    match: /Type: ReplicaSetNoPrimary/,
    facts: sourceFacts,
    what: (f) => `MongoDB’s replica set${f.host ? ` (${f.host})` : ''} has no primary the worker can reach`,
    cause: () =>
      'The members the worker reaches are secondaries: the primary is down or unreachable from the worker, or no majority is up to elect one.',
    remedy: () =>
      'Check the replica set with rs.status() on a member and bring a majority up so a primary is elected; make every member’s host name (as rs.conf() lists it) reachable from the OLake worker, or read from secondaries (readPreference=secondaryPreferred in the source).',
  },
  {
    code: 'SOURCE_ORACLE_NOT_GRANTED',
    component: 'source',
    summary:
      'Oracle refused the job’s user a table it reads (ORA-00942 for a table not granted, ORA-01031 insufficient privileges).',
    example:
      'ORA-00942: table or view does not exist\\n error occur at position: 14 (go-ora; the \\n is a line break)',
    match: /ORA-00942|ORA-01031/,
    facts: sourceFacts,
    what: (f) =>
      `Oracle refused the job’s user ${f.ora === 'ORA-01031' ? 'a privilege it needs' : 'a table it reads'} (${or(f.ora, 'ORA-00942')})`,
    cause: () =>
      'Oracle answers ORA-00942 both when a table is missing and when the user may not see it: the sync reads each selected table with SELECT, which needs a grant unless the user owns the table.',
    remedy: () =>
      'As the table’s owner or a DBA: GRANT SELECT ON <schema>.<table> TO <user>; for every selected stream (or GRANT SELECT ANY TABLE TO <user>;), then run the sync again; discover the source again if a table was dropped.',
  },
  {
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
  },
  {
    code: 'SOURCE_ORACLE_LISTENER',
    component: 'source',
    summary:
      'The Oracle listener answered but refused the connection: the service name is unknown to it (ORA-12514) or it refused (ORA-12564, ORA-12506).',
    example: 'ORA-12514: TNS:listener does not currently know of service requested in connect descriptor',
    match: /ORA-12514|ORA-12564|ORA-12506|ORA-12505/,
    facts: sourceFacts,
    what: (f) => `The Oracle listener refused the connection (${or(f.ora, 'ORA-12514')})`,
    cause: (f) =>
      f.ora === 'ORA-12514' || f.ora === 'ORA-12505'
        ? 'The listener is up but serves no database under the service name (or SID) the source names.'
        : 'The listener is up but refused the worker (its access list, or no handler for the service).',
    remedy: () =>
      'Set the source’s service name (or SID) to one the listener serves (lsnrctl services on the database host lists them) in the OLake UI, then test the source.',
  },
  {
    code: 'SOURCE_KAFKA_SASL_MECHANISM',
    component: 'source',
    summary:
      'The Kafka brokers do not enable the SASL mechanism the source uses (UNSUPPORTED_SASL_MECHANISM).',
    example: 'UNSUPPORTED_SASL_MECHANISM: The broker does not support the requested SASL mechanism.',
    match: /UNSUPPORTED_SASL_MECHANISM/,
    facts: sourceFacts,
    what: () => 'The Kafka brokers refused the source’s SASL mechanism',
    cause: () =>
      'The source logs in with one mechanism (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) and the brokers’ listener enables others.',
    remedy: () =>
      'Set the source’s SASL mechanism in the OLake UI to one the brokers list in sasl.enabled.mechanisms (for the listener the source connects to), or enable it there, then test the source.',
  },
  {
    code: 'SOURCE_KAFKA_UNKNOWN_TOPIC',
    component: 'source',
    summary: 'A topic the job reads does not exist on the Kafka cluster (UNKNOWN_TOPIC_OR_PARTITION).',
    example: 'UNKNOWN_TOPIC_OR_PARTITION: This server does not host this topic-partition.',
    match: /UNKNOWN_TOPIC_OR_PARTITION|UNKNOWN_TOPIC_ID|topic [\w.-]{1,249} not found in metadata/,
    facts: sourceFacts,
    what: (f) => `Kafka does not host the topic${f.topic ? ` ${f.topic}` : ' the job reads'}`,
    cause: () =>
      'The topic was deleted or renamed after the job’s streams were discovered, or the brokers are another cluster than the one discovered.',
    remedy: (f) =>
      `Create the topic (kafka-topics.sh --create --topic ${or(f.topic, '<topic>')}) or discover the source again and drop the stream from the job, then run the sync again.`,
  },
  {
    code: 'SOURCE_KAFKA_NOT_AUTHORIZED',
    component: 'source',
    summary:
      'Kafka’s ACLs refused the job’s principal a topic or its consumer group (TOPIC_AUTHORIZATION_FAILED, GROUP_AUTHORIZATION_FAILED).',
    example: 'GROUP_AUTHORIZATION_FAILED: Not authorized to access group: Group authorization failed.',
    match: /(?:TOPIC|GROUP|CLUSTER)_AUTHORIZATION_FAILED/,
    facts: (text) =>
      facts({
        ...sourceFacts(text),
        kind: capture(text, /\b(TOPIC|GROUP|CLUSTER)_AUTHORIZATION_FAILED/)?.toLowerCase(),
      }),
    what: (f) => `Kafka refused the job’s principal access to its ${or(f.kind, 'topic')}`,
    cause: (f) =>
      f.kind === 'group'
        ? 'The sync reads as a consumer group (OLake commits its offsets there); the principal has no Read ACL on that group.'
        : 'The principal the source logs in as has no Read / Describe ACL on the topic.',
    remedy: (f) =>
      f.kind === 'group'
        ? `kafka-acls.sh --bootstrap-server <broker> --add --allow-principal User:<user> --operation Read --group ${or(f.group, '<consumer group id>')} (the consumer group id is in the job’s source settings or its state).`
        : `kafka-acls.sh --bootstrap-server <broker> --add --allow-principal User:<user> --operation Read --operation Describe --topic ${or(f.topic, '<topic>')}`,
  },
  {
    code: 'SOURCE_KAFKA_OFFSETS',
    component: 'source',
    summary:
      'The offsets the job resumes from are not on the partition any more (OFFSET_OUT_OF_RANGE, or OLake’s own check against the partition end).',
    example:
      'failed with non retryable error: stream[topics.orders] topic orders partition 0 metadata offset: 1500 exceeds partition end offset: 1200, run clear destination and restart',
    match: /OFFSET_OUT_OF_RANGE|exceeds partition end offset|ahead of destination metadata offset/,
    facts: sourceFacts,
    what: (f) =>
      `The Kafka offsets the job resumes from do not match ${f.topic ? `topic ${f.topic}` : 'the topic'} any more`,
    cause: () =>
      'The topic was recreated or truncated, retention deleted the messages the state points at, or the consumer group’s offsets moved outside OLake.',
    remedy: () =>
      'Clear the destination and the job’s state in the OLake UI (Jobs → the job → Clear destination) and run the sync again; it reads the topic from its start offsets.',
  },
  {
    code: 'SOURCE_DNS',
    component: 'source',
    only: 'source',
    summary: 'The source database’s host name does not resolve from the OLake worker (no such host).',
    example: 'failed to ping database: dial tcp: lookup oracle.db.internal on 127.0.0.11:53: no such host',
    match: /no such host|Name or service not known|Temporary failure in name resolution/,
    facts: dialFacts,
    what: (f) =>
      f.host
        ? `The source’s host name ${f.host} does not resolve`
        : 'The source’s host name does not resolve',
    cause: () =>
      'The host name is misspelt, or resolves only on another network than the OLake worker’s (a Docker service name, a private DNS zone).',
    remedy: () => `Use a host name or address the OLake worker resolves for ${SOURCE_FIX}.`,
  },
  {
    code: 'SOURCE_TLS',
    component: 'source',
    only: 'source',
    summary:
      'The TLS handshake with the source failed: its certificate is not trusted, or TLS is on at one end only.',
    example: 'tls: failed to verify certificate: x509: certificate signed by unknown authority',
    match: /tls: |x509: |plaintext connection speaking to a tls endpoint|server refused TLS connection/,
    facts: (text) =>
      facts({
        ...dialFacts(text),
        plaintext: /plaintext connection speaking to a tls endpoint/.test(text) ? 'yes' : undefined,
        refused: /server refused TLS connection/.test(text) ? 'yes' : undefined,
      }),
    what: (f) =>
      f.plaintext
        ? 'The source speaks TLS but the job connects in plain text'
        : f.refused
          ? 'The source requires TLS but the server does not offer it'
          : 'The source’s TLS certificate was not accepted',
    cause: (f) =>
      f.plaintext
        ? 'The brokers’ listener expects TLS (SSL or SASL_SSL) and the source’s security protocol is PLAINTEXT or SASL_PLAINTEXT.'
        : f.refused
          ? 'The source’s SSL mode requires TLS (require, verify-ca, verify-full) and the Postgres server answered that it has ssl off.'
          : 'The certificate is signed by a CA the worker does not trust, has expired, or does not name the host the source connects to.',
    remedy: (f) =>
      f.plaintext
        ? 'Set the source’s security protocol to SSL or SASL_SSL (with the brokers’ CA certificate) in the OLake UI.'
        : f.refused
          ? 'Turn ssl on in the server (ssl = on with a certificate in postgresql.conf), or set the source’s SSL mode to disable or prefer in the OLake UI.'
          : 'Give the source the server’s CA certificate (or its ssl mode / server CA field), or connect by the host name the certificate names.',
  },
  {
    code: 'SOURCE_CONNECTION_REFUSED',
    component: 'source',
    summary: 'Nothing listened at the source database’s host and port (connection refused).',
    example:
      'failed to connect to `user=olake database=prod`: 10.0.0.5:5432 (postgres.db.internal): dial error: dial tcp 10.0.0.5:5432: connect: connection refused',
    match: /connection refused|ECONNREFUSED|Connection refused/,
    only: 'source',
    facts: sourceFacts,
    what: (f) => `The source database at ${or(f.host, 'its host')} refused the connection`,
    cause: () =>
      'The source is down, or the host/port in the source is not reachable from the OLake worker (localhost inside a container?).',
    remedy: (f) =>
      `Check the source is up and ${f.host ? `that ${f.host}` : 'its host and port'} is reachable from the OLake worker, then run the sync again.`,
  },
  {
    code: 'SOURCE_TIMEOUT',
    component: 'source',
    only: 'source',
    summary: 'The source database did not answer in time (i/o timeout, context deadline exceeded).',
    example: 'failed to ping kafka brokers: unable to dial: dial tcp 10.0.0.9:9092: i/o timeout',
    match: /i\/o timeout|context deadline exceeded|[Tt]imed out/,
    facts: dialFacts,
    what: (f) => `The source${f.host ? ` at ${f.host}` : ''} did not answer in time`,
    cause: () =>
      'A firewall or security group drops the worker’s packets, or the address is one the worker cannot route to.',
    remedy: (f) =>
      `Open the path from the OLake worker to ${or(f.host, 'the source’s host and port')} (security group, firewall, VPC peering), or fix ${SOURCE_FIX}.`,
  },
  {
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
  },
];
