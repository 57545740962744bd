// MySQL's CDC failures (replication privileges, server_id, binlog). Texts and their sources: ../source.ts.
import type { FailureRule } from '../rule.js';
import { sourceFacts } from './common.js';

export const SOURCE_MYSQL_REPLICATION_PRIVILEGE: FailureRule = {
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
};

export const SOURCE_MYSQL_SERVER_ID: FailureRule = {
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
};

export const SOURCE_MYSQL_BINLOG: FailureRule = {
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
};
