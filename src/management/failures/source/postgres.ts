// PostgreSQL's CDC failures (replication slot, publication, wal_level, REPLICATION). Texts and their
// sources: ../source.ts.
import { capture, type FailureRule, facts, or } from '../rule.js';
import { sourceFacts } from './common.js';

export const SOURCE_PG_SLOT_MISSING: FailureRule = {
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
};

export const SOURCE_PG_PUBLICATION_MISSING: FailureRule = {
  code: 'SOURCE_PG_PUBLICATION_MISSING',
  component: 'source',
  summary: 'The Postgres publication the job’s pgoutput CDC names does not exist (42704).',
  example: 'ERROR: publication "olake_pub" does not exist (SQLSTATE 42704)',
  match: /publication "[^"]{1,100}" does not exist/,
  facts: (text) => facts({ ...sourceFacts(text), publication: capture(text, /publication "([^"]{1,100})"/) }),
  what: (f) => `The Postgres publication ${or(f.publication, 'the source names')} does not exist`,
  cause: () =>
    'CDC through pgoutput streams the tables of the publication named in the source; it was never created, was dropped, or lives in another database than the job’s.',
  remedy: (f) =>
    `In the job’s database on the source: CREATE PUBLICATION ${or(f.publication, 'olake_pub')} FOR ALL TABLES; (or FOR TABLE each selected table), or set the source’s publication to one that exists (SELECT pubname FROM pg_publication;), then run the sync again.`,
};

export const SOURCE_PG_SLOT_IN_USE: FailureRule = {
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
};

export const SOURCE_PG_WAL_LEVEL: FailureRule = {
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
};

export const SOURCE_PG_REPLICATION_PRIVILEGE: FailureRule = {
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
};

export const SOURCE_PG_SLOT_LOST: FailureRule = {
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
};
