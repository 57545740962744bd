// The sandbox catalog's flavours as a client sees them: each one's base path, warehouse, auth and
// prefix, as the real server answers (shared/reference/catalogs.md §1.1).
import { type CatalogFlavour, lakekeeperWarehouseId } from './catalog/index.js';
import { SANDBOX } from './credentials.js';
import type { SandboxCatalogFacts } from './profile.js';

const S3TABLES_ARN = 'arn:aws:s3tables:us-east-1:123456789012:bucket/warehouse';

/**
 * Each flavour's connection facts, keyed by flavour. OAuth2 flavours take the client
 * SANDBOX.oauth.clientId / clientSecret; `unity` takes the bearer token SANDBOX.token; SigV4 flavours
 * take s3rver's keys. Catalog references: shared/reference/catalogs.md §1.1.
 */
export const SANDBOX_CATALOGS: Record<CatalogFlavour, SandboxCatalogFacts> = {
  rest: {
    title: 'generic REST catalog (every auth type)',
    basePath: '/api/catalog',
    warehouse: SANDBOX.dataLocation,
    dataLocation: SANDBOX.dataLocation,
    auth: 'oauth2',
    tokenPath: '/token',
    scope: 'catalog',
    prefix: 'overrides.prefix "warehouse"',
  },
  polaris: {
    title: 'Apache Polaris',
    basePath: '/api/catalog',
    warehouse: 'olake_catalog',
    dataLocation: SANDBOX.dataLocation,
    auth: 'oauth2',
    tokenPath: '/api/catalog/v1/oauth/tokens',
    scope: 'PRINCIPAL_ROLE:ALL',
    prefix: 'overrides.prefix "olake_catalog"',
  },
  lakekeeper: {
    title: 'Lakekeeper (tokens from a Keycloak-style identity provider)',
    basePath: '/catalog',
    warehouse: 'demo',
    dataLocation: SANDBOX.dataLocation,
    auth: 'oauth2',
    tokenPath: '/realms/iceberg/protocol/openid-connect/token',
    scope: 'lakekeeper',
    prefix: `defaults.prefix "${lakekeeperWarehouseId('demo')}", overrides.uri`,
  },
  nessie: {
    title: 'Project Nessie (tokens from a Keycloak-style identity provider)',
    basePath: '/iceberg',
    warehouse: SANDBOX.dataLocation,
    dataLocation: SANDBOX.dataLocation,
    auth: 'oauth2',
    tokenPath: '/realms/nessie/protocol/openid-connect/token',
    scope: 'catalog',
    prefix: `defaults.prefix "${encodeURIComponent(`main|${SANDBOX.dataLocation}`)}", overrides.uri`,
  },
  unity: {
    title: 'Unity Catalog',
    basePath: '/api/2.1/unity-catalog/iceberg',
    warehouse: 'unity',
    dataLocation: SANDBOX.dataLocation,
    auth: 'token',
    prefix: 'overrides.prefix "catalogs/unity"',
  },
  glue: {
    title: 'AWS Glue Iceberg REST',
    basePath: '/iceberg',
    warehouse: '123456789012',
    dataLocation: SANDBOX.dataLocation,
    auth: 'sigv4',
    signingName: 'glue',
    prefix: 'overrides.prefix "catalogs/123456789012"',
  },
  s3tables: {
    title: 'Amazon S3 Tables',
    basePath: '/iceberg',
    warehouse: S3TABLES_ARN,
    dataLocation: SANDBOX.dataLocation,
    auth: 'sigv4',
    signingName: 's3tables',
    prefix: `defaults.prefix "${encodeURIComponent(S3TABLES_ARN)}"`,
  },
  biglake: {
    title: 'Google BigLake metastore (a Cloud Storage bucket catalog)',
    basePath: '/iceberg/v1/restcatalog',
    warehouse: SANDBOX.gcsLocation,
    dataLocation: SANDBOX.gcsLocation,
    auth: 'google',
    prefix: `overrides.prefix "projects/${SANDBOX.google.projectId}/catalogs/${SANDBOX.bucket}"`,
  },
};
