// The table side of the write check, pure: reading a LoadTableResult (with 64-bit snapshot ids kept
// exact), and the requests floe sends — CreateTableRequest and the append's CommitTableRequest —
// as the Iceberg REST spec (CreateTableRequest, CommitTableRequest, TableRequirement, TableUpdate)
// and Iceberg Java's MergeAppend / SnapshotProducer build them.
import type { IcebergSchema } from './files.js';

/** A snapshot id as a decimal string: ids are 64-bit and JSON numbers above 2^53 lose digits. */
export type SnapshotId = string;

export interface TableFacts {
  metadataLocation: string | null;
  uuid: string;
  location: string;
  formatVersion: number;
  lastSequenceNumber: number;
  schema: IcebergSchema;
  /** The snapshot `main` points at, or null for a table without one. */
  mainSnapshot: SnapshotId | null;
  /** Every snapshot's id and manifest list. */
  snapshots: { id: SnapshotId; manifestList: string }[];
  /** Storage properties the catalog sent with the table (vended credentials…): values to scrub. */
  config: Record<string, string>;
}

/**
 * An integer token beyond 2^53 - 1, where JSON numbers stop holding every integer: kept as its digits.
 * Only JSON's own integers: a leading zero stays an error of the text.
 */
const unsafeInteger = (digits: string): boolean =>
  /^-?[1-9]\d{15,}$/.test(digits) && !Number.isSafeInteger(Number(digits));

/** Fewer digits than this always read back exactly (2^53 has 16). */
const SHORTEST_UNSAFE = 16;

type SourceReviver = (key: string, value: unknown, context?: { source?: string }) => unknown;

/** Whether this runtime's JSON.parse hands a reviver each number's source text (V8 11.4+: Node 22+). */
const SOURCE_ACCESS = (() => {
  let seen: string | undefined;
  JSON.parse('1', ((_key, value, context) => {
    seen = context?.source;
    return value;
  }) as SourceReviver as Parameters<typeof JSON.parse>[1]);
  return seen === '1';
})();

/**
 * JSON.parse with every integer beyond 2^53 read as its decimal string, so snapshot ids survive.
 * Linear time, and the runtime's own JSON.parse either way: with source text access where it exists
 * (Node 22+, the single file), else after quoting the long integers (Node 20). Text that is not JSON
 * throws a SyntaxError (a catalog answer is capped at MAX_BODY_BYTES).
 */
export function parseLossless(text: string): unknown {
  return SOURCE_ACCESS ? parseWithSource(text) : parseQuoted(text);
}

/** The runtime's JSON.parse, numbers beyond 2^53 read from their source text. Exported for tests. */
export function parseWithSource(text: string): unknown {
  return JSON.parse(text, ((_key, value, context) =>
    typeof value === 'number' && context?.source !== undefined && unsafeInteger(context.source)
      ? context.source
      : value) as SourceReviver as Parameters<typeof JSON.parse>[1]);
}

/** JSON.parse of the text with its long integers quoted first (`quoteLongIntegers`). Exported for tests. */
export function parseQuoted(text: string): unknown {
  return JSON.parse(quoteLongIntegers(text));
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** What may follow an integer's digits inside one JSON number: a fraction or an exponent. */
const isNumberPart = (c: number) =>
  isDigit(c) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === MINUS;

/**
 * The text with each integer token a JSON number cannot hold exactly written as a string of its digits.
 * One pass over the text, skipping strings (their escapes included) and numbers with a fraction or an
 * exponent; anything else is left for JSON.parse to accept or refuse.
 */
export function quoteLongIntegers(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i++;
      while (i < text.length) {
        const d = text.charCodeAt(i);
        i += d === BACKSLASH ? 2 : 1;
        if (d === QUOTE) break;
      }
    } else if (c === MINUS || isDigit(c)) {
      let end = c === MINUS ? i + 1 : i;
      while (end < text.length && isDigit(text.charCodeAt(end))) end++;
      if (end < text.length && isNumberPart(text.charCodeAt(end))) {
        while (end < text.length && isNumberPart(text.charCodeAt(end))) end++;
      } else if (end - i >= SHORTEST_UNSAFE) {
        const digits = text.slice(i, end);
        if (unsafeInteger(digits)) {
          parts.push(text.slice(copied, i), `"${digits}"`);
          copied = end;
        }
      }
      i = end;
    } else i++;
  }
  if (copied === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

/** JSON whose values marked by `rawNumber` are written as bare numbers (snapshot ids). */
export function stringifyWithIds(value: unknown): string {
  return JSON.stringify(value).replace(new RegExp(`"${RAW_NUMBER}(-?\\d+)"`, 'g'), '$1');
}

/** The mark of a number `stringifyWithIds` writes bare: no catalog value starts with it. */
const RAW_NUMBER = 'floe-raw-number:';

/** Marks a snapshot id for `stringifyWithIds` to write as a number. */
export function rawNumber(id: SnapshotId): string {
  return `${RAW_NUMBER}${id}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function idText(value: unknown): SnapshotId | null {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  return null;
}

/** The table a LoadTableResult (create, load) or CommitTableResponse describes, or why it is unusable. */
export function readTable(body: unknown): TableFacts | { problem: string } {
  if (!isRecord(body)) return { problem: 'is not an object' };
  const metadata = body.metadata;
  if (!isRecord(metadata)) return { problem: 'has no "metadata" object' };
  const location = metadata.location;
  if (typeof location !== 'string' || !location) return { problem: 'has no metadata.location' };
  const uuid = metadata['table-uuid'];
  if (typeof uuid !== 'string' || !uuid) return { problem: 'has no metadata.table-uuid' };
  const schemas = Array.isArray(metadata.schemas) ? metadata.schemas : [];
  const current = metadata['current-schema-id'];
  const schema = schemas.find((s) => isRecord(s) && s['schema-id'] === current) ?? schemas[0];
  if (!isRecord(schema) || !Array.isArray(schema.fields)) return { problem: 'has no current schema' };
  const refs = isRecord(metadata.refs) ? metadata.refs : {};
  const main = isRecord(refs.main) ? idText(refs.main['snapshot-id']) : null;
  const currentId = idText(metadata['current-snapshot-id']);
  const snapshots = (Array.isArray(metadata.snapshots) ? metadata.snapshots : []).flatMap((s) => {
    const id = isRecord(s) ? idText(s['snapshot-id']) : null;
    const list = isRecord(s) ? s['manifest-list'] : undefined;
    return id && typeof list === 'string' ? [{ id, manifestList: list }] : [];
  });
  const config = isRecord(body.config)
    ? Object.fromEntries(
        Object.entries(body.config).filter((e): e is [string, string] => typeof e[1] === 'string'),
      )
    : {};
  const metadataLocation = body['metadata-location'];
  return {
    metadataLocation: typeof metadataLocation === 'string' ? metadataLocation : null,
    uuid,
    location: location.replace(/\/+$/, ''),
    formatVersion: typeof metadata['format-version'] === 'number' ? metadata['format-version'] : 1,
    lastSequenceNumber:
      typeof metadata['last-sequence-number'] === 'number' ? metadata['last-sequence-number'] : 0,
    schema: schema as unknown as IcebergSchema,
    // `current-snapshot-id` -1 (older writers) or null: no snapshot.
    mainSnapshot: main ?? (currentId && currentId !== '0' ? currentId : null),
    snapshots,
    config,
  };
}

/**
 * The table as OLake creates it (olake-iceberg-java-writer IcebergUtil.createIcebergTable): format v2,
 * Parquet, and the identifier fields as its sort order (getIdentifierFieldsAsSortOrder: each ascending,
 * SortOrder.Builder's default nulls-first, order id 1). floe writes Snappy (hyparquet-writer has no
 * zstd), so the table says so: a catalog would otherwise default new tables to zstd
 * (TableMetadata.persistedProperties), and the data file would contradict its table.
 */
export function createTableRequest(name: string, schema: IcebergSchema): Record<string, unknown> {
  const identifiers = schema['identifier-field-ids'] ?? [];
  return {
    name,
    schema,
    'stage-create': false,
    ...(identifiers.length
      ? {
          'write-order': {
            'order-id': 1,
            fields: identifiers.map((id) => ({
              transform: 'identity',
              'source-id': id,
              direction: 'asc',
              'null-order': 'nulls-first',
            })),
          },
        }
      : {}),
    properties: {
      'format-version': '2',
      'write.format.default': 'parquet',
      'write.parquet.compression-codec': PARQUET_CODEC,
    },
  };
}

/** The codec of the data files floe writes (files.ts). */
export const PARQUET_CODEC = 'snappy';

export interface AppendCommit {
  table: TableFacts;
  namespace: string[];
  name: string;
  snapshotId: SnapshotId;
  sequenceNumber: number;
  manifestList: string;
  timestampMs: number;
  addedFiles: number;
  addedRecords: number;
  addedBytes: number;
}

/**
 * The append as Iceberg Java commits it: `assert-table-uuid` and `assert-ref-snapshot-id` on main
 * (null: main must not exist yet), then `add-snapshot` and `set-snapshot-ref` (UpdateRequirements
 * .forUpdateTable, SnapshotProducer.commit). The summary has SnapshotSummary's keys for an append
 * to an empty unpartitioned table.
 */
export function appendCommitRequest(c: AppendCommit): string {
  const parent = c.table.mainSnapshot;
  return stringifyWithIds({
    identifier: { namespace: c.namespace, name: c.name },
    requirements: [
      { type: 'assert-table-uuid', uuid: c.table.uuid },
      {
        type: 'assert-ref-snapshot-id',
        ref: 'main',
        'snapshot-id': parent === null ? null : rawNumber(parent),
      },
    ],
    updates: [
      {
        action: 'add-snapshot',
        snapshot: {
          'snapshot-id': rawNumber(c.snapshotId),
          ...(parent === null ? {} : { 'parent-snapshot-id': rawNumber(parent) }),
          'sequence-number': c.sequenceNumber,
          'timestamp-ms': c.timestampMs,
          'manifest-list': c.manifestList,
          summary: {
            operation: 'append',
            'added-data-files': String(c.addedFiles),
            'added-records': String(c.addedRecords),
            'added-files-size': String(c.addedBytes),
            'changed-partition-count': '1',
            'total-records': String(c.addedRecords),
            'total-files-size': String(c.addedBytes),
            'total-data-files': String(c.addedFiles),
            'total-delete-files': '0',
            'total-position-deletes': '0',
            'total-equality-deletes': '0',
          },
          'schema-id': c.table.schema['schema-id'],
        },
      },
      {
        action: 'set-snapshot-ref',
        'ref-name': 'main',
        type: 'branch',
        'snapshot-id': rawNumber(c.snapshotId),
      },
    ],
  });
}
