// MongoDB's failures (no replica set, change stream history lost, no primary). Texts and their
// sources: ../source.ts.
import type { FailureRule } from '../rule.js';
import { sourceFacts } from './common.js';

export const SOURCE_MONGO_NOT_REPLICA_SET: FailureRule = {
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
};

export const SOURCE_MONGO_HISTORY_LOST: FailureRule = {
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
};

export const SOURCE_MONGO_NO_PRIMARY: FailureRule = {
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
};
