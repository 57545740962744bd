// The names a destination is made of, with no behaviour: auth types, storage kinds, catalog preset ids,
// field ids and the values the user chose. fields.ts (the field registry) and presets.ts (the catalog
// presets) both read them, so neither imports the other's types (no import cycle).

export const AUTH_TYPES = ['none', 'token', 'oauth2', 'sigv4', 'google'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

export const STORAGE_KINDS = ['aws', 's3-compatible', 'gcs'] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];

export const PRESET_IDS = [
  'rest',
  'polaris',
  'open-catalog',
  'lakekeeper',
  'nessie',
  'unity',
  'glue',
  's3tables',
  'biglake',
  'r2',
] as const;
export type PresetId = (typeof PRESET_IDS)[number];

export type FieldId =
  | 'catalogUrl'
  | 'warehouse'
  | 'region'
  | 'token'
  | 'oauth2Uri'
  | 'credential'
  | 'scope'
  | 'signingName'
  | 'signingRegion'
  | 'sigv4'
  | 'gcpServiceAccountJson'
  | 'gcpAuthScopes'
  | 'gcpProjectId'
  | 's3Endpoint'
  | 'dataLocation'
  | 'accessKey'
  | 'secretKey'
  | 'catalogName'
  | 'icebergDb'
  | 'arrowWrites'
  | 'noIdentifierFields';

/** Everything the user chose or typed. Strings for text fields, booleans for switches. */
export interface Values {
  /** The catalog preset (presets.ts); `rest` is the generic REST catalog. */
  preset: PresetId;
  authType: AuthType;
  storage: StorageKind;
  /** OLake version the destination targets: `latest` or `x.y.z`. */
  targetVersion: string;
  fields: Partial<Record<FieldId, string | boolean>>;
}

/** OLake's check namespace (datazip-inc/olake destination/iceberg/iceberg.go Check: "test_olake"). */
export const OLAKE_CHECK_NAMESPACE = 'test_olake';
