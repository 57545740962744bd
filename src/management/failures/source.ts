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

import type { FailureRule } from './rule.js';
import {
  SOURCE_ACCOUNT_LOCKED,
  SOURCE_AUTH_FAILED,
  SOURCE_DATABASE_MISSING,
  SOURCE_FAILED,
  SOURCE_HOST_NOT_ALLOWED,
  SOURCE_PERMISSION_DENIED,
  SOURCE_TOO_MANY_CONNECTIONS,
} from './source/common.js';
import {
  SOURCE_KAFKA_NOT_AUTHORIZED,
  SOURCE_KAFKA_OFFSETS,
  SOURCE_KAFKA_SASL_MECHANISM,
  SOURCE_KAFKA_UNKNOWN_TOPIC,
} from './source/kafka.js';
import {
  SOURCE_MONGO_HISTORY_LOST,
  SOURCE_MONGO_NO_PRIMARY,
  SOURCE_MONGO_NOT_REPLICA_SET,
} from './source/mongodb.js';
import {
  SOURCE_MYSQL_BINLOG,
  SOURCE_MYSQL_REPLICATION_PRIVILEGE,
  SOURCE_MYSQL_SERVER_ID,
} from './source/mysql.js';
import { SOURCE_CONNECTION_REFUSED, SOURCE_DNS, SOURCE_TIMEOUT, SOURCE_TLS } from './source/network.js';
import { SOURCE_ORACLE_LISTENER, SOURCE_ORACLE_NOT_GRANTED } from './source/oracle.js';
import {
  SOURCE_PG_PUBLICATION_MISSING,
  SOURCE_PG_REPLICATION_PRIVILEGE,
  SOURCE_PG_SLOT_IN_USE,
  SOURCE_PG_SLOT_LOST,
  SOURCE_PG_SLOT_MISSING,
  SOURCE_PG_WAL_LEVEL,
} from './source/postgres.js';

export { SOURCE_TEXT } from './source/common.js';

/** First match wins: the order below is the order rules are tried in. */
export const SOURCE_RULES: FailureRule[] = [
  SOURCE_ACCOUNT_LOCKED,
  SOURCE_HOST_NOT_ALLOWED,
  SOURCE_DATABASE_MISSING,
  SOURCE_TOO_MANY_CONNECTIONS,
  SOURCE_AUTH_FAILED,
  SOURCE_PG_SLOT_MISSING,
  SOURCE_PG_PUBLICATION_MISSING,
  SOURCE_PG_SLOT_IN_USE,
  SOURCE_PG_WAL_LEVEL,
  SOURCE_PG_REPLICATION_PRIVILEGE,
  SOURCE_MYSQL_REPLICATION_PRIVILEGE,
  SOURCE_PG_SLOT_LOST,
  SOURCE_MYSQL_SERVER_ID,
  SOURCE_MYSQL_BINLOG,
  SOURCE_MONGO_NOT_REPLICA_SET,
  SOURCE_MONGO_HISTORY_LOST,
  SOURCE_MONGO_NO_PRIMARY,
  SOURCE_ORACLE_NOT_GRANTED,
  SOURCE_PERMISSION_DENIED,
  SOURCE_ORACLE_LISTENER,
  SOURCE_KAFKA_SASL_MECHANISM,
  SOURCE_KAFKA_UNKNOWN_TOPIC,
  SOURCE_KAFKA_NOT_AUTHORIZED,
  SOURCE_KAFKA_OFFSETS,
  SOURCE_DNS,
  SOURCE_TLS,
  SOURCE_CONNECTION_REFUSED,
  SOURCE_TIMEOUT,
  SOURCE_FAILED,
];
