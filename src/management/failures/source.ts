// The source side of a sync. floe is a destination tool, but a failed sync's reader needs at least
// "the source failed, here is its message". Texts: jackc/pgx pgconn/errors.go:52-88 (PgError
// "SEVERITY: message (SQLSTATE code)", ConnectError "failed to connect to `user=… database=…`: host (name):
// …"); go-sql-driver/mysql errors.go:72 ("Error %d (%s): %s"); mongo-go-driver x/mongo/driver/auth/auth.go
// ("unable to authenticate using mechanism …") and topology/errors.go ("server selection error: …");
// OLake's own checks (datazip-inc/olake drivers/postgres/internal/postgres.go:154, drivers/kafka/internal/
// kafka.go:118); the servers' messages (PostgreSQL, MySQL, MongoDB, Oracle, Kafka).
import { capture, type Facts, type FailureRule, facts, hostOf, or } from './rule.js';

/** A line comes from a source driver. */
export const SOURCE_TEXT =
  /SQLSTATE|failed to connect to `user=|failed to ping database|failed to connect to MongoDB|failed to ping kafka|failed in pre cdc run|failed to open change stream|failed to get binlog position|ORA-\d{5}|\bError \d{4} \(|\bERROR \d{4} \(|replication slot|server selection error|SASL_AUTHENTICATION_FAILED|\(AuthenticationFailed\)|\bpq: /;

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
  });
}

export const SOURCE_RULES: FailureRule[] = [
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
      'The source’s username or password is wrong, or the user may not log in from the OLake worker’s address.',
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
