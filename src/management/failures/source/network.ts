// A source the writer cannot reach: Go's net and crypto/tls errors on a line attributed to the source.
import { type FailureRule, facts, or } from '../rule.js';
import { dialFacts, SOURCE_FIX, sourceFacts } from './common.js';

export const SOURCE_DNS: FailureRule = {
  code: 'SOURCE_DNS',
  component: 'source',
  only: 'source',
  summary: 'The source database’s host name does not resolve from the OLake worker (no such host).',
  example: 'failed to ping database: dial tcp: lookup oracle.db.internal on 127.0.0.11:53: no such host',
  match: /no such host|Name or service not known|Temporary failure in name resolution/,
  facts: dialFacts,
  what: (f) =>
    f.host ? `The source’s host name ${f.host} does not resolve` : 'The source’s host name does not resolve',
  cause: () =>
    'The host name is misspelt, or resolves only on another network than the OLake worker’s (a Docker service name, a private DNS zone).',
  remedy: () => `Use a host name or address the OLake worker resolves for ${SOURCE_FIX}.`,
};

export const SOURCE_TLS: FailureRule = {
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
};

export const SOURCE_CONNECTION_REFUSED: FailureRule = {
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
};

export const SOURCE_TIMEOUT: FailureRule = {
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
};
