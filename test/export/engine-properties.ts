// Every property name the engine exports may write, per engine, as each engine's own source declares it:
// the file, the release it was read at, and the releases the name is valid for (`since` inclusive,
// `before` exclusive, in the engine's release numbers). engines.test.ts checks every rendered key of
// every golden case against the list for the release the case targets, so a misspelt, removed or
// not-yet-existing property fails the build.
import type { Engine } from '../../src/export/table.js';

export interface PropertySource {
  /** Repository and path of the file that declares the names. */
  file: string;
  /** The release (tag or branch) the file was read at. */
  read: string;
  since?: string;
  before?: string;
  names: readonly string[];
}

export const ENGINE_PROPERTIES: Record<Engine, readonly PropertySource[]> = {
  pyiceberg: [
    {
      file: 'apache/iceberg-python pyiceberg/catalog/__init__.py (TYPE, URI, WAREHOUSE_LOCATION, TOKEN)',
      read: 'pyiceberg-0.11.1',
      names: ['type', 'uri', 'warehouse', 'token'],
    },
    {
      file: 'apache/iceberg-python pyiceberg/catalog/rest/__init__.py (CREDENTIAL, OAUTH2_SERVER_URI, SCOPE, SIGV4, SIGV4_SERVICE, SIGV4_REGION; header. prefix)',
      read: 'pyiceberg-0.11.1',
      names: [
        'credential',
        'oauth2-server-uri',
        'scope',
        'rest.sigv4-enabled',
        'rest.signing-name',
        'rest.signing-region',
        'header.x-goog-user-project',
        'header.X-Iceberg-Access-Delegation',
      ],
    },
    {
      file: 'apache/iceberg-python pyiceberg/catalog/rest/__init__.py (AUTH = "auth") and auth.py GoogleAuthManager(credentials_path, scopes)',
      read: 'pyiceberg-0.10.0',
      since: '0.10.0',
      names: ['auth/type', 'auth/google/credentials_path', 'auth/google/scopes'],
    },
    {
      file: 'apache/iceberg-python pyiceberg/catalog/rest/__init__.py SigV4Adapter: boto3.Session(aws_access_key_id=client.access-key-id, aws_secret_access_key=client.secret-access-key, …)',
      read: 'pyiceberg-0.10.0',
      since: '0.10.0',
      names: ['client.access-key-id', 'client.secret-access-key'],
    },
    {
      // Process environment variables ($NAME), not catalog properties.
      file: 'apache/iceberg-python pyiceberg/catalog/rest.py SigV4Adapter.add_headers: boto3.Session() without arguments, the default AWS credential chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)',
      read: 'pyiceberg-0.8.0 and pyiceberg-0.9.1',
      before: '0.10.0',
      names: ['$AWS_ACCESS_KEY_ID', '$AWS_SECRET_ACCESS_KEY'],
    },
    {
      file: 'apache/iceberg-python pyiceberg/io/__init__.py (S3_*, GCS_PROJECT_ID)',
      read: 'pyiceberg-0.9.1 and pyiceberg-0.11.1',
      names: ['s3.endpoint', 's3.region', 's3.access-key-id', 's3.secret-access-key', 'gcs.project-id'],
    },
  ],
  // Spark catalog properties, after spark.sql.catalog.<name>; '' is the catalog class itself.
  spark: [
    {
      file: 'apache/iceberg spark/…/SparkCatalog (spark.sql.catalog.<name>), CatalogProperties.java (type via CatalogUtil.ICEBERG_CATALOG_TYPE, URI, WAREHOUSE_LOCATION, FILE_IO_IMPL)',
      read: 'apache-iceberg-1.10.1',
      names: ['', 'type', 'uri', 'warehouse', 'io-impl'],
    },
    {
      file: 'apache/iceberg core/src/main/java/org/apache/iceberg/rest/auth/OAuth2Properties.java (TOKEN, CREDENTIAL, OAUTH2_SERVER_URI, SCOPE); RESTUtil header. prefix',
      read: 'apache-iceberg-1.7.2 and apache-iceberg-1.10.1',
      names: ['token', 'credential', 'oauth2-server-uri', 'scope', 'header.x-goog-user-project'],
    },
    {
      file: 'apache/iceberg core/src/main/java/org/apache/iceberg/rest/auth/AuthProperties.java (AUTH_TYPE)',
      read: 'apache-iceberg-1.8.0',
      since: '1.8.0',
      names: ['rest.auth.type'],
    },
    {
      file: 'apache/iceberg core/src/main/java/org/apache/iceberg/rest/RESTSessionCatalog.java ("rest.sigv4-enabled"); 1.8.0+: AuthManagers.java SIGV4_ENABLED_LEGACY',
      read: 'apache-iceberg-1.7.2',
      names: ['rest.sigv4-enabled'],
    },
    {
      file: 'apache/iceberg aws/src/main/java/org/apache/iceberg/aws/AwsProperties.java (REST_SIGNING_NAME, REST_SIGNER_REGION, REST_ACCESS_KEY_ID, REST_SECRET_ACCESS_KEY)',
      read: 'apache-iceberg-1.7.0 and apache-iceberg-1.10.1',
      names: ['rest.signing-name', 'rest.signing-region', 'rest.access-key-id', 'rest.secret-access-key'],
    },
    {
      file: 'apache/iceberg gcp/src/main/java/org/apache/iceberg/gcp/auth/GoogleAuthManager.java (GCP_CREDENTIALS_PATH_PROPERTY, GCP_SCOPES_PROPERTY)',
      read: 'apache-iceberg-1.10.0',
      since: '1.10.0',
      names: ['gcp.auth.credentials-path', 'gcp.auth.scopes'],
    },
    {
      file: 'apache/iceberg aws/src/main/java/org/apache/iceberg/aws/s3/S3FileIOProperties.java (ENDPOINT, PATH_STYLE_ACCESS, ACCESS_KEY_ID, SECRET_ACCESS_KEY); AwsClientProperties.java (CLIENT_REGION)',
      read: 'apache-iceberg-1.7.0 and apache-iceberg-1.10.1',
      names: [
        's3.endpoint',
        's3.path-style-access',
        's3.access-key-id',
        's3.secret-access-key',
        'client.region',
      ],
    },
    {
      file: 'apache/iceberg gcp/src/main/java/org/apache/iceberg/gcp/GCPProperties.java (GCS_PROJECT_ID)',
      read: 'apache-iceberg-1.7.0 and apache-iceberg-1.10.1',
      names: ['gcs.project-id'],
    },
  ],
  trino: [
    {
      file: 'trinodb/trino plugin/trino-iceberg …/IcebergConfig (connector.name=iceberg, iceberg.catalog.type) and rest/IcebergRestCatalogConfig.java (uri, warehouse, security)',
      read: '484',
      names: [
        'connector.name',
        'iceberg.catalog.type',
        'iceberg.rest-catalog.uri',
        'iceberg.rest-catalog.warehouse',
        'iceberg.rest-catalog.security',
      ],
    },
    {
      file: 'trinodb/trino plugin/trino-iceberg …/rest/OAuth2SecurityConfig.java (token, credential, scope, server-uri)',
      read: '484',
      names: [
        'iceberg.rest-catalog.oauth2.token',
        'iceberg.rest-catalog.oauth2.credential',
        'iceberg.rest-catalog.oauth2.server-uri',
        'iceberg.rest-catalog.oauth2.scope',
      ],
    },
    {
      file: 'trinodb/trino plugin/trino-iceberg …/rest/IcebergRestCatalogSigV4Config.java (signing-name)',
      read: '484',
      names: ['iceberg.rest-catalog.signing-name'],
    },
    {
      file: 'trinodb/trino plugin/trino-iceberg …/rest/GoogleSecurityConfig (google-project-id)',
      read: '484',
      names: ['iceberg.rest-catalog.google-project-id'],
    },
    {
      file: 'trinodb/trino plugin/trino-iceberg …/rest/GoogleSecurityConfig (google-json-key-file-path; release notes 484)',
      read: '484',
      since: '484',
      names: ['iceberg.rest-catalog.google-json-key-file-path'],
    },
    {
      file: 'trinodb/trino lib/trino-filesystem-gcs/…/GcsFileSystemConfig.java, GcsServiceAccountAuthConfig.java (gcs.json-key-file-path, gcs.project-id)',
      read: '480 and 484',
      names: ['gcs.json-key-file-path', 'gcs.project-id'],
    },
    {
      file: 'trinodb/trino lib/trino-filesystem-manager/…/FileSystemConfig.java (fs.native-s3.enabled, fs.native-gcs.enabled)',
      read: '480',
      before: '481',
      names: ['fs.native-s3.enabled', 'fs.native-gcs.enabled'],
    },
    {
      file: 'trinodb/trino lib/trino-filesystem-manager/…/FileSystemConfig.java (fs.s3.enabled, fs.gcs.enabled; the fs.native-* names kept as legacy; release notes 481)',
      read: '481',
      since: '481',
      names: ['fs.s3.enabled', 'fs.gcs.enabled'],
    },
    {
      file: 'trinodb/trino lib/trino-filesystem-s3/…/S3FileSystemConfig.java (s3.endpoint, s3.region, s3.path-style-access, s3.aws-access-key, s3.aws-secret-key)',
      read: '480 and 484',
      names: ['s3.endpoint', 's3.region', 's3.path-style-access', 's3.aws-access-key', 's3.aws-secret-key'],
    },
  ],
  // DuckDB: ATTACH options (attach.*), CREATE SECRET TYPE iceberg (iceberg.*), TYPE s3 / gcs (s3.*, gcs.*)
  duckdb: [
    {
      file: 'duckdb/duckdb-iceberg src/iceberg_attach.cpp / src/storage/iceberg_catalog.cpp (ENDPOINT, ENDPOINT_TYPE, AUTHORIZATION_TYPE, ACCESS_DELEGATION_MODE, SECRET)',
      read: 'v1.4-andium and v1.5-variegata',
      names: [
        'attach',
        'attach.ENDPOINT',
        'attach.ENDPOINT_TYPE',
        'attach.AUTHORIZATION_TYPE',
        'attach.ACCESS_DELEGATION_MODE',
      ],
    },
    {
      file: 'duckdb/duckdb-iceberg src/catalog/rest/storage/authorization/sigv4.cpp (sigv4_service, sigv4_region)',
      read: 'v1.5-variegata',
      since: '1.5.0',
      names: ['attach.SIGV4_SERVICE', 'attach.SIGV4_REGION'],
    },
    {
      file: 'duckdb/duckdb-iceberg src/storage/authorization/oauth2.cpp (token, client_id, client_secret, oauth2_server_uri, oauth2_scope)',
      read: 'v1.4-andium and v1.5-variegata',
      names: [
        'iceberg.TOKEN',
        'iceberg.CLIENT_ID',
        'iceberg.CLIENT_SECRET',
        'iceberg.OAUTH2_SERVER_URI',
        'iceberg.OAUTH2_SCOPE',
      ],
    },
    {
      file: 'duckdb/duckdb-httpfs src/s3fs.cpp / create_secret_functions.cpp (TYPE s3: KEY_ID, SECRET, REGION, ENDPOINT, URL_STYLE, USE_SSL, PROVIDER)',
      read: 'v1.4 and v1.5',
      names: [
        's3.ENDPOINT',
        's3.URL_STYLE',
        's3.USE_SSL',
        's3.REGION',
        's3.KEY_ID',
        's3.SECRET',
        's3.PROVIDER',
      ],
    },
  ],
};

/** The names valid for one release of the engine. */
export function knownProperties(
  engine: Engine,
  release: string,
  compare: (a: string, b: string) => number,
): Set<string> {
  const out = new Set<string>();
  for (const source of ENGINE_PROPERTIES[engine]) {
    if (source.since !== undefined && compare(release, source.since) < 0) continue;
    if (source.before !== undefined && compare(release, source.before) >= 0) continue;
    for (const name of source.names) out.add(name);
  }
  return out;
}
