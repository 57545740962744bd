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
  DEFAULT_OAUTH2_SCOPE,
  type SecretEnv,
  splitCredential,
  type Values,
} from '../destination/fields.js';

export const ENGINES = ['pyiceberg', 'spark', 'trino', 'duckdb'] as const;
export type Engine = (typeof ENGINES)[number];

export interface EngineVersions {
  /** What the version numbers count: a release of the engine, or of the library it loads. */
  product: string;
  /** The release written when no --engine-version is given (the newest floe was checked against). */
  latest: string;
  /** The oldest release floe writes for; older ones are refused. */
  oldest: string;
  /** The releases at which a property name changes, each with what changes, oldest first. */
  changes: readonly { at: string; what: string }[];
}

/**
 * The releases each export targets. `--engine-version` picks the property names for an older one; the
 * changes below are what the table's `since` / `before` bounds encode.
 */
export const ENGINE_VERSIONS: Record<Engine, EngineVersions> = {
  pyiceberg: {
    product: 'pyiceberg',
    latest: '0.11.1',
    oldest: '0.8.0',
    changes: [
      {
        at: '0.10.0',
        what: 'auth: {type: google} (GoogleAuthManager), SigV4 keys as client.*; older: no Google sign-in, SigV4 keys from AWS_* variables',
      },
    ],
  },
  spark: {
    product: 'Iceberg',
    latest: '1.10.1',
    oldest: '1.5.0',
    changes: [
      {
        at: '1.8.0',
        what: 'rest.auth.type; older: rest.sigv4-enabled, OAuth2 from token/credential',
      },
      { at: '1.10.0', what: 'rest.auth.type=google (GoogleAuthManager); older: no Google sign-in' },
    ],
  },
  trino: {
    product: 'Trino',
    // 483 (17 Jul 2026) is the newest release; 484's release notes are still undated (docs/…/release-484.md).
    latest: '483',
    oldest: '471',
    changes: [
      {
        at: '481',
        what: 'fs.s3.enabled, fs.gcs.enabled; older: fs.native-s3.enabled, fs.native-gcs.enabled',
      },
      {
        at: '484',
        what: 'iceberg.rest-catalog.google-json-key-file-path; older: gcs.json-key-file-path',
      },
    ],
  },
  duckdb: {
    product: 'DuckDB',
    latest: '1.5.0',
    oldest: '1.4.0',
    changes: [
      {
        at: '1.5.0',
        what: 'SIGV4_SERVICE, SIGV4_REGION; older: both read from the host <service>.<region>.…',
      },
    ],
  },
};

/** Compares dotted release numbers (`1.8`, `1.8.0`, `481`): negative, zero or positive. */
export function compareReleases(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export const RELEASE_PATTERN = /^\d+(\.\d+){0,2}$/;

export type Produce = (v: Values) => string | string[] | undefined;

/** The engine releases a target applies to: from `since`, and before `before`. */
interface Bounds {
  since?: string;
  before?: string;
}

/** Where a row goes for one engine: a property (with an engine-specific value), or "cannot". */
export type Target =
  | string
  | ({ key: string; value?: string | Produce; when?: (v: Values) => boolean } & Bounds)
  | ({ unsupported: string; when?: (v: Values) => boolean } & Bounds);

/** Whether a target applies to this engine release. */
export function inRelease(target: Target, release: string): boolean {
  if (typeof target === 'string') return true;
  if (target.since !== undefined && compareReleases(release, target.since) < 0) return false;
  if (target.before !== undefined && compareReleases(release, target.before) >= 0) return false;
  return true;
}

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
  engines: Partial<Record<Engine, Target | Target[]>>;
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
const gcs = (v: Values) => v.storage === 'gcs';
const awsEndpoint = (v: Values) => v.preset === 'glue' || v.preset === 's3tables';
const DUCKDB_ENDPOINT_TYPE: Partial<Record<Values['preset'], string>> = {
  glue: 'glue',
  s3tables: 's3_tables',
};

/** DuckDB 1.4 signs with `<service>.<region>` read from the catalog host's first two labels. */
const hostSigns = (v: Values): boolean => {
  const url = text(v, 'catalogUrl');
  if (url === undefined) return false;
  const [service, region] = new URL(url).hostname.split('.');
  return service === text(v, 'signingName') && region === text(v, 'signingRegion');
};

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
      spark: { key: 'rest.auth.type', value: 'none', since: '1.8.0' },
      trino: { key: 'iceberg.rest-catalog.security', value: 'NONE' },
      duckdb: { key: 'attach.AUTHORIZATION_TYPE', value: 'none' },
    },
  },
  {
    what: 'bearer-token or OAuth2 authentication',
    when: auth('token', 'oauth2'),
    engines: {
      // Before Iceberg 1.8.0 the REST client always ran OAuth2 (token or credential); 1.8.0+ infer it too.
      spark: { key: 'rest.auth.type', value: 'oauth2', since: '1.8.0' },
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
    },
  },
  {
    // DuckDB's default scope is PRINCIPAL_ROLE:ALL (duckdb-iceberg oauth2.cpp), not the `catalog` that
    // OLake, Iceberg Java, pyiceberg and floe test send: always write the one floe uses.
    what: 'OAuth2 scope (DuckDB: always written)',
    when: auth('oauth2'),
    value: (v) => text(v, 'scope') ?? DEFAULT_OAUTH2_SCOPE,
    engines: { duckdb: 'iceberg.OAUTH2_SCOPE' },
  },
  {
    what: 'SigV4 authentication',
    when: auth('sigv4'),
    engines: {
      pyiceberg: { key: 'rest.sigv4-enabled', value: 'true' },
      spark: [
        { key: 'rest.auth.type', value: 'sigv4', since: '1.8.0' },
        // Older runtimes ignore rest.auth.type (SigV4 would be silently off); 1.8.0+ still read this.
        { key: 'rest.sigv4-enabled', value: 'true', before: '1.8.0' },
      ],
      trino: { key: 'iceberg.rest-catalog.security', value: 'SIGV4' },
    },
  },
  {
    what: 'SigV4 on a catalog URL (DuckDB)',
    when: (v) => v.authType === 'sigv4' && !awsEndpoint(v),
    engines: {
      duckdb: [
        { key: 'attach.AUTHORIZATION_TYPE', value: 'sigv4' },
        { key: 'attach.SIGV4_SERVICE', value: field('signingName'), since: '1.5.0' },
        { key: 'attach.SIGV4_REGION', value: field('signingRegion'), since: '1.5.0' },
        {
          // duckdb-iceberg v1.4 sigv4.cpp: service = the host's first label, region = its second.
          unsupported:
            'DuckDB 1.4 signs catalog requests with the service and region it reads from the catalog host (<service>.<region>.…), which here differ from the REST Signing Name and Region; DuckDB 1.5 takes them as SIGV4_SERVICE and SIGV4_REGION (export with --engine-version 1.5)',
          before: '1.5.0',
          when: (v) => !hostSigns(v),
        },
      ],
    },
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
          'Trino signs catalog requests with the storage region (s3.region; IcebergRestCatalogSigV4Config has no region): set the Region and the REST Signing Region to the same value',
      },
      duckdb: {
        unsupported:
          'DuckDB signs AWS endpoint types (ENDPOINT_TYPE glue / s3_tables) with the S3 secret’s REGION: set the Region and the REST Signing Region to the same value',
        when: awsEndpoint,
      },
    },
  },
  {
    what: 'SigV4 access key (the storage keys, as OLake signs)',
    when: (v) => v.authType === 'sigv4' && hasKeys(v),
    value: field('accessKey'),
    secret: { env: 'FLOE_ACCESS_KEY' },
    engines: {
      pyiceberg: [
        { key: 'client.access-key-id', since: '0.10.0' },
        // pyiceberg/catalog/rest.py at pyiceberg-0.8.0 and pyiceberg-0.9.1: SigV4Adapter.add_headers signs
        // with boto3.Session() and no arguments, the default AWS credential chain; rest/__init__.py at
        // pyiceberg-0.10.0 passes client.access-key-id to boto3.Session.
        { key: '$AWS_ACCESS_KEY_ID', before: '0.10.0' },
      ],
      spark: 'rest.access-key-id',
    },
  },
  {
    what: 'SigV4 secret key',
    when: (v) => v.authType === 'sigv4' && hasKeys(v),
    value: field('secretKey'),
    secret: { env: 'FLOE_SECRET_KEY' },
    engines: {
      pyiceberg: [
        { key: 'client.secret-access-key', since: '0.10.0' },
        { key: '$AWS_SECRET_ACCESS_KEY', before: '0.10.0' },
      ],
      spark: 'rest.secret-access-key',
    },
  },
  {
    what: 'Google authentication',
    when: auth('google'),
    engines: {
      pyiceberg: [
        { key: 'auth/type', value: 'google', since: '0.10.0' },
        {
          unsupported:
            'pyiceberg signs in with a Google service-account key from 0.10.0 (GoogleAuthManager, the auth: block): upgrade pyiceberg',
          before: '0.10.0',
        },
      ],
      spark: [
        { key: 'rest.auth.type', value: 'google', since: '1.10.0' },
        {
          unsupported:
            'the Iceberg runtime signs in with a Google service-account key from 1.10.0 (GoogleAuthManager, rest.auth.type=google): use iceberg-spark-runtime 1.10.0 or later',
          before: '1.10.0',
        },
      ],
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
      trino: [
        { key: 'iceberg.rest-catalog.google-json-key-file-path', since: '484' },
        { key: 'gcs.json-key-file-path', before: '484' },
      ],
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
