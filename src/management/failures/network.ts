// Network failures look the same whichever component they hit (java.net.UnknownHostException, "connection
// refused", a read time-out); the code follows the component the line points at (its host:port, its
// exception class, its logger), and an unattributed one names the host without guessing.
import { type Component, capture, type Facts, type FailureRule, facts, hostOf, or } from './rule.js';

const DNS =
  /UnknownHostException|no such host|Name or service not known|Temporary failure in name resolution|nodename nor servname/;
const REFUSED = /Connection refused|connection refused|ECONNREFUSED|ConnectException/;
const TLS =
  /PKIX path building failed|unable to find valid certification path|SSLHandshakeException|doesn't match any of the subject alternative names|No subject alternative (?:DNS )?names? matching/;
const TIMEOUT =
  /SocketTimeoutException|[Tt]imed out|ConnectTimeoutException|deadline exceeded|i\/o timeout|Read timeout/;

function netFacts(text: string): Facts {
  return facts({
    host:
      hostOf(text) ??
      capture(text, /UnknownHostException: ([\w.-]{1,253})/) ??
      capture(text, /lookup ([\w.-]{1,253})/),
  });
}

interface Who {
  code: string;
  name: string;
  fix: string;
  /** Real texts (test/fixtures/failures/) for the docs: DNS, refused, time-out, TLS. */
  examples: [string, string, string, string];
}

const RESTX = 'org.apache.iceberg.exceptions.RESTException: Error occurred while processing GET request';
const SDKX = 'software.amazon.awssdk.core.exception.SdkClientException: Unable to execute HTTP request:';
const WHO: Record<Exclude<Component, 'source' | 'writer'>, Who> = {
  catalog: {
    code: 'CATALOG',
    name: 'the catalog',
    fix: 'the catalog URL of the destination',
    examples: [
      `${RESTX} / Caused by: java.net.UnknownHostException: polaris.internal: Name or service not known`,
      `${RESTX} / Caused by: org.apache.hc.client5.http.HttpHostConnectException: Connect to http://iceberg-rest.internal:8181 [iceberg-rest.internal/10.0.0.3] failed: Connection refused`,
      `${RESTX} / Caused by: java.net.SocketTimeoutException: Read timed out`,
      `${RESTX} / Caused by: javax.net.ssl.SSLHandshakeException: PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target`,
    ],
  },
  storage: {
    code: 'S3',
    name: 'the object store',
    fix: 'the S3 endpoint of the destination',
    examples: [
      `${SDKX} lake.s3.eu-west-3.amazonaws.com: Name or service not known`,
      `${SDKX} Connect to minio:9000 [minio/172.18.0.4] failed: Connection refused`,
      `${SDKX} Read timed out`,
      `${SDKX} PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target`,
    ],
  },
  unknown: {
    code: 'RUN_NETWORK',
    name: 'a host',
    fix: 'that host',
    examples: [
      'java.net.UnknownHostException: <a host no line attributes>',
      'java.net.ConnectException: Connection refused',
      'java.net.SocketTimeoutException: Read timed out',
      'javax.net.ssl.SSLHandshakeException: PKIX path building failed: …',
    ],
  },
};

function rules(who: keyof typeof WHO): FailureRule[] {
  const w = WHO[who];
  const code = (kind: string) => `${w.code}_${kind}`;
  const named = (f: Facts) => (f.host ? `${w.name} at ${f.host}` : w.name);
  return [
    {
      code: code('DNS'),
      component: who,
      only: who,
      summary: `The writer could not resolve ${w.name}’s host name (UnknownHostException, no such host).`,
      example: w.examples[0],
      match: DNS,
      facts: netFacts,
      what: (f) => `The host name of ${named(f)} does not resolve`,
      cause: () =>
        'The host name is misspelt, or it resolves only on another network than the OLake worker’s (a Docker service name, a private DNS zone).',
      remedy: (f) =>
        `Use a host name the OLake worker resolves for ${w.fix}${f.host ? ` (not ${f.host})` : ''}, then run the sync again.`,
    },
    {
      code: code('CONNECTION_REFUSED'),
      component: who,
      only: who,
      summary: `Nothing listened at ${w.name} during the run (connection refused).`,
      example: w.examples[1],
      match: REFUSED,
      facts: netFacts,
      what: (f) => `The writer could not connect to ${named(f)} (connection refused)`,
      cause: () =>
        `${w.name[0]?.toUpperCase()}${w.name.slice(1)} was down or restarting, or is reachable only from another network than the OLake worker’s (localhost inside a container?).`,
      remedy: (f) =>
        `Check ${named(f)} is up and reachable from the OLake worker (not localhost); fix ${w.fix} if not, then run the sync again.`,
    },
    {
      code: code('TIMEOUT'),
      component: who,
      only: who,
      summary: `${w.name[0]?.toUpperCase()}${w.name.slice(1)} did not answer in time during the run.`,
      example: w.examples[2],
      match: TIMEOUT,
      facts: netFacts,
      what: (f) => `${named(f)[0]?.toUpperCase()}${named(f).slice(1)} did not answer the writer in time`,
      cause: () => 'It was overloaded or hung, or a firewall silently dropped the connection.',
      remedy: (f) =>
        `Check ${or(f.host, w.name)}’s health and the network path from the OLake worker, then run the sync again.`,
    },
    {
      code: code('TLS'),
      component: who,
      only: who,
      summary: `The writer’s JVM did not accept ${w.name}’s TLS certificate (PKIX path building failed, SSLHandshakeException).`,
      example: w.examples[3],
      match: TLS,
      facts: netFacts,
      what: (f) => `The writer did not accept the TLS certificate of ${named(f)}`,
      cause: () =>
        'The certificate is signed by a CA the writer’s Java truststore does not hold (a private or self-signed CA), or does not name the host the writer connects to.',
      remedy: () =>
        `Give the writer’s JVM the CA: import it into a truststore and set JAVA_TOOL_OPTIONS="-Djavax.net.ssl.trustStore=<path> -Djavax.net.ssl.trustStorePassword=<password>" in the OLake worker’s environment (the JVM inherits it), or use a certificate from a public CA that names the host in ${w.fix}.`,
    },
  ];
}

export const NETWORK_RULES: FailureRule[] = [...rules('catalog'), ...rules('storage'), ...rules('unknown')];
