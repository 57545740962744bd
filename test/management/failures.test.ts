// The corpus of real failures (test/fixtures/failures/, each text from its upstream source), laid out as
// OLake's logger prints a failed sync, preamble and all: each must be named with its cause and a remedy
// that fixes it, by the component it came from; an unknown one stays unknown.
import { describe, expect, it } from 'vitest';
import { diagnosisSchema } from '../../src/check/types.js';
import { diagnoseLog, LOG_RULES, runHosts } from '../../src/management/diagnose.js';
import { seedJobs } from '../../src/sandbox/olake-ui/seed.js';
import { syncFailureLog } from '../../src/sandbox/olake-ui/synclog.js';
import { CATALOG_CASES } from '../fixtures/failures/catalog.js';
import { SOURCE_CASES, UNKNOWN_CASES } from '../fixtures/failures/source.js';
import { STORAGE_CASES } from '../fixtures/failures/storage.js';
import type { FailureCase } from '../fixtures/failures/types.js';
import { WRITER_CASES } from '../fixtures/failures/writer.js';
import { hostileRunLog } from '../support/hostile-log.js';

const START = Date.parse('2026-03-02T10:00:00Z');
const KNOWN = [...STORAGE_CASES, ...CATALOG_CASES, ...WRITER_CASES, ...SOURCE_CASES];

function diagnose(c: FailureCase) {
  const lines = syncFailureLog(c.failure, START);
  return { lines, diagnoses: diagnoseLog(lines) };
}

/** How a case is answered: the right code, by the right component, naming what it must; and whether
 * anything in the answer is blamed on another component. */
function judge(c: FailureCase): { right: boolean; wrongComponent: boolean } {
  const diagnoses = diagnose(c).diagnoses;
  const [first] = diagnoses;
  const said = `${first?.what} ${first?.cause} ${first?.remedy}`;
  const expected = c.component === 'unknown' ? undefined : c.component;
  const wrongComponent = diagnoses.some(
    (d) => d.evidence.extra?.component !== undefined && d.evidence.extra?.component !== expected,
  );
  const right =
    first?.code === c.code &&
    first?.evidence.extra?.component === expected &&
    (c.names ?? []).every((name) => said.includes(name));
  return { right, wrongComponent };
}

const ALL = [...KNOWN, ...UNKNOWN_CASES];
const JUDGED = ALL.map(judge);
const RIGHT = JUDGED.filter((j) => j.right).length;
const SHARE = Math.round((RIGHT / ALL.length) * 1000) / 10;

describe('the failure corpus', () => {
  // The share the issue measures (named with the right cause and a remedy naming what the text names),
  // over the whole corpus, reported in this test's title on every run.
  it(`is named right in ${RIGHT} of ${ALL.length} cases (${SHARE} %), none on the wrong component`, () => {
    expect(SHARE).toBeGreaterThanOrEqual(95);
    expect(JUDGED.filter((j) => j.wrongComponent)).toHaveLength(0);
  });

  it('is broad: 60+ cases over every component, each naming its source', () => {
    expect(KNOWN.length + UNKNOWN_CASES.length).toBeGreaterThanOrEqual(60);
    for (const component of ['storage', 'catalog', 'writer', 'source'])
      expect(KNOWN.filter((c) => c.component === component).length).toBeGreaterThan(3);
    for (const c of [...KNOWN, ...UNKNOWN_CASES]) expect(c.source.length, c.id).toBeGreaterThan(20);
    expect(new Set(KNOWN.map((c) => c.id)).size).toBe(KNOWN.length);
  });

  it('is laid out as OLake prints a sync: the preamble, the writer prefix, the log4j layout, a fatal end', () => {
    const { lines } = diagnose(STORAGE_CASES[0] as FailureCase);
    expect(lines[0]?.message).toBe('Ruuning OLake sync with version v0.9.4');
    expect(lines.some((l) => l.message === 'Started shared Iceberg JVM on port 50051')).toBe(true);
    expect(lines.find((l) => l.level === 'error')?.message).toMatch(
      /^Iceberg\[50051\] \d\d:\d\d:\d\d\.\d{3} \[grpc-default-executor-0\] ERROR io\.debezium\.server\.iceberg\.rpc\.OlakeRowsIngester - \[Thread-\d+-\d+\] Failed to process request: Access Denied \(Service: S3, Status Code: 403/,
    );
    expect(lines.at(-1)?.level).toBe('fatal');
  });

  it.each(KNOWN.map((c) => [c.id, c] as const))('%s: named with its cause, by its component', (_id, c) => {
    const { diagnoses } = diagnose(c);
    const [first] = diagnoses;
    expect(first?.code).toBe(c.code);
    expect(first?.evidence.extra?.component).toBe(c.component);
    expect(() => diagnosisSchema.parse(first)).not.toThrow();
    const said = `${first?.what} ${first?.cause} ${first?.remedy}`;
    for (const name of c.names ?? []) expect(said).toContain(name);
    expect(said).not.toContain('undefined');
    // Never the wrong component: whatever else the run shows comes from the same component.
    for (const d of diagnoses) expect(d.evidence.extra?.component, d.code).toBe(c.component);
    expect(LOG_RULES[c.code]?.component).toBe(c.component);
  });

  it.each(UNKNOWN_CASES.map((c) => [c.id, c] as const))('%s: stays unknown, with its lines', (_id, c) => {
    const { diagnoses } = diagnose(c);
    expect(diagnoses).toHaveLength(1);
    const [d] = diagnoses;
    expect(d?.code).toBe('RUN_NOT_RECOGNIZED');
    expect(d?.evidence.extra?.component).toBe(c.component === 'unknown' ? undefined : c.component);
    expect(d?.evidence.extra?.log).toContain(c.failure.text.split(': ').at(-1)?.slice(0, 20));
    expect(d?.evidence.extra?.line).toMatch(/^#\d+ /);
  });
});

describe('reading a run as a whole', () => {
  it('names the first failure, and what followed from it as its consequence', () => {
    const oom = WRITER_CASES.find((c) => c.id === 'jvm-oom-then-refused') as FailureCase;
    const { diagnoses } = diagnose(oom);
    expect(diagnoses.map((d) => d.code)).toEqual(['RUN_OUT_OF_MEMORY']);
    expect(diagnoses[0]?.evidence.extra?.consequences).toMatch(/127\.0\.0\.1:50051 was refused/);
    expect(diagnoses[0]?.cause).toMatch(/What followed came from it/);
  });

  it('does not blame the catalog for a refused connection to the object store or the writer', () => {
    const codes = (message: string) =>
      diagnoseLog([{ level: 'error', time: '2026-01-01T00:00:00Z', message }]).map((d) => d.code);
    expect(codes('java.net.ConnectException: Connection refused: minio:9000')).toEqual([
      'S3_CONNECTION_REFUSED',
    ]);
    expect(codes('dial tcp 127.0.0.1:50051: connect: connection refused')).toEqual([
      'RUN_WRITER_UNREACHABLE',
    ]);
    expect(codes('java.net.ConnectException: Connection refused')).toEqual([
      'RUN_NETWORK_CONNECTION_REFUSED',
    ]);
    expect(
      diagnoseLog([{ level: 'error', time: 't', message: 'java.net.ConnectException: Connection refused' }], {
        catalog: 'http://cat.internal:8181',
      }).map((d) => d.code),
    ).toEqual(['RUN_NETWORK_CONNECTION_REFUSED']);
    expect(
      diagnoseLog(
        [
          {
            level: 'error',
            time: 't',
            message: 'Connect to http://cat.internal:8181 failed: Connection refused',
          },
        ],
        { catalog: 'http://cat.internal:8181' },
      ).map((d) => d.code),
    ).toEqual(['CATALOG_CONNECTION_REFUSED']);
  });

  it('takes the hosts from the job’s configs and attributes by them', () => {
    const job = seedJobs(1, 1)[0];
    if (!job) throw new Error('no job');
    const hosts = runHosts(job);
    expect(hosts.catalog).toBe('http://iceberg-rest.internal:8181');
    expect(hosts.source).toBe(`${job.source.type}.db.internal`);
    const line = {
      level: 'fatal',
      time: 't',
      message: `dial tcp ${hosts.source}:1: connect: connection refused`,
    };
    expect(diagnoseLog([line], hosts)[0]?.code).toBe('SOURCE_CONNECTION_REFUSED');
    expect(diagnoseLog([line])[0]?.code).toBe('RUN_NETWORK_CONNECTION_REFUSED');
    expect(runHosts({ source: { config: 'not json' }, destination: { config: '[1]' } })).toEqual({});
  });

  it('reads an S3 ExpiredToken as the object store’s, not the catalog token’s', () => {
    const [d] = diagnose(STORAGE_CASES.find((c) => c.id === 's3-expired-token') as FailureCase).diagnoses;
    expect(d?.code).toBe('RUN_S3_EXPIRED_TOKEN');
    expect(d?.code).not.toBe('RUN_TOKEN_EXPIRED');
  });

  // Its time is measured by `npm run bench` (no timed assertions in tests).
  it('ends on hostile lines (bounded work per line)', () => {
    expect(diagnoseLog(hostileRunLog()).length).toBeGreaterThan(0);
  });
});
