// The object store the engines read the table's files from: S3 (endpoint, path style, region, keys) or
// Google Cloud Storage, for each engine. Sources: ../table.ts.
import { awsEndpoint, field, gcs, hasKeys, hostPort, KEY_FILE, type Row, text } from '../row.js';

export const STORAGE_ROWS: readonly Row[] = [
  {
    what: 'S3 file IO',
    when: (v) => !gcs(v),
    engines: {
      spark: { key: 'io-impl', value: 'org.apache.iceberg.aws.s3.S3FileIO' },
      trino: [
        { key: 'fs.s3.enabled', value: 'true', since: '481' },
        { key: 'fs.native-s3.enabled', value: 'true', before: '481' },
      ],
    },
  },
  {
    // OLake: io-impl ResolvingFileIO, which hands gs:// to GCSFileIO; GCSFileIO signs in with Application
    // Default Credentials, which OLake points at the service-account key (GOOGLE_APPLICATION_CREDENTIALS).
    what: 'Google Cloud Storage file IO',
    when: gcs,
    engines: {
      spark: { key: 'io-impl', value: 'org.apache.iceberg.gcp.gcs.GCSFileIO' },
      trino: [
        { key: 'fs.gcs.enabled', value: 'true', since: '481' },
        { key: 'fs.native-gcs.enabled', value: 'true', before: '481' },
      ],
      duckdb: {
        unsupported:
          'DuckDB reads gs:// with a GCS HMAC key pair (CREATE SECRET TYPE gcs: KEY_ID, SECRET), not with a service-account key, and the profile holds only the key OLake uses',
      },
    },
  },
  {
    // Trino 478+ (gcs.auth-type SERVICE_ACCOUNT, the default): GcsServiceAccountAuthConfig refuses to load
    // the catalog unless gcs.json-key or gcs.json-key-file-path is set; always written, the key at hand or not.
    what: 'Google Cloud Storage service-account key file',
    when: gcs,
    value: () => KEY_FILE,
    file: 'FLOE_GCP_SERVICE_ACCOUNT_JSON',
    engines: { trino: 'gcs.json-key-file-path' },
  },
  {
    // As OLake, Spark and Trino do by default: pyiceberg and DuckDB otherwise ask for vended credentials.
    what: 'the profile’s own storage access, not vended credentials',
    when: (v) => !awsEndpoint(v),
    engines: {
      pyiceberg: { key: 'header.X-Iceberg-Access-Delegation', value: '' },
      duckdb: { key: 'attach.ACCESS_DELEGATION_MODE', value: 'none' },
    },
  },
  {
    what: 'S3 endpoint',
    when: (v) => text(v, 's3Endpoint') !== undefined,
    value: field('s3Endpoint'),
    engines: {
      pyiceberg: 's3.endpoint',
      spark: 's3.endpoint',
      trino: 's3.endpoint',
      duckdb: { key: 's3.ENDPOINT', value: hostPort },
    },
  },
  {
    what: 'path-style S3 requests (OLake forces them with an endpoint)',
    when: (v) => text(v, 's3Endpoint') !== undefined,
    engines: {
      spark: { key: 's3.path-style-access', value: 'true' },
      trino: { key: 's3.path-style-access', value: 'true' },
      duckdb: { key: 's3.URL_STYLE', value: 'path' },
    },
  },
  {
    what: 'plain-HTTP S3 endpoint',
    when: (v) => text(v, 's3Endpoint')?.startsWith('http:') === true,
    engines: { duckdb: { key: 's3.USE_SSL', value: 'false' } },
  },
  {
    what: 'region',
    when: (v) => !gcs(v),
    value: field('region'),
    engines: { pyiceberg: 's3.region', spark: 'client.region', trino: 's3.region', duckdb: 's3.REGION' },
  },
  {
    what: 'S3 access key',
    when: hasKeys,
    value: field('accessKey'),
    secret: { env: 'FLOE_ACCESS_KEY' },
    engines: {
      pyiceberg: 's3.access-key-id',
      spark: 's3.access-key-id',
      trino: 's3.aws-access-key',
      duckdb: 's3.KEY_ID',
    },
  },
  {
    what: 'S3 secret key',
    when: hasKeys,
    value: field('secretKey'),
    secret: { env: 'FLOE_SECRET_KEY' },
    engines: {
      pyiceberg: 's3.secret-access-key',
      spark: 's3.secret-access-key',
      trino: 's3.aws-secret-key',
      duckdb: 's3.SECRET',
    },
  },
  {
    what: 'the runtime environment’s AWS credentials',
    when: (v) => !hasKeys(v) && !gcs(v),
    engines: { duckdb: { key: 's3.PROVIDER', value: 'credential_chain' } },
  },
];
