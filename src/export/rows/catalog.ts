// The catalog itself (implementation, type, URL, warehouse) and its token or OAuth2 authentication, for
// each engine. Sources: ../table.ts.
import { DEFAULT_OAUTH2_SCOPE, splitCredential } from '../../destination/fields.js';
import { always, auth, awsEndpoint, DUCKDB_ENDPOINT_TYPE, field, type Row, text } from '../row.js';

export const CATALOG_ROWS: readonly Row[] = [
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
];
