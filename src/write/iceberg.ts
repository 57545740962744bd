// The Iceberg shapes the Parquet data file (files.ts) and the Avro manifests (avro.ts) share: a table
// schema as the REST catalog answers it, and the stats of the data file the manifest entry records.

export interface IcebergField {
  id: number;
  name: string;
  required: boolean;
  type: string;
  doc?: string;
}
export interface IcebergSchema {
  type: 'struct';
  'schema-id': number;
  fields: IcebergField[];
  'identifier-field-ids'?: number[];
}

export interface DataFileFacts {
  /** The whole Parquet file. */
  bytes: Uint8Array;
  recordCount: number;
  /** Per field id, as Iceberg's data_file stats: */
  columnSizes: Map<number, number>;
  valueCounts: Map<number, number>;
  nullValueCounts: Map<number, number>;
  /** Single-value serialization (format/spec.md Appendix D). */
  lowerBounds: Map<number, Uint8Array>;
  upperBounds: Map<number, Uint8Array>;
}
