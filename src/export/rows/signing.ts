// Authentication signed with a cloud's own keys: AWS SigV4 and Google service accounts, for each
// engine. Sources: ../table.ts.
import { auth, awsEndpoint, field, hasKeys, hostSigns, KEY_FILE, type Row, scopes, text } from '../row.js';

export const SIGNING_ROWS: readonly Row[] = [
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
];
