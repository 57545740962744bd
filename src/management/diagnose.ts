// Diagnosis of a failed sync from its log, read as a whole: each error line is attributed to the
// component it comes from (the host:port it names, its exception class, the Java logger, the stack
// frames under it), matched against that component's table (failures/*.ts), and the run is reported by
// its first failure; what followed from it (the refused gRPC connection after the writer died, the 401
// after a failed token refresh) is named as a consequence, not as another cause. A failure no rule
// knows is "not recognized", shown with its lines and its component when one is known.
// Linear time: lines and their length are bounded, every pattern is linear over a bounded line.
import type { Diagnosis } from '../check/types.js';
import { CATALOG_RULES } from './failures/catalog.js';
import { NETWORK_RULES } from './failures/network.js';
import { COMPONENT_NAME, type Component, type FailureRule } from './failures/rule.js';
import { SOURCE_RULES, SOURCE_TEXT } from './failures/source.js';
import { S3_ANSWER, STORAGE_RULES } from './failures/storage.js';
import { WRITER_RULES } from './failures/writer.js';
import type { LogLine } from './types.js';

/** Every rule in the order it is tried: the more specific first. */
const RULES: FailureRule[] = [
  ...WRITER_RULES,
  ...CATALOG_RULES.filter((r) => r.code === 'RUN_CATALOG_STORAGE_FAILURE'),
  ...STORAGE_RULES,
  ...CATALOG_RULES.filter((r) => r.code !== 'RUN_CATALOG_STORAGE_FAILURE'),
  ...SOURCE_RULES,
  ...NETWORK_RULES,
];

const NOT_RECOGNIZED = 'RUN_NOT_RECOGNIZED';

export interface LogRuleDoc {
  component: Component;
  summary: string;
  examples: string[];
}

/** One entry per code, for docs/diagnoses.md: its component, one line, and the real text it answers. */
export const LOG_RULES: Record<string, LogRuleDoc> = (() => {
  const docs: Record<string, LogRuleDoc> = {};
  for (const rule of RULES) {
    const doc = docs[rule.code];
    if (doc) doc.examples.push(rule.example);
    else docs[rule.code] = { component: rule.component, summary: rule.summary, examples: [rule.example] };
  }
  docs[NOT_RECOGNIZED] = {
    component: 'unknown',
    summary:
      'The run failed with an error no rule knows: its first error line and the component it came from (when the line says) are shown, nothing is guessed.',
    examples: ['any other error line'],
  };
  return docs;
})();

/** One line per code (the older shape of the table). */
export const LOG_DIAGNOSES: Record<string, string> = Object.fromEntries(
  Object.entries(LOG_RULES).map(([code, doc]) => [code, doc.summary]),
);

/** Hosts the run's configuration names, when the caller knows them (they sharpen attribution). */
export interface RunHosts {
  catalog?: string;
  storage?: string;
  source?: string;
}

const ERROR_LEVELS = new Set(['error', 'fatal', 'panic']);
const MAX_LINE = 4000;
const MAX_EVIDENCE = 300;
const MAX_FRAME = 300;
const CAUSED_BY = /^\s*Caused by: /;
const NETWORK_KIND = /_(?:DNS|CONNECTION_REFUSED|TIMEOUT|TLS)$/;
const WRITER_PREFIX = /^Iceberg\[\d{1,5}\] /;
/** log4j2's "%d{HH:mm:ss.SSS} [%t] %-5level %logger{36} - " (the writer's log4j2.xml). */
const LOG4J = /^\d\d:\d\d:\d\d\.\d{3} \[[^\]]{0,200}\] (\w{1,5}) {0,4}([\w.$]{1,200}) - /;
const STACK_FRAME = /^\s*at [\w$.<>]{1,300}\(/;
const GO_CONSEQUENCE = /context canceled|^\s*\.\.\. \d+ more$/;
const SOURCE_PORT = /:(?:5432|3306|27017|1521|1433|9092|9093)\b/;
const WRITER_GRPC = /(?:127\.0\.0\.1|localhost|\[::1\]):50051/;
const ICEBERG_MARK =
  /org\.apache\.iceberg\.exceptions\.(?!NotFoundException: Location does not exist)|RESTException|Not authorized: |Forbidden: |Malformed request: |Service unavailable: |Server error: |Unable to process \(code|Error occurred while processing \w{1,10} request/;
const STORAGE_MARK =
  /software\.amazon\.awssdk\.services\.s3|com\.amazonaws\.services\.s3|org\.apache\.iceberg\.aws\.s3|SdkClientException|com\.google\.cloud\.storage|StorageException|\.s3[.-][\w.-]{0,60}amazonaws\.com|\bs3\.amazonaws\.com|minio|:9000\b|storage\.googleapis\.com|Location does not exist: (?:s3a?|gs):\/\/|Failed to load Google credentials|Error reading (?:service account )?credential|PKCS#8 data|com\.google\.auth\.oauth2/i;
const CATALOG_MARK =
  /org\.apache\.iceberg\.rest|org\.apache\.hc\.|:8181\b|:19120\b|polaris|lakekeeper|nessie|unity-catalog|iceberg-rest|\/v1\/(?:config|namespaces|oauth)|\bglue\.[\w.-]{0,40}amazonaws|s3tables\.[\w.-]{0,40}amazonaws|biglake/i;

/** The hosts a job's source and destination configs name (OLake's source config and destination.json). */
export function runHosts(job: { source: { config?: string }; destination: { config?: string } }): RunHosts {
  const parse = (text: string | undefined): Record<string, unknown> => {
    try {
      const value: unknown = JSON.parse(text ?? '');
      return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  };
  const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const source = parse(job.source.config);
  const destination = parse(job.destination.config);
  const writer = (
    typeof destination.writer === 'object' && destination.writer ? destination.writer : {}
  ) as Record<string, unknown>;
  return {
    catalog: str(writer.rest_catalog_url),
    storage: str(writer.s3_endpoint),
    source: str(source.host),
  };
}

function hostPart(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return url;
  }
}

/** The component a line (with the stack frames under it) points at. */
function attribute(text: string, context: { frames: string; logger?: string }, hosts: RunHosts): Component {
  const { frames, logger = '' } = context;
  if (WRITER_GRPC.test(text)) return 'writer';
  const catalogHost = hostPart(hosts.catalog);
  const storageHost = hostPart(hosts.storage);
  const sourceHost = hostPart(hosts.source);
  if ((sourceHost && text.includes(sourceHost)) || SOURCE_TEXT.test(text) || SOURCE_PORT.test(text))
    return 'source';
  const iceberg = ICEBERG_MARK.exec(text)?.index;
  const storage = S3_ANSWER.exec(text)?.index ?? STORAGE_MARK.exec(text)?.index;
  if (iceberg !== undefined && (storage === undefined || iceberg < storage)) return 'catalog';
  if (storageHost && text.includes(storageHost)) return 'storage';
  if (catalogHost && text.includes(catalogHost)) return 'catalog';
  if (storage !== undefined) return 'storage';
  if (CATALOG_MARK.test(text)) return 'catalog';
  if (/OutOfMemoryError|OOMKilled|iceberg java writer/.test(text)) return 'writer';
  if (STORAGE_MARK.test(logger)) return 'storage';
  if (CATALOG_MARK.test(logger)) return 'catalog';
  if (STORAGE_MARK.test(frames)) return 'storage';
  if (CATALOG_MARK.test(frames)) return 'catalog';
  return 'unknown';
}

function applies(rule: FailureRule, component: Component): boolean {
  if (rule.only) return rule.only === component;
  if (rule.component === 'writer' || component === 'unknown') return true;
  return rule.component === component;
}

interface Found {
  rule: FailureRule;
  component: Component;
  text: string;
  index: number;
  line: LogLine;
  consequences: string[];
}

/** The message without OLake's writer prefix and the JVM's log4j layout; the log4j level and logger. */
function unwrap(message: string): { text: string; level?: string; logger?: string } {
  let text = message.length > MAX_LINE ? message.slice(0, MAX_LINE) : message;
  text = text.replace(WRITER_PREFIX, '');
  const log4j = LOG4J.exec(text);
  if (!log4j) return { text };
  return { text: text.slice(log4j[0].length), level: log4j[1], logger: log4j[2] };
}

function clip(text: string): string {
  return text.length > MAX_EVIDENCE ? `${text.slice(0, MAX_EVIDENCE)}…` : text;
}

function where(index: number, line: LogLine): string {
  return `#${index + 1} ${line.time} ${line.level.toUpperCase()}`;
}

const EXCEPTION =
  /\b((?:[a-z]+\.)+[A-Z]\w*(?:Exception|Error)|[A-Z]\w*(?:Exception|Error)|SignatureDoesNotMatch|InvalidAccessKeyId|NoSuchBucket|AccessDenied|ExpiredToken)\b/;

function toDiagnosis(found: Found): Diagnosis {
  const { rule, text } = found;
  const component = rule.component;
  const f = rule.facts?.(text) ?? {};
  const exception = EXCEPTION.exec(text)?.[1];
  const consequences =
    found.consequences.length > 0 ? ` What followed came from it: ${found.consequences.join('; ')}.` : '';
  return {
    code: rule.code,
    step: 'run.log',
    what: rule.what(f),
    cause: `${rule.cause(f)}${consequences}`,
    remedy: rule.remedy(f),
    evidence: {
      ...(exception ? { errorCode: exception.split('.').at(-1) } : {}),
      extra: {
        component,
        line: where(found.index, found.line),
        log: clip(text),
        ...f,
        ...(found.consequences.length > 0 ? { consequences: found.consequences.join('; ') } : {}),
      },
    },
  };
}

/**
 * The diagnoses of a run's log: the first failure of its causal chain first, then any independent
 * failure after it, each code once; nothing when the log has no error.
 */
export function diagnoseLog(lines: LogLine[], hosts: RunHosts = {}): Diagnosis[] {
  const found: Found[] = [];
  const byCode = new Map<string, Found>();
  let firstError: { index: number; line: LogLine; text: string; component: Component } | undefined;
  let lastError: { index: number; line: LogLine } | undefined;
  let chain: Component = 'unknown';
  lines.forEach((line, index) => {
    const level = line.level.toLowerCase();
    const { text, level: jvmLevel, logger } = unwrap(line.message);
    const isError = ERROR_LEVELS.has(level);
    const jvmWarn = jvmLevel === 'WARN';
    if (!isError && !jvmWarn && !/OutOfMemoryError|OOMKilled/.test(text)) return;
    if (STACK_FRAME.test(text) || GO_CONSEQUENCE.test(text) || text.trim() === '') return;
    let frames = '';
    for (let k = index + 1; k < lines.length && k <= index + 8; k++)
      frames += `${lines[k]?.message.slice(0, MAX_FRAME) ?? ''}\n`;
    const own = attribute(text, { frames, logger }, hosts);
    // A "Caused by:" belongs to the exception above it: it inherits that one's component.
    const component = CAUSED_BY.test(text) && own === 'unknown' ? chain : own;
    if (!CAUSED_BY.test(text)) chain = own;
    const rule = RULES.find((r) => applies(r, component) && r.match.test(text));
    if (isError) {
      firstError ??= { index, line, text, component };
      lastError = { index, line };
    }
    if (!rule || byCode.has(rule.code)) return;
    // The same network failure told again without its component (Go's copy of the writer's error).
    const kind = NETWORK_KIND.exec(rule.code)?.[0];
    if (component === 'unknown' && kind && [...byCode.keys()].some((code) => code.endsWith(kind))) return;
    const cause = rule.follows?.map((code) => byCode.get(code)).find(Boolean);
    if (cause) {
      const f = rule.facts?.(text) ?? {};
      cause.consequences.push(`${rule.what(f)} (${where(index, line)})`);
      byCode.set(rule.code, cause);
      return;
    }
    const entry: Found = { rule, component, text, index, line, consequences: [] };
    byCode.set(rule.code, entry);
    found.push(entry);
  });
  if (found.length > 0 || !firstError) return found.map(toDiagnosis);
  const first = firstError;
  const known = first.component !== 'unknown';
  return [
    {
      code: NOT_RECOGNIZED,
      step: 'run.log',
      what: `The run failed with an error floe does not recognize${known ? `, from ${COMPONENT_NAME[first.component]}` : ''}`,
      cause: known
        ? `The line names ${COMPONENT_NAME[first.component]} but no rule matches its text; floe does not guess a cause.`
        : 'No rule matches this text and nothing in it says which component failed; floe does not guess.',
      remedy: 'Read the first error line below (and the lines just before it in "floe jobs logs ID").',
      evidence: {
        extra: {
          ...(known ? { component: first.component } : {}),
          line: where(first.index, first.line),
          log: clip(first.text),
          ...(lastError && lastError.index !== first.index
            ? {
                last: `${where(lastError.index, lastError.line)} ${clip(unwrap(lastError.line.message).text)}`,
              }
            : {}),
        },
      },
    },
  ];
}
