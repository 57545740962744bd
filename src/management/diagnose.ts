// Diagnosis of a sync run from its log: the Java and Go errors OLake prints (the Iceberg writer's
// exceptions, S3 error codes, connection failures, the JVM running out of memory) mapped to floe's
// diagnosis codes, in the same what / cause / remedy / evidence shape as `floe test`. Where `floe test`
// has a code for the same failure (CATALOG_UNAUTHORIZED, S3_SIGNATURE_MISMATCH, …) it is reused.
import type { Diagnosis } from '../check/types.js';
import type { LogLine } from './types.js';

interface Rule {
  /** One line for docs/diagnoses.md. */
  summary: string;
  /** Tried on each error line, in table order; the first rule that matches names the line. */
  match: RegExp;
  what: string;
  cause: string;
  remedy: string;
}

const CATALOG_HOST = /catalog|iceberg|\/v1\/|:8181|polaris|lakekeeper|nessie|unity|biglake|glue/i;
const STORAGE_HOST = /\bs3\b|s3[.:-]|amazonaws|minio|bucket|:9000|storage/i;

/** Ordered: the more specific rule first (an expired token before any NotAuthorizedException). */
const RULES = {
  RUN_OUT_OF_MEMORY: {
    summary: 'The sync ran out of memory (OutOfMemoryError, Java heap space, OOMKilled, exit 137).',
    match:
      /OutOfMemoryError|Java heap space|GC overhead limit|OOMKilled|exit(?:ed with)? (?:code|status) 137|out of memory/i,
    what: 'The sync ran out of memory',
    cause:
      'The Iceberg writer (a JVM) or the driver needs more memory than its container has: wide rows, many streams at once, or large batches.',
    remedy:
      'Give the OLake worker more memory (its container limit and the writer JVM heap), or lower the job’s max threads in its advanced settings so fewer streams run at once.',
  },
  RUN_S3_EXPIRED_TOKEN: {
    summary: 'The object store credentials expired (ExpiredToken).',
    match: /ExpiredToken|security token included in the request is expired/i,
    what: 'The object store rejected the writer’s temporary credentials as expired',
    cause:
      'The destination (or the worker’s environment) uses temporary credentials (a session token) that expired during or before the run.',
    remedy:
      'Use long-lived keys or a role the worker can assume and renew (instance profile, IRSA), instead of pasted temporary credentials.',
  },
  RUN_TOKEN_EXPIRED: {
    summary: 'The catalog token expired during the run (NotAuthorizedException: token expired).',
    match: /token (?:has )?expired|expired token|jwt (?:is )?expired|token is expired/i,
    what: 'The catalog rejected the writer’s token as expired',
    cause:
      'The destination uses a static token that expired while the job was running (or since it was set); the writer does not renew static tokens.',
    remedy:
      'Give the destination OAuth2 client credentials (credential + oauth2_uri) so the writer fetches fresh tokens, or a token that lives longer than the longest sync; update the destination in the OLake UI.',
  },
  CATALOG_UNAUTHORIZED: {
    summary: 'The catalog rejected the credentials (NotAuthorizedException, HTTP 401).',
    match: /NotAuthorizedException|\b401\b.*unauthori[sz]ed|unauthori[sz]ed.*\b401\b/i,
    what: 'The catalog rejected the writer’s credentials',
    cause: 'The token or client credentials in the destination are wrong, revoked or for another catalog.',
    remedy:
      'Check the destination’s token or credential with "floe jobs test ID" (or "floe test" on a profile), then update the destination in the OLake UI.',
  },
  CATALOG_FORBIDDEN: {
    summary: 'The catalog denied the writer an operation (ForbiddenException, HTTP 403).',
    match: /ForbiddenException|\b403\b.*forbidden|forbidden.*\b403\b/i,
    what: 'The catalog denied the writer an operation',
    cause:
      'The credentials are valid but lack a privilege the sync needs: create namespaces or tables, or write to this table.',
    remedy:
      'Grant the principal the catalog privileges to create and write tables in the target namespace (e.g. TABLE_WRITE_DATA, NAMESPACE_CREATE), then run the sync again.',
  },
  RUN_NO_SUCH_NAMESPACE: {
    summary: 'The catalog has no such namespace (NoSuchNamespaceException).',
    match: /NoSuchNamespaceException|Namespace does not exist/i,
    what: 'The catalog has no namespace the sync writes to',
    cause:
      'The namespace was dropped, or the job writes into a namespace that the catalog does not create on demand.',
    remedy:
      'Create the namespace in the catalog, or point the job’s streams at an existing one (destination database), then run the sync again.',
  },
  RUN_NO_SUCH_TABLE: {
    summary: 'The catalog has no such table (NoSuchTableException).',
    match: /NoSuchTableException|Table does not exist/i,
    what: 'The catalog has no table the sync expected',
    cause:
      'The table was dropped or renamed outside OLake while the job’s state still refers to it (an incremental or CDC sync).',
    remedy:
      'Clear the destination for that stream in the OLake UI (or reset the job’s state) so the next sync creates the table again.',
  },
  S3_SIGNATURE_MISMATCH: {
    summary: 'The object store refused the signature (SignatureDoesNotMatch).',
    match: /SignatureDoesNotMatch/,
    what: 'The object store refused the writer’s request signature',
    cause: 'The secret key does not belong to the access key, or a proxy rewrote the request.',
    remedy:
      'Fix the destination’s S3 secret key (check it with "floe jobs test ID"), then update it in the OLake UI.',
  },
  S3_INVALID_ACCESS_KEY: {
    summary: 'The object store does not know the access key (InvalidAccessKeyId).',
    match: /InvalidAccessKeyId/,
    what: 'The object store does not know the writer’s access key',
    cause: 'The access key is mistyped, deleted, or belongs to another account or store.',
    remedy:
      'Fix the destination’s S3 access key (check it with "floe jobs test ID"), then update it in the OLake UI.',
  },
  S3_NO_SUCH_BUCKET: {
    summary: 'The bucket does not exist (NoSuchBucket).',
    match: /NoSuchBucket|The specified bucket does not exist/i,
    what: 'The bucket the table data goes to does not exist',
    cause:
      'The warehouse path or the catalog’s table location names a bucket that is missing or in another account.',
    remedy: 'Create the bucket, or fix the warehouse (S3 path) of the destination or the catalog.',
  },
  S3_ACCESS_DENIED_WRITE: {
    summary: 'The object store denied the writer access (AccessDenied).',
    match: /AccessDenied|Access Denied/,
    what: 'The object store denied the writer access to the table data',
    cause:
      'The keys (or the credentials the catalog vends) lack s3:PutObject / s3:GetObject / s3:DeleteObject on the warehouse prefix, or a bucket policy denies them.',
    remedy:
      'Grant write access to the warehouse prefix for the credentials the writer uses, then run the sync again.',
  },
  CATALOG_CONNECTION_REFUSED: {
    summary: 'Nothing listened at the catalog during the run (connection refused).',
    match: /Connection refused|ECONNREFUSED|ConnectException/i,
    what: 'The writer could not connect to the catalog (connection refused)',
    cause:
      'The catalog was down or restarting, or its URL is only reachable from another network than the OLake worker’s (localhost inside a container?).',
    remedy:
      'Check the catalog is up and that the URL in the destination is reachable from the OLake worker (not localhost), then run the sync again.',
  },
  S3_CONNECTION_REFUSED: {
    summary: 'Nothing listened at the object store during the run (connection refused).',
    match: /Connection refused|ECONNREFUSED|ConnectException/i,
    what: 'The writer could not connect to the object store (connection refused)',
    cause:
      'The object store endpoint was down, or it is only reachable from another network than the OLake worker’s (localhost inside a container?).',
    remedy: 'Check the S3 endpoint is up and reachable from the OLake worker, then run the sync again.',
  },
  CATALOG_TIMEOUT: {
    summary: 'The catalog did not answer in time during the run.',
    match: /SocketTimeoutException|timed out|ConnectTimeoutException|deadline exceeded|i\/o timeout/i,
    what: 'The catalog did not answer the writer in time',
    cause: 'The catalog was overloaded or hung, or a firewall silently dropped the connection.',
    remedy: 'Check the catalog’s health and the network path from the OLake worker, then run the sync again.',
  },
  S3_TIMEOUT: {
    summary: 'The object store did not answer in time during the run.',
    match: /SocketTimeoutException|timed out|ConnectTimeoutException|deadline exceeded|i\/o timeout/i,
    what: 'The object store did not answer the writer in time',
    cause: 'The store was overloaded or a firewall silently dropped the connection.',
    remedy:
      'Check the object store’s health and the network path from the OLake worker, then run the sync again.',
  },
} satisfies Record<string, Rule>;

export type LogDiagnosisCode = keyof typeof RULES;

/** One line per code, for docs/diagnoses.md. */
export const LOG_DIAGNOSES: Record<LogDiagnosisCode, string> = Object.fromEntries(
  Object.entries(RULES).map(([code, rule]) => [code, rule.summary]),
) as Record<LogDiagnosisCode, string>;

const ERROR_LEVELS = new Set(['error', 'fatal', 'panic']);
const STORAGE_TWIN: Partial<Record<LogDiagnosisCode, LogDiagnosisCode>> = {
  CATALOG_CONNECTION_REFUSED: 'S3_CONNECTION_REFUSED',
  CATALOG_TIMEOUT: 'S3_TIMEOUT',
};
const EXCEPTION =
  /\b((?:[a-z]+\.)+[A-Z]\w*(?:Exception|Error)|[A-Z]\w*(?:Exception|Error)|SignatureDoesNotMatch|InvalidAccessKeyId|NoSuchBucket|AccessDenied|ExpiredToken)\b/;
const MAX_EVIDENCE = 300;

function classify(message: string): LogDiagnosisCode | undefined {
  for (const [code, rule] of Object.entries(RULES) as [LogDiagnosisCode, Rule][]) {
    if (Object.values(STORAGE_TWIN).includes(code)) continue;
    if (!rule.match.test(message)) continue;
    const twin = STORAGE_TWIN[code];
    return twin && STORAGE_HOST.test(message) && !CATALOG_HOST.test(message) ? twin : code;
  }
  return undefined;
}

/** The diagnoses of a run's log, one per code, in the order their first line appears. */
export function diagnoseLog(lines: LogLine[]): Diagnosis[] {
  const found = new Map<LogDiagnosisCode, Diagnosis>();
  lines.forEach((line, index) => {
    const isError = ERROR_LEVELS.has(line.level.toLowerCase());
    const code = classify(line.message);
    if (!code || found.has(code) || (!isError && code !== 'RUN_OUT_OF_MEMORY')) return;
    const rule: Rule = RULES[code];
    const exception = EXCEPTION.exec(line.message)?.[1];
    const text =
      line.message.length > MAX_EVIDENCE ? `${line.message.slice(0, MAX_EVIDENCE)}…` : line.message;
    found.set(code, {
      code,
      step: 'run.log',
      what: rule.what,
      cause: rule.cause,
      remedy: rule.remedy,
      evidence: {
        ...(exception ? { errorCode: exception.split('.').at(-1) } : {}),
        extra: { line: `#${index + 1} ${line.time} ${line.level.toUpperCase()}`, log: text },
      },
    });
  });
  return [...found.values()];
}
