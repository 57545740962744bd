// Kafka's failures through twmb/franz-go (SASL, topics, authorization, offsets). Texts and their
// sources: ../source.ts.
import { capture, type FailureRule, facts, or } from '../rule.js';
import { sourceFacts } from './common.js';

export const SOURCE_KAFKA_SASL_MECHANISM: FailureRule = {
  code: 'SOURCE_KAFKA_SASL_MECHANISM',
  component: 'source',
  summary: 'The Kafka brokers do not enable the SASL mechanism the source uses (UNSUPPORTED_SASL_MECHANISM).',
  example: 'UNSUPPORTED_SASL_MECHANISM: The broker does not support the requested SASL mechanism.',
  match: /UNSUPPORTED_SASL_MECHANISM/,
  facts: sourceFacts,
  what: () => 'The Kafka brokers refused the source’s SASL mechanism',
  cause: () =>
    'The source logs in with one mechanism (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) and the brokers’ listener enables others.',
  remedy: () =>
    'Set the source’s SASL mechanism in the OLake UI to one the brokers list in sasl.enabled.mechanisms (for the listener the source connects to), or enable it there, then test the source.',
};

export const SOURCE_KAFKA_UNKNOWN_TOPIC: FailureRule = {
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
};

export const SOURCE_KAFKA_NOT_AUTHORIZED: FailureRule = {
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
};

export const SOURCE_KAFKA_OFFSETS: FailureRule = {
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
};
