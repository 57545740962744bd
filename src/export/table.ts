// One profile, every engine: the property each engine reads for each thing floe knows about a catalog
// and its storage, as one table of data. The renderers (engines.ts) only serialise what this table
// selects; nothing else knows an engine's property names.
// The rows are in rows/ (catalog.ts, signing.ts, storage.ts), their shape in row.ts, the releases in
// versions.ts; the sources below are theirs.
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

import type { Row } from './row.js';
import { CATALOG_ROWS } from './rows/catalog.js';
import { SIGNING_ROWS } from './rows/signing.js';
import { STORAGE_ROWS } from './rows/storage.js';

export { inRelease, KEY_FILE, type Row, type Target } from './row.js';
export { compareReleases, ENGINE_VERSIONS, ENGINES, type Engine, RELEASE_PATTERN } from './versions.js';

/** The rows in the order engines.ts writes them: the catalog, its authentication, then the storage. */
export const ROWS: readonly Row[] = [...CATALOG_ROWS, ...SIGNING_ROWS, ...STORAGE_ROWS];
