// The parts of `floe tables` that need no service: the command's parse (usage errors name the flag,
// the rule and an example), thresholds, the health rules, the maintenance lines, the metadata and
// Avro readers against hostile input, the summary rule and the request limiter.
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/commands/tables.js';
import { UsageError } from '../../src/errors.js';
import { readAvro } from '../../src/tables/avro.js';
import { DEFAULT_THRESHOLDS, evaluate, type HealthFacts, parseThreshold } from '../../src/tables/health.js';
import { limiter } from '../../src/tables/limit.js';
import { maintenance } from '../../src/tables/maintenance.js';
import { readTableMetadata } from '../../src/tables/metadata.js';
import { EMPTY_STATS, statsFromSummary } from '../../src/tables/stats.js';
import { writeManifestListFiles } from '../../src/write/avro.js';

function usageOf(argv: string[]): string {
  try {
    parse(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.lines.join('\n');
    throw error;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
}

describe('parse', () => {
  it('reads the list, show, thresholds and the budget', () => {
    expect(parse(['--namespace', 'olake.sales', '--threshold', 'max-snapshots=500', '--json'])).toMatchObject(
      {
        verb: 'list',
        namespace: ['olake', 'sales'],
        json: true,
        thresholds: { ...DEFAULT_THRESHOLDS, 'max-snapshots': 500 },
      },
    );
    expect(parse(['show', 'olake.sales.orders', '--budget', '16'])).toMatchObject({
      verb: 'show',
      table: { namespace: ['olake', 'sales'], name: 'orders' },
      budgetBytes: 16 * 1024 * 1024,
    });
  });

  it('names the flag, the rule and an example in each usage error', () => {
    expect(usageOf(['show', 'orders'])).toMatch(
      /names no namespace.*e\.g\. floe tables show olake_db\.orders/,
    );
    expect(usageOf(['show'])).toMatch(/one table as NAMESPACE\.TABLE, e\.g\./);
    expect(usageOf(['list'])).toMatch(/unknown subcommand "list".*e\.g\. floe tables show/);
    expect(usageOf(['--threshold', 'max-snapshots=lots'])).toMatch(
      /--threshold max-snapshots: "lots" must be a whole number ≥ 0, e\.g\. max-snapshots=100/,
    );
    expect(usageOf(['--threshold', 'delete-ratio=2'])).toMatch(
      /ratio from 0 to 1, e\.g\. delete-ratio=0\.25/,
    );
    expect(usageOf(['--threshold', 'nonsense=1'])).toMatch(
      /known key \(small-file-bytes, .*e\.g\. --threshold/,
    );
    expect(usageOf(['--budget', '5'])).toMatch(/--budget goes with show/);
    expect(usageOf(['show', 'a.b', '--budget', '0'])).toMatch(
      /--budget: "0" must be a whole number of MiB ≥ 1/,
    );
    expect(usageOf(['--namespace', 'a..b'])).toMatch(/--namespace: "a\.\.b" is not a namespace/);
    expect(usageOf(['--namespce', 'a'])).toMatch(/did you mean --namespace/);
  });
});

describe('thresholds', () => {
  it('takes ratios and whole numbers by key', () => {
    expect(parseThreshold('small-file-share=0.75')).toEqual({ key: 'small-file-share', value: 0.75 });
    expect(parseThreshold('stale-hours=6')).toEqual({ key: 'stale-hours', value: 6 });
    expect(parseThreshold('stale-hours=-1')).toHaveProperty('problem');
  });
});

const NOW = Date.UTC(2026, 10, 27, 12);
const HOUR = 3_600_000;
const table = { catalog: 'olake', namespace: ['olake_db'], name: 'orders' };
const facts = (patch: Partial<HealthFacts> = {}): HealthFacts => ({
  stats: { ...EMPTY_STATS, records: 1000, dataFiles: 4, dataBytes: 4 * 300 * 1024 * 1024 },
  smallDataFiles: 0,
  snapshots: 3,
  oldestSnapshotMs: NOW - 2 * HOUR,
  lastCommitMs: NOW - HOUR,
  properties: {},
  ...patch,
});
const codes = (f: HealthFacts, thresholds = DEFAULT_THRESHOLDS, expectedPeriodMs?: number) =>
  evaluate(f, { thresholds, nowMs: NOW, table, ...(expectedPeriodMs ? { expectedPeriodMs } : {}) }).map(
    (p) => p.code,
  );

describe('health rules', () => {
  it('finds nothing on a healthy table', () => {
    expect(codes(facts())).toEqual([]);
  });

  it('small files: the share from the manifests, the average from a summary, a quarter of the target size', () => {
    const many = { ...EMPTY_STATS, records: 100, dataFiles: 40, dataBytes: 40 * 1024 * 1024 };
    expect(codes(facts({ stats: many, smallDataFiles: 20 }))).toEqual(['TABLE_SMALL_FILES']);
    expect(codes(facts({ stats: many, smallDataFiles: 19 }))).toEqual([]);
    expect(codes(facts({ stats: many, smallDataFiles: null }))).toEqual(['TABLE_SMALL_FILES']);
    // With a 2 MiB target, 1 MiB files are not small (a quarter is 512 KiB).
    expect(
      codes(
        facts({
          stats: many,
          smallDataFiles: null,
          properties: { 'write.target-file-size-bytes': '2097152' },
        }),
      ),
    ).toEqual([]);
    expect(codes(facts({ stats: { ...many, dataFiles: 31 }, smallDataFiles: null }))).toEqual([]);
  });

  it('deletes, snapshots, age and staleness, with thresholds users override', () => {
    const deletes = {
      ...EMPTY_STATS,
      records: 100,
      dataFiles: 2,
      dataBytes: 2 << 30,
      deleteFiles: { position: 0, equality: 2 },
      deleteRows: { position: 0, equality: 9 },
    };
    expect(codes(facts({ stats: deletes }))).toEqual(['TABLE_EQUALITY_DELETES']);
    expect(codes(facts({ stats: { ...deletes, deleteRows: { position: 1, equality: 9 } } }))).toEqual([
      'TABLE_EQUALITY_DELETES',
      'TABLE_DELETE_RATIO',
    ]);
    expect(codes(facts({ stats: deletes }), { ...DEFAULT_THRESHOLDS, 'equality-delete-files': 3 })).toEqual(
      [],
    );
    expect(codes(facts({ snapshots: 101 }))).toEqual(['TABLE_MANY_SNAPSHOTS']);
    expect(codes(facts({ snapshots: 101 }), { ...DEFAULT_THRESHOLDS, 'max-snapshots': 500 })).toEqual([]);
    expect(codes(facts({ oldestSnapshotMs: NOW - 6 * 24 * HOUR }))).toEqual(['TABLE_OLD_SNAPSHOTS']);
    expect(
      codes(
        facts({
          oldestSnapshotMs: NOW - 6 * 24 * HOUR,
          properties: { 'history.expire.max-snapshot-age-ms': String(7 * 24 * HOUR) },
        }),
      ),
    ).toEqual([]);
    expect(codes(facts({ lastCommitMs: NOW - 25 * HOUR }))).toEqual(['TABLE_STALE']);
    // A job that runs every hour: stale after its period and one run's slack (2 h), not before.
    expect(codes(facts({ lastCommitMs: NOW - 2 * HOUR - 1 }), DEFAULT_THRESHOLDS, HOUR)).toEqual([
      'TABLE_STALE',
    ]);
    expect(codes(facts({ lastCommitMs: NOW - 2 * HOUR }), DEFAULT_THRESHOLDS, HOUR)).toEqual([]);
    // A weekly job: the slack stops at 6 h.
    expect(
      codes(facts({ lastCommitMs: NOW - 7 * 24 * HOUR - 5 * HOUR }), DEFAULT_THRESHOLDS, 7 * 24 * HOUR),
    ).toEqual([]);
    expect(
      codes(facts({ lastCommitMs: NOW - 7 * 24 * HOUR - 7 * HOUR }), DEFAULT_THRESHOLDS, 7 * 24 * HOUR),
    ).toEqual(['TABLE_STALE']);
  });

  it('carries the maintenance for the engines, names filled in', () => {
    const [problem] = evaluate(facts({ snapshots: 200 }), {
      thresholds: DEFAULT_THRESHOLDS,
      nowMs: NOW,
      table,
    });
    expect(problem?.maintenance?.spark).toEqual([
      "CALL olake.system.expire_snapshots(table => 'olake_db.orders', older_than => TIMESTAMP '2026-11-22 12:00:00', retain_last => 1);",
    ]);
    expect(problem?.maintenance?.trino).toEqual([
      'ALTER TABLE "olake"."olake_db"."orders" EXECUTE expire_snapshots(retention_threshold => \'5d\');',
    ]);
    expect(problem?.maintenance?.pyiceberg.at(-1)).toBe(
      'table.maintenance.expire_snapshots().older_than(datetime.now(timezone.utc) - timedelta(days=5)).commit()',
    );
  });

  it('quotes names that are not plain identifiers', () => {
    const lines = maintenance(
      'compact',
      { catalog: 'my-cat', namespace: ["o'db", 'x"y'], name: 'a`b' },
      { nowMs: NOW, retainMs: HOUR, smallFileBytes: 128 << 20 },
    );
    expect(lines.spark[0]).toBe(
      "CALL `my-cat`.system.rewrite_data_files(table => '`o\\'db`.`x\"y`.`a``b`', options => map('min-file-size-bytes', '134217728'));",
    );
    expect(lines.trino[0]).toBe(
      'ALTER TABLE "my-cat"."o\'db.x""y"."a`b" EXECUTE optimize(file_size_threshold => \'128MB\');',
    );
  });
});

describe('reading untrusted metadata', () => {
  it('states what is missing instead of throwing', () => {
    expect(readTableMetadata(null)).toEqual({ problem: 'the answer is not a JSON object' });
    expect(readTableMetadata({ metadata: [] })).toEqual({ problem: 'the answer has no "metadata" object' });
    expect(readTableMetadata({ metadata: { location: 5 } })).toEqual({
      problem: 'the metadata has no location',
    });
  });

  it('keeps 64-bit ids exact, sanitizes text and drops malformed snapshots', () => {
    const meta = readTableMetadata({
      metadata: {
        location: 's3://b/t/',
        'format-version': 2,
        'current-snapshot-id': '9007199254740993',
        snapshots: [
          {
            'snapshot-id': '9007199254740993',
            'timestamp-ms': 5,
            summary: { operation: 'append\u001b]0;x\u0007' },
          },
          { 'snapshot-id': -1, 'timestamp-ms': 1 },
          'junk',
        ],
        properties: { 'write.target-file-size-bytes': 1024, nested: { no: 1 } },
      },
    });
    if ('problem' in meta) throw new Error(meta.problem);
    expect(meta.location).toBe('s3://b/t');
    expect(meta.currentSnapshotId).toBe('9007199254740993');
    expect(meta.snapshots).toHaveLength(1);
    expect(meta.snapshots[0]!.operation).not.toContain('\u001b');
    expect(meta.properties).toEqual({ 'write.target-file-size-bytes': '1024' });
  });
});

describe('the summary rule', () => {
  const totals = {
    'total-records': '10',
    'total-data-files': '2',
    'total-delete-files': '0',
    'total-files-size': '300',
    'total-position-deletes': '0',
    'total-equality-deletes': '0',
  };
  it('is complete only with every total and no delete file', () => {
    expect(statsFromSummary(totals)).toEqual({ ...EMPTY_STATS, records: 10, dataFiles: 2, dataBytes: 300 });
    expect(statsFromSummary({ ...totals, 'total-delete-files': '1' })).toBeNull();
    const { 'total-files-size': _, ...partial } = totals;
    expect(statsFromSummary(partial)).toBeNull();
    expect(statsFromSummary({ ...totals, 'total-records': '1e3' })).toBeNull();
  });
});

/** An Avro container of one record {id: long} written with a bigint long type. */
async function containerWithLong(id: bigint): Promise<Uint8Array> {
  const avsc = (await import('avsc')).default;
  const big = avsc.types.LongType.__with({
    fromBuffer: (b: Buffer) => b.readBigInt64LE(0),
    toBuffer: (n: bigint) => {
      const b = Buffer.alloc(8);
      b.writeBigInt64LE(n);
      return b;
    },
    fromJSON: BigInt,
    toJSON: Number,
    isValid: (n: unknown) => typeof n === 'bigint',
    compare: (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0),
  });
  const type = avsc.Type.forSchema({ type: 'record', name: 'r', fields: [{ name: 'id', type: 'long' }] }, {
    registry: { long: big },
  } as never);
  const encoder = new avsc.streams.BlockEncoder(type);
  const chunks: Buffer[] = [];
  const done = new Promise((resolve) => encoder.on('end', resolve));
  encoder.on('data', (c: Buffer) => chunks.push(c));
  encoder.write({ id });
  encoder.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

describe('Avro', () => {
  it('reads longs beyond 2^53 as their digits, others as numbers', async () => {
    const records: Record<string, unknown>[] = [];
    await readAvro(await containerWithLong(3051729675574597004n), (r) => records.push(r), {
      maxBlockBytes: 1 << 20,
    });
    await readAvro(await containerWithLong(-42n), (r) => records.push(r), { maxBlockBytes: 1 << 20 });
    expect(records).toEqual([{ id: '3051729675574597004' }, { id: -42 }]);
  });

  it('refuses what is not a whole container', async () => {
    const manifest = {
      path: 's3://b/m.avro',
      length: 10,
      specId: 0,
      content: 0,
      sequenceNumber: 1,
      minSequenceNumber: 1,
      addedSnapshotId: 7,
      addedFilesCount: 1,
      existingFilesCount: 0,
      deletedFilesCount: 0,
      addedRowsCount: 2,
      existingRowsCount: 0,
      deletedRowsCount: 0,
    } as const;
    const bytes = await writeManifestListFiles({
      snapshotId: 7,
      parentSnapshotId: null,
      sequenceNumber: 1,
      manifests: [manifest],
    });
    const meta = await readAvro(bytes, () => {}, { maxBlockBytes: 1 << 20 });
    expect(meta['snapshot-id']).toBe('7');
    await expect(
      readAvro(new Uint8Array([1, 2, 3, 4, 5]), () => {}, { maxBlockBytes: 1 << 20 }),
    ).rejects.toThrow(/magic bytes/);
    await expect(readAvro(bytes.subarray(0, 20), () => {}, { maxBlockBytes: 1 << 20 })).rejects.toThrow(
      /not an Avro container/,
    );
  });
});

describe('the limiter', () => {
  it('never has more than n in flight', async () => {
    const limit = limiter(3);
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        limit(async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, i % 3));
          active--;
        }),
      ),
    );
    expect(peak).toBe(3);
  });
});
