// The table side of the write check, pure: reading a catalog's table answer with 64-bit snapshot ids
// exact, and the append commit Iceberg Java sends.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLossless, parseQuoted, parseWithSource } from '../../src/text/json.js';
import { olakeRawSchema } from '../../src/write/files.js';
import {
  appendCommitRequest,
  createTableRequest,
  readTable,
  type TableFacts,
} from '../../src/write/table.js';

/** Whether this Node hands JSON.parse revivers the source text (22+); 20 has only the library path. */
const SOURCE_PATH = Number(process.versions.node.split('.')[0]) >= 22;

const METADATA = {
  'format-version': 2,
  'table-uuid': '9c12d441-03fe-4693-9a96-a0705ddf69c1',
  location: 's3://warehouse/test_olake/t/',
  'last-sequence-number': 3,
  'current-schema-id': 0,
  schemas: [olakeRawSchema(true)],
  'current-snapshot-id': 424242424242,
  refs: { main: { 'snapshot-id': 424242424242, type: 'branch' } },
  snapshots: [{ 'snapshot-id': 424242424242, 'manifest-list': 's3://warehouse/x/snap.avro' }],
};

describe.each([
  ['parseLossless', parseLossless],
  ['parseQuoted (long integers quoted, then JSON.parse: the path on Node 20)', parseQuoted],
  ...(SOURCE_PATH
    ? [['parseWithSource (JSON.parse source access, Node 22+)', parseWithSource] as const]
    : []),
] as const)('%s', (_name, parse) => {
  it('keeps integers beyond 2^53 as strings, digits inside strings untouched', () => {
    const text =
      '{"a": 9007199254740993, "b": [1234567890123456789, 5], "c": "id 12345678901234567", "d": 1.5, "e": -9223372036854775808}';
    expect(parse(text)).toEqual({
      a: '9007199254740993',
      b: ['1234567890123456789', 5],
      c: 'id 12345678901234567',
      d: 1.5,
      e: '-9223372036854775808',
    });
  });

  it('reads any JSON as JSON.parse does, but for long integers (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const parsed = parse(text);
        // Where no integer of 16 digits or more stands as a value, the two readings agree.
        if (!/[:[,]\s*-?\d{16,}(?![.\deE])|^-?\d{16,}$/.test(text)) expect(parsed).toEqual(JSON.parse(text));
      }),
    );
  });

  it('refuses what JSON.parse refuses: quoting never makes a text JSON (property)', () => {
    expect(() => parse('[012345678901234567890]')).toThrow(SyntaxError);
    expect(() => parse('{"a": 12345678901234567890"}')).toThrow(SyntaxError);
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.nat(),
        fc.constantFrom('0', '"', '\\', '-', '12345678901234567890', 'x', ',', '.', 'e'),
        (value, at, insert) => {
          const json = JSON.stringify(value);
          const cut = at % (json.length + 1);
          const text = `${json.slice(0, cut)}${insert}${json.slice(cut)}`;
          let valid = true;
          try {
            JSON.parse(text);
          } catch {
            valid = false;
          }
          if (!valid) expect(() => parse(text)).toThrow(SyntaxError);
        },
      ),
    );
  });

  it('ends on large and deep bodies with a value or a SyntaxError, never another error (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200_000 }),
        fc.constantFrom('[', '{"a":', '[{"b":['),
        fc.boolean(),
        (depth, open, closed) => {
          const close = open === '[' ? ']' : open === '{"a":' ? '}' : ']}';
          const text = `${open.repeat(depth)}1${closed ? close.repeat(depth) : ''}`;
          try {
            parse(text);
          } catch (error) {
            expect(error).toBeInstanceOf(SyntaxError);
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  it('reads a 1 MiB table answer with thousands of 64-bit snapshot ids', () => {
    const snapshots = Array.from({ length: 5000 }, (_, i) => ({
      'snapshot-id': `ID${i}`,
      'manifest-list': `s3://warehouse/t/metadata/snap-${i}-${'x'.repeat(120)}.avro`,
    }));
    const text = JSON.stringify({ metadata: { ...METADATA, snapshots } }).replace(
      /"ID(\d+)"/g,
      (_m, i: string) => String(9007199254740993n + BigInt(i)),
    );
    expect(text.length).toBeGreaterThan(900_000);
    const parsed = parse(text) as { metadata: { snapshots: { 'snapshot-id': string }[] } };
    expect(parsed.metadata.snapshots[4999]!['snapshot-id']).toBe(String(9007199254740993n + 4999n));
  });
});

describe('readTable', () => {
  it('reads the location, uuid, schema and the main snapshot exactly', () => {
    const text = JSON.stringify({
      'metadata-location': 's3://m.json',
      metadata: METADATA,
      config: { 's3.secret-access-key': 'k', n: 1 },
    }).replaceAll('424242424242', '9007199254740993');
    const table = readTable(parseLossless(text)) as TableFacts;
    expect(table).toMatchObject({
      metadataLocation: 's3://m.json',
      uuid: METADATA['table-uuid'],
      location: 's3://warehouse/test_olake/t',
      lastSequenceNumber: 3,
      mainSnapshot: '9007199254740993',
      config: { 's3.secret-access-key': 'k' },
    });
    expect(table.schema.fields.map((f) => f.name)).toEqual([
      '_olake_id',
      '_olake_timestamp',
      '_op_type',
      '_cdc_timestamp',
      'data',
    ]);
  });

  it('names what a table answer lacks', () => {
    expect(readTable({})).toEqual({ problem: 'has no "metadata" object' });
    expect(readTable({ metadata: { ...METADATA, location: undefined } })).toEqual({
      problem: 'has no metadata.location',
    });
    expect(readTable({ metadata: { ...METADATA, schemas: [] } })).toEqual({
      problem: 'has no current schema',
    });
  });

  it('a table without a snapshot (-1 from older writers) has no main snapshot', () => {
    const table = readTable({ metadata: { ...METADATA, refs: {}, 'current-snapshot-id': -1 } }) as TableFacts;
    expect(table.mainSnapshot).toBeNull();
  });
});

describe('appendCommitRequest', () => {
  const table = readTable(
    parseLossless(JSON.stringify({ metadata: METADATA }).replaceAll('424242424242', '9007199254740993')),
  ) as TableFacts;
  const commit = (t: TableFacts) =>
    appendCommitRequest({
      table: t,
      namespace: ['test_olake'],
      name: 't',
      snapshotId: '12345',
      sequenceNumber: 4,
      manifestList: 's3://warehouse/x/snap-12345-1-u.avro',
      timestampMs: 1_700_000_000_000,
      addedFiles: 1,
      addedRecords: 1,
      addedBytes: 1193,
    });

  it('asserts the table uuid and main’s snapshot (as an exact 64-bit number), then adds the snapshot and moves main', () => {
    const body = commit(table);
    expect(body).toContain('"snapshot-id":9007199254740993}');
    expect(body).toContain('"parent-snapshot-id":9007199254740993');
    const parsed = parseLossless(body) as {
      requirements: unknown[];
      updates: { action: string; snapshot?: Record<string, unknown> }[];
    };
    expect(parsed.requirements).toEqual([
      { type: 'assert-table-uuid', uuid: METADATA['table-uuid'] },
      { type: 'assert-ref-snapshot-id', ref: 'main', 'snapshot-id': '9007199254740993' },
    ]);
    expect(parsed.updates.map((u) => u.action)).toEqual(['add-snapshot', 'set-snapshot-ref']);
    expect(parsed.updates[0]?.snapshot).toMatchObject({
      'snapshot-id': 12345,
      'sequence-number': 4,
      'schema-id': 0,
      summary: { operation: 'append', 'added-records': '1', 'added-files-size': '1193' },
    });
  });

  it('for a table without a snapshot, asserts that main does not exist yet (snapshot-id null) and sends no parent', () => {
    const body = JSON.parse(commit({ ...table, mainSnapshot: null }));
    expect(body.requirements[1]).toEqual({
      type: 'assert-ref-snapshot-id',
      ref: 'main',
      'snapshot-id': null,
    });
    expect(body.updates[0].snapshot['parent-snapshot-id']).toBeUndefined();
  });
});

describe('createTableRequest', () => {
  it('creates the table as OLake does: v2, Parquet, sorted by the identifier field, the codec floe writes', () => {
    const request = createTableRequest('t', olakeRawSchema(true));
    expect(request['write-order']).toEqual({
      'order-id': 1,
      fields: [{ transform: 'identity', 'source-id': 1, direction: 'asc', 'null-order': 'nulls-first' }],
    });
    expect(request.properties).toEqual({
      'format-version': '2',
      'write.format.default': 'parquet',
      'write.parquet.compression-codec': 'snappy',
    });
  });

  it('without identifier fields (Unity), no sort order', () => {
    expect(createTableRequest('t', olakeRawSchema(false))['write-order']).toBeUndefined();
  });
});
