// One profile, every engine: the property each engine reads for each thing floe knows about a catalog
// and its storage, as one table of data. The renderers (engines.ts) only serialise what this table
// selects; nothing else knows an engine's property names.
//
// Sources (checked 2026-11-23; see ../shared/reference/catalogs.md §1.4):
// - pyiceberg: apache/iceberg-python mkdocs/docs/configuration.md (REST catalog: uri, warehouse, token,
//   credential, oauth2-server-uri, scope, rest.sigv4-enabled, rest.signing-name, rest.signing-region,
//   header.*; FileIO s3.*; unified client.*), pyiceberg/catalog/rest/__init__.py (SIGV4*, AUTH = "auth"),
//   pyiceberg/catalog/rest/auth.py (GoogleAuthManager(credentials_path, scopes)), pyiceberg/utils/config.py
//   (PYICEBERG_… variables: `__` nests at most twice, `_` becomes `-`).
// - Spark: apache/iceberg docs/docs/spark-configuration.md and docs/docs/catalog-properties.md (type, uri,
//   warehouse, io-impl, rest.auth.type none|oauth2|sigv4|google, token, credential, oauth2-server-uri,
//   scope, rest.signing-name, rest.signing-region, rest.access-key-id, rest.secret-access-key,
//   gcp.auth.credentials-path, gcp.auth.scopes, header.*), aws S3FileIOProperties.java (s3.endpoint,
//   s3.path-style-access, s3.access-key-id, s3.secret-access-key), AwsClientProperties.java (client.region).
// - Trino: trinodb/trino docs/src/main/sphinx/object-storage/metastores.md (iceberg.rest-catalog.*:
//   uri, warehouse, security NONE|OAUTH2|SIGV4|GOOGLE, oauth2.token, oauth2.credential, oauth2.scope,
//   oauth2.server-uri, signing-name, google-project-id), object-storage/file-system-s3.md (s3.endpoint,
//   s3.region, s3.path-style-access, s3.aws-access-key, s3.aws-secret-key); SigV4AwsProperties (the
//   signing region and keys come from s3.*); release notes 481 (fs.s3.enabled replaces
//   fs.native-s3.enabled) and 484 (iceberg.rest-catalog.google-json-key-file-path replaces
//   gcs.json-key-file-path); docs/src/main/sphinx/security/secrets.md (${ENV:NAME} in catalog files).
// - DuckDB: duckdb/duckdb-web docs/stable/core_extensions/iceberg/{iceberg_rest_catalogs,iceberg_options,
//   amazon_s3_tables,amazon_sagemaker_lakehouse}.md (ATTACH … (TYPE iceberg, ENDPOINT, ENDPOINT_TYPE glue |
//   s3_tables, AUTHORIZATION_TYPE, ACCESS_DELEGATION_MODE, SECRET); CREATE SECRET TYPE iceberg (TOKEN,
//   CLIENT_ID, CLIENT_SECRET, OAUTH2_SERVER_URI, OAUTH2_SCOPE)), httpfs s3 secrets (KEY_ID, SECRET, REGION,
//   ENDPOINT, URL_STYLE, USE_SSL, PROVIDER credential_chain).
import {
  type AuthType,
  DEFAULT_GCP_SCOPES,
  type SecretEnv,
  splitCredential,
  type Values,
} from '../destination/fields.js';

export const ENGINES = ['pyiceberg', 'spark', 'trino', 'duckdb'] as const;
export type Engine = (typeof ENGINES)[number];

/** The Trino release the catalog file targets, and what differs in older ones. */
export const TRINO_TARGET = {
  release: '484',
  older: [
    'Trino 471–480: fs.native-s3.enabled=true instead of fs.s3.enabled=true',
    'Trino 471–483: gcs.json-key-file-path instead of iceberg.rest-catalog.google-json-key-file-path',
  ],
} as const;

export type Produce = (v: Values) => string | string[] | undefined;

/** Where a row goes for one engine: a property (with an engine-specific value), or "cannot". */
export type Target = string | { key: string; value: string | Produce } | { unsupported: string };

export interface Row {
  /** What the row carries, in words. */
  what: string;
  when: (v: Values) => boolean;
  /** The value from the profile; an engine target may give its own. */
  value?: Produce;
  /** A secret: written only with --include-secrets, otherwise a placeholder or an env reference. */
  secret?: { env: SecretEnv; part?: 'client_id' | 'client_secret' };
  /** A local file the user must provide (the engine reads a path, floe holds the content). */
  file?: string;
  engines: Partial<Record<Engine, Target>>;
}

const text = (v: Values, id: keyof Values['fields']): string | undefined => {
  const value = v.fields[id];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};
const field =
  (id: keyof Values['fields']): Produce =>
  (v) =>
    text(v, id);
const auth =
  (...types: AuthType[]) =>
  (v: Values) =>
    types.includes(v.authType);
const always = () => true;
const hasKeys = (v: Values) => text(v, 'accessKey') !== undefined;
const awsEndpoint = (v: Values) => v.preset === 'glue' || v.preset === 's3tables';
const DUCKDB_ENDPOINT_TYPE: Partial<Record<Values['preset'], string>> = {
  glue: 'glue',
  s3tables: 's3_tables',
};
const DUCKDB_SIGNING_NAMES = ['glue', 's3tables'];

/** DuckDB's S3 ENDPOINT is host[:port], with USE_SSL for the scheme. */
const hostPort: Produce = (v) => {
  const raw = text(v, 's3Endpoint');
  return raw === undefined ? undefined : new URL(raw).host;
};
const scopes = (v: Values) =>
  (text(v, 'gcpAuthScopes') ?? DEFAULT_GCP_SCOPES)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export const KEY_FILE = '<path of the service-account key file>';

export const ROWS: readonly Row[] = [
  {
    what: 'catalog implementation',
    when: always,
    engines: {
      spark: { key: '', value: 'org.apache.iceberg.spark.SparkCatalog' },
      trino: { key: 'connector.name', value: 'iceberg' },
    },
  },
  {
    what: 'catalog type',
    when: always,
    engines: {
      pyiceberg: { key: 'type', value: 'rest' },
      spark: { key: 'type', value: 'rest' },
      trino: { key: 'iceberg.catalog.type', value: 'rest' },
    },
  },
  {
    what: 'catalog URL',
    when: always,
    value: field('catalogUrl'),
    engines: { pyiceberg: 'uri', spark: 'uri', trino: 'iceberg.rest-catalog.uri' },
  },
  {
    what: 'catalog URL (DuckDB, not an AWS endpoint type)',
    when: (v) => !awsEndpoint(v),
    value: field('catalogUrl'),
    engines: { duckdb: 'attach.ENDPOINT' },
  },
  {
    what: 'AWS endpoint type (DuckDB)',
    when: awsEndpoint,
    value: (v) => DUCKDB_ENDPOINT_TYPE[v.preset],
    engines: { duckdb: 'attach.ENDPOINT_TYPE' },
  },
  {
    what: 'warehouse',
    when: always,
    value: field('warehouse'),
    engines: {
      pyiceberg: 'warehouse',
      spark: 'warehouse',
      trino: 'iceberg.rest-catalog.warehouse',
      duckdb: 'attach',
    },
  },
  {
    what: 'no authentication',
    when: auth('none'),
    engines: {
      spark: { key: 'rest.auth.type', value: 'none' },
      trino: { key: 'iceberg.rest-catalog.security', value: 'NONE' },
      duckdb: { key: 'attach.AUTHORIZATION_TYPE', value: 'none' },
    },
  },
  {
    what: 'bearer-token or OAuth2 authentication',
    when: auth('token', 'oauth2'),
    engines: {
      spark: { key: 'rest.auth.type', value: 'oauth2' },
      trino: { key: 'iceberg.rest-catalog.security', value: 'OAUTH2' },
    },
  },
  {
    what: 'bearer token',
    when: auth('token'),
    value: field('token'),
    secret: { env: 'FLOE_TOKEN' },
    engines: {
      pyiceberg: 'token',
      spark: 'token',
      trino: 'iceberg.rest-catalog.oauth2.token',
      duckdb: 'iceberg.TOKEN',
    },
  },
  {
    // pyiceberg: the legacy `credential`, which sends the client in the form body as OLake and Iceberg Java
    // do; its newer `auth: {type: oauth2}` manager sends HTTP Basic, which not every token endpoint takes.
    what: 'OAuth2 client credential',
    when: auth('oauth2'),
    value: field('credential'),
    secret: { env: 'FLOE_CREDENTIAL' },
    engines: {
      pyiceberg: 'credential',
      spark: 'credential',
      trino: 'iceberg.rest-catalog.oauth2.credential',
    },
  },
  {
    what: 'OAuth2 client id',
    when: auth('oauth2'),
    value: (v) => splitCredential(text(v, 'credential') ?? '').clientId,
    secret: { env: 'FLOE_CREDENTIAL', part: 'client_id' },
    engines: { duckdb: 'iceberg.CLIENT_ID' },
  },
  {
    what: 'OAuth2 client secret',
    when: auth('oauth2'),
    value: (v) => splitCredential(text(v, 'credential') ?? '').clientSecret,
    secret: { env: 'FLOE_CREDENTIAL', part: 'client_secret' },
    engines: { duckdb: 'iceberg.CLIENT_SECRET' },
  },
  {
    what: 'OAuth2 token endpoint',
    when: auth('oauth2'),
    value: field('oauth2Uri'),
    engines: {
      pyiceberg: 'oauth2-server-uri',
      spark: 'oauth2-server-uri',
      trino: 'iceberg.rest-catalog.oauth2.server-uri',
      duckdb: 'iceberg.OAUTH2_SERVER_URI',
    },
  },
  {
    what: 'OAuth2 scope',
    when: auth('oauth2'),
    value: field('scope'),
    engines: {
      pyiceberg: 'scope',
      spark: 'scope',
      trino: 'iceberg.rest-catalog.oauth2.scope',
      duckdb: 'iceberg.OAUTH2_SCOPE',
    },
  },
  {
    what: 'SigV4 authentication',
    when: auth('sigv4'),
    engines: {
      pyiceberg: { key: 'rest.sigv4-enabled', value: 'true' },
      spark: { key: 'rest.auth.type', value: 'sigv4' },
      trino: { key: 'iceberg.rest-catalog.security', value: 'SIGV4' },
    },
  },
  {
    what: 'SigV4 on a catalog URL (DuckDB)',
    when: (v) => v.authType === 'sigv4' && !awsEndpoint(v),
    engines: { duckdb: { key: 'attach.AUTHORIZATION_TYPE', value: 'sigv4' } },
  },
  {
    what: 'SigV4 signing name',
    when: auth('sigv4'),
    value: field('signingName'),
    engines: {
      pyiceberg: 'rest.signing-name',
      spark: 'rest.signing-name',
      trino: 'iceberg.rest-catalog.signing-name',
    },
  },
  {
    what: 'a SigV4 signing name other than glue or s3tables',
    when: (v) => v.authType === 'sigv4' && !DUCKDB_SIGNING_NAMES.includes(text(v, 'signingName') ?? ''),
    engines: {
      duckdb: {
        unsupported:
          'DuckDB has no signing-name setting: it signs catalog requests for AWS Glue and S3 Tables only',
      },
    },
  },
  {
    what: 'SigV4 signing region',
    when: auth('sigv4'),
    value: field('signingRegion'),
    engines: { pyiceberg: 'rest.signing-region', spark: 'rest.signing-region' },
  },
  {
    what: 'a SigV4 signing region different from the storage Region',
    when: (v) => v.authType === 'sigv4' && text(v, 'signingRegion') !== text(v, 'region'),
    engines: {
      trino: {
        unsupported:
          'Trino signs catalog requests with the storage region (s3.region): set the Region and the REST Signing Region to the same value',
      },
      duckdb: {
        unsupported:
          'DuckDB signs catalog requests with the S3 secret’s REGION: set the Region and the REST Signing Region to the same value',
      },
    },
  },
  {
    what: 'SigV4 access key (the storage keys, as OLake signs)',
    when: (v) => v.authType === 'sigv4' && hasKeys(v),
    value: field('accessKey'),
    secret: { env: 'FLOE_ACCESS_KEY' },
    engines: { pyiceberg: 'client.access-key-id', spark: 'rest.access-key-id' },
  },
  {
    what: 'SigV4 secret key',
    when: (v) => v.authType === 'sigv4' && hasKeys(v),
    value: field('secretKey'),
    secret: { env: 'FLOE_SECRET_KEY' },
    engines: { pyiceberg: 'client.secret-access-key', spark: 'rest.secret-access-key' },
  },
  {
    what: 'Google authentication',
    when: auth('google'),
    engines: {
      pyiceberg: { key: 'auth/type', value: 'google' },
      spark: { key: 'rest.auth.type', value: 'google' },
      trino: { key: 'iceberg.rest-catalog.security', value: 'GOOGLE' },
      duckdb: {
        unsupported:
          'DuckDB cannot sign in with a Google service-account key (its Iceberg catalogs take OAuth2, a bearer token or SigV4)',
      },
    },
  },
  {
    what: 'Google service-account key file',
    when: auth('google'),
    value: () => KEY_FILE,
    file: 'FLOE_GCP_SERVICE_ACCOUNT_JSON',
    engines: {
      pyiceberg: 'auth/google/credentials_path',
      spark: 'gcp.auth.credentials-path',
      trino: 'iceberg.rest-catalog.google-json-key-file-path',
    },
  },
  {
    what: 'Google OAuth scopes',
    when: auth('google'),
    engines: {
      pyiceberg: { key: 'auth/google/scopes', value: scopes },
      spark: { key: 'gcp.auth.scopes', value: (v) => scopes(v).join(',') },
    },
  },
  {
    what: 'Google project billed',
    when: (v) => v.authType === 'google' && text(v, 'gcpProjectId') !== undefined,
    value: field('gcpProjectId'),
    engines: {
      pyiceberg: 'header.x-goog-user-project',
      spark: 'header.x-goog-user-project',
      trino: 'iceberg.rest-catalog.google-project-id',
    },
  },
  {
    what: 'S3 file IO',
    when: always,
    engines: {
      spark: { key: 'io-impl', value: 'org.apache.iceberg.aws.s3.S3FileIO' },
      trino: { key: 'fs.s3.enabled', value: 'true' },
    },
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
    when: always,
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
    when: (v) => !hasKeys(v),
    engines: { duckdb: { key: 's3.PROVIDER', value: 'credential_chain' } },
  },
];

/**
 * Every property name the table may write, per engine, with where each engine reads it (the sources
 * above). A test keeps the table inside these lists.
 */
export const KNOWN_PROPERTIES: Record<Engine, readonly string[]> = {
  // pyiceberg: configuration.md (REST Catalog, FileIO S3, Unified AWS Credentials); rest/__init__.py; auth.py
  pyiceberg: [
    'type',
    'uri',
    'warehouse',
    'token',
    'credential',
    'oauth2-server-uri',
    'scope',
    'rest.sigv4-enabled',
    'rest.signing-name',
    'rest.signing-region',
    'client.access-key-id',
    'client.secret-access-key',
    'auth/type',
    'auth/google/credentials_path',
    'auth/google/scopes',
    'header.x-goog-user-project',
    'header.X-Iceberg-Access-Delegation',
    's3.endpoint',
    's3.region',
    's3.access-key-id',
    's3.secret-access-key',
  ],
  // Spark catalog properties (after spark.sql.catalog.<name>): iceberg catalog-properties.md,
  // spark-configuration.md, S3FileIOProperties.java, AwsClientProperties.java, GCPAuthProperties
  spark: [
    '',
    'type',
    'uri',
    'warehouse',
    'io-impl',
    'rest.auth.type',
    'token',
    'credential',
    'oauth2-server-uri',
    'scope',
    'rest.signing-name',
    'rest.signing-region',
    'rest.access-key-id',
    'rest.secret-access-key',
    'gcp.auth.credentials-path',
    'gcp.auth.scopes',
    'header.x-goog-user-project',
    's3.endpoint',
    's3.path-style-access',
    's3.access-key-id',
    's3.secret-access-key',
    'client.region',
  ],
  // Trino 484: connector/iceberg.md, object-storage/metastores.md, object-storage/file-system-s3.md
  trino: [
    'connector.name',
    'iceberg.catalog.type',
    'iceberg.rest-catalog.uri',
    'iceberg.rest-catalog.warehouse',
    'iceberg.rest-catalog.security',
    'iceberg.rest-catalog.oauth2.token',
    'iceberg.rest-catalog.oauth2.credential',
    'iceberg.rest-catalog.oauth2.server-uri',
    'iceberg.rest-catalog.oauth2.scope',
    'iceberg.rest-catalog.signing-name',
    'iceberg.rest-catalog.google-project-id',
    'iceberg.rest-catalog.google-json-key-file-path',
    'fs.s3.enabled',
    's3.endpoint',
    's3.region',
    's3.path-style-access',
    's3.aws-access-key',
    's3.aws-secret-key',
  ],
  // DuckDB iceberg_options.md (ATTACH, CREATE SECRET TYPE iceberg) and httpfs s3 secrets
  duckdb: [
    'attach',
    'attach.ENDPOINT',
    'attach.ENDPOINT_TYPE',
    'attach.AUTHORIZATION_TYPE',
    'attach.ACCESS_DELEGATION_MODE',
    'iceberg.TOKEN',
    'iceberg.CLIENT_ID',
    'iceberg.CLIENT_SECRET',
    'iceberg.OAUTH2_SERVER_URI',
    'iceberg.OAUTH2_SCOPE',
    's3.ENDPOINT',
    's3.URL_STYLE',
    's3.USE_SSL',
    's3.REGION',
    's3.KEY_ID',
    's3.SECRET',
    's3.PROVIDER',
  ],
};
