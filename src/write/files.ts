// The files `floe test --write` puts in a table, as pure functions (no network): OLake's raw schema,
// the Parquet data file holding one record and the Iceberg stats of that file. The Avro manifest and
// manifest list are in avro.ts, the shapes both share in iceberg.ts; both are re-exported here.
// hyparquet and hyparquet-writer are imported inside the functions, so importing this module loads neither.
import type { parquetWriteBuffer } from 'hyparquet-writer';
import { lazy } from '../lazy.js';
import type { DataFileFacts, IcebergField, IcebergSchema } from './iceberg.js';

/** hyparquet-writer's SchemaElement (it pins its own hyparquet, whose types differ from floe's copy). */
type SchemaElement = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];

export {
  type ManifestEntriesInput,
  type ManifestEntryInput,
  type ManifestFileInput,
  type ManifestInput,
  type ManifestListFilesInput,
  type ManifestListInput,
  writeManifest,
  writeManifestEntries,
  writeManifestList,
  writeManifestListFiles,
} from './avro.js';
export type { DataFileFacts, IcebergField, IcebergSchema } from './iceberg.js';

/**
 * OLake's raw schema (datazip-inc/olake types/data_types.go RawSchema; Java SchemaConvertor: the
 * identifier field `_olake_id` is required, the rest optional), in this order: _olake_id string,
 * _olake_timestamp timestamptz, _op_type string, _cdc_timestamp timestamptz, data string. Ids 1..5
 * here; a REST server reassigns ids, so every writer below takes the schema the catalog answered with.
 * `identifier: false` (Unity: OLake forces no_identifier_fields) leaves identifier-field-ids empty.
 */
export function olakeRawSchema(identifier: boolean): IcebergSchema {
  return {
    type: 'struct',
    'schema-id': 0,
    fields: [
      { id: 1, name: '_olake_id', required: identifier, type: 'string' },
      { id: 2, name: '_olake_timestamp', required: false, type: 'timestamptz' },
      { id: 3, name: '_op_type', required: false, type: 'string' },
      { id: 4, name: '_cdc_timestamp', required: false, type: 'timestamptz' },
      { id: 5, name: 'data', required: false, type: 'string' },
    ],
    'identifier-field-ids': identifier ? [1] : [],
  };
}

/** One record of that schema; timestamps as Date (stored as microseconds since epoch, UTC). */
export type RawRow = {
  _olake_id: string;
  _olake_timestamp: Date;
  _op_type: string;
  _cdc_timestamp: Date;
  data: string;
};

/**
 * String bounds keep this many code points, as Java's default metrics mode `truncate(16)`
 * (core/src/main/java/org/apache/iceberg/MetricsModes.java, TableProperties.DEFAULT_WRITE_METRICS_MODE).
 */
export const STRING_BOUND_LENGTH = 16;

type Primitive = 'string' | 'timestamptz';

/**
 * Iceberg type → Parquet column (format/spec.md Appendix A "Parquet"; Java
 * parquet/.../TypeToMessageType.java: string is binary with the STRING annotation, timestamptz is
 * int64 TIMESTAMP(isAdjustedToUTC=true, MICROS)). parquet-mr writes the matching converted type too.
 */
function parquetElement(field: IcebergField): SchemaElement {
  const base = {
    name: field.name,
    repetition_type: field.required ? 'REQUIRED' : 'OPTIONAL',
    field_id: field.id,
  } as const;
  switch (primitive(field)) {
    case 'string':
      return { ...base, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'timestamptz':
      return {
        ...base,
        type: 'INT64',
        converted_type: 'TIMESTAMP_MICROS',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
      };
  }
}

function primitive(field: IcebergField): Primitive {
  if (field.type === 'string' || field.type === 'timestamptz') return field.type;
  throw new Error(`floe writes only string and timestamptz columns; field ${field.name} is ${field.type}`);
}

function rowValue(row: RawRow, field: IcebergField): string | Date | null {
  const value = (row as Record<string, unknown>)[field.name];
  if (value === undefined || value === null) {
    if (field.required) throw new Error(`required field ${field.name} has no value`);
    return null;
  }
  if (primitive(field) === 'string') {
    if (typeof value !== 'string') throw new Error(`field ${field.name} must be a string`);
    return value;
  }
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new Error(`field ${field.name} must be a valid Date`);
  }
  return value;
}

/**
 * A Parquet file whose columns carry the schema's field ids (SchemaElement.field_id), strings as
 * UTF8/STRING, timestamptz as INT64 TIMESTAMP(isAdjustedToUTC=true, MICROS), required/optional
 * repetition from the schema, and key-value metadata `iceberg.schema` = the schema JSON (as Java's
 * parquet/.../Parquet.java writes). Snappy-compressed (hyparquet-writer's built-in codec).
 */
export async function writeDataFile(schema: IcebergSchema, rows: RawRow[]): Promise<DataFileFacts> {
  const [{ parquetWriteBuffer }, { parquetMetadata }] = await Promise.all([
    lazy.hyparquetWriter(),
    lazy.hyparquet(),
  ]);
  const columns = schema.fields.map((field) => ({ field, values: rows.map((row) => rowValue(row, field)) }));
  // A full schema (root + one element per column) is hyparquet-writer's way to set field_id and the
  // logical types; the root is named "table" as Java's ParquetSchemaUtil.convert(schema, "table").
  const parquetSchema: SchemaElement[] = [
    { name: 'table', num_children: schema.fields.length },
    ...schema.fields.map(parquetElement),
  ];
  const buffer = parquetWriteBuffer({
    // Timestamps go in as bigint microseconds: hyparquet-writer converts a Date with
    // BigInt(getTime() * 1000), which rounds beyond 2^53 µs (before 1685 or after 2255).
    columnData: columns.map(({ field, values }) => ({
      name: field.name,
      data: values.map((v) => (v instanceof Date ? epochMicros(v) : v)),
    })),
    schema: parquetSchema,
    codec: 'SNAPPY',
    kvMetadata: [{ key: 'iceberg.schema', value: JSON.stringify(schema) }],
  });
  const bytes = new Uint8Array(buffer);

  // Sizes and counts come from the footer, as Java's ParquetMetrics (parquet/.../ParquetUtil.java
  // footerMetrics): column size = the chunks' total_compressed_size, value count = num_values.
  const footer = parquetMetadata(buffer);
  const idByName = new Map(schema.fields.map((f) => [f.name, f.id]));
  const columnSizes = new Map<number, number>();
  const valueCounts = new Map<number, number>();
  const nullValueCounts = new Map<number, number>();
  for (const group of footer.row_groups) {
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      const id = meta && idByName.get(meta.path_in_schema[0] ?? '');
      if (!meta || id === undefined) continue;
      columnSizes.set(id, (columnSizes.get(id) ?? 0) + Number(meta.total_compressed_size));
      valueCounts.set(id, (valueCounts.get(id) ?? 0) + Number(meta.num_values));
    }
  }
  const lowerBounds = new Map<number, Uint8Array>();
  const upperBounds = new Map<number, Uint8Array>();
  for (const { field, values } of columns) {
    const present = values.filter((v): v is string | Date => v !== null);
    nullValueCounts.set(field.id, values.length - present.length);
    const bounds =
      primitive(field) === 'string' ? stringBounds(present as string[]) : timestampBounds(present as Date[]);
    if (bounds.lower) lowerBounds.set(field.id, bounds.lower);
    if (bounds.upper) upperBounds.set(field.id, bounds.upper);
  }
  return {
    bytes,
    recordCount: rows.length,
    columnSizes,
    valueCounts,
    nullValueCounts,
    lowerBounds,
    upperBounds,
  };
}

/** Reads a Parquet file back with hyparquet: rows keyed by column name (timestamps as Date), and each column's field id. */
export async function readDataFile(
  bytes: Uint8Array,
): Promise<{ rows: Record<string, unknown>[]; fieldIds: Record<string, number> }> {
  const { parquetMetadata, parquetReadObjects } = await lazy.hyparquet();
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const metadata = parquetMetadata(file);
  const fieldIds: Record<string, number> = {};
  for (const element of metadata.schema.slice(1)) {
    if (element.field_id !== undefined) fieldIds[element.name] = element.field_id;
  }
  const rows = await parquetReadObjects({ file, metadata });
  return { rows, fieldIds };
}

// --- Bounds: single-value serialization (format/spec.md Appendix D) ---

function epochMicros(date: Date): bigint {
  return BigInt(date.getTime()) * 1000n;
}

/** timestamptz: microseconds since 1970-01-01 UTC as an 8-byte little-endian long. */
export function timestamptzBound(date: Date): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigInt64(0, epochMicros(date), true);
  return out;
}

function timestampBounds(values: Date[]): { lower?: Uint8Array; upper?: Uint8Array } {
  if (values.length === 0) return {};
  const times = values.map((d) => d.getTime());
  return {
    lower: timestamptzBound(new Date(Math.min(...times))),
    upper: timestamptzBound(new Date(Math.max(...times))),
  };
}

/** Unsigned byte order of UTF-8, which is code-point order (how Parquet orders UTF8 min/max). */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function stringBounds(values: string[]): { lower?: Uint8Array; upper?: Uint8Array } {
  if (values.length === 0) return {};
  const encoder = new TextEncoder();
  let min = values[0] as string;
  let max = min;
  for (const v of values) {
    if (compareBytes(encoder.encode(v), encoder.encode(min)) < 0) min = v;
    if (compareBytes(encoder.encode(v), encoder.encode(max)) > 0) max = v;
  }
  const upper = truncateStringMax(max, STRING_BOUND_LENGTH);
  return {
    lower: encoder.encode(truncateStringMin(min, STRING_BOUND_LENGTH)),
    ...(upper === null ? {} : { upper: encoder.encode(upper) }),
  };
}

/** The first `length` code points (api/.../util/UnicodeUtil.java truncateStringMin). */
export function truncateStringMin(input: string, length: number): string {
  return Array.from(input).slice(0, length).join('');
}

/**
 * A string ≥ every string starting with `input`'s first `length` code points, or null when there is
 * none (api/.../util/UnicodeUtil.java truncateStringMax): the input itself when it is short enough,
 * otherwise the truncation with its last incrementable code point incremented (skipping surrogates,
 * U+10FFFF cannot be incremented) and what follows it dropped.
 */
export function truncateStringMax(input: string, length: number): string | null {
  const points = Array.from(input);
  if (points.length <= length) return input;
  const kept = points.slice(0, length);
  for (let i = length - 1; i >= 0; i--) {
    const code = (kept[i] as string).codePointAt(0) as number;
    if (code === 0x10ffff) continue;
    const next = code === 0xd7ff ? 0xe000 : code + 1;
    return kept.slice(0, i).join('') + String.fromCodePoint(next);
  }
  return null;
}
