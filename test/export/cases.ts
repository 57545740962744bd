import { AUTH_TYPES, type Values } from '../../src/destination/fields.js';
import { fillFromPreset } from '../../src/destination/presets.js';
import type { EngineFormat } from '../../src/export/engines.js';
import { sample } from '../fixtures/samples.js';

export const EXT: Record<EngineFormat, string> = {
  pyiceberg: 'yaml',
  'pyiceberg-env': 'sh',
  spark: 'conf',
  trino: 'properties',
  duckdb: 'sql',
};

/**
 * The engine releases each format has golden files for: the default (newest) first, whose files are
 * `<case>.<ext>`, then one release on the older side of each property-name change (`<case>@<release>.<ext>`).
 */
export const RELEASES: Record<EngineFormat, readonly string[]> = {
  pyiceberg: ['0.11.1', '0.9.1'],
  'pyiceberg-env': ['0.11.1', '0.9.1'],
  spark: ['1.10.1', '1.9.2', '1.7.2'],
  trino: ['483', '484', '480'],
  duckdb: ['1.5.0', '1.4.0'],
};

/** A golden file's name: the case, and the release unless it is the default. */
export function goldenName(format: EngineFormat, id: string, release: string): string {
  return release === RELEASES[format][0] ? id : `${id}@${release}`;
}

/** The golden cases: one per auth type, plus the presets that change an engine's output. */
export function cases(): [string, Values][] {
  const glue = sample('sigv4');
  glue.preset = 'glue';
  glue.fields.warehouse = '123456789012';
  const s3tables = fillFromPreset({
    ...sample('sigv4'),
    preset: 's3tables',
    fields: {
      ...sample('sigv4').fields,
      catalogUrl: 'https://s3tables.us-east-1.amazonaws.com/iceberg',
      warehouse: 'arn:aws:s3tables:us-east-1:123456789012:bucket/olake',
      signingName: 's3tables',
      accessKey: 'AKIAIOSFODNN7EXAMPLE',
      secretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    },
  });
  // SigV4 on a catalog that is not an AWS host: DuckDB 1.4 cannot say whom to sign for, 1.5 can.
  const sigv4Host = sample('sigv4');
  sigv4Host.fields.catalogUrl = 'https://iceberg.example.com/catalog';
  sigv4Host.fields.signingName = 'execute-api';
  // BigLake over Google Cloud Storage, and another catalog whose tables live in GCS.
  const biglake = sample('google');
  biglake.preset = 'biglake';
  biglake.storage = 'gcs';
  biglake.fields.warehouse = 'gs://my-lake';
  delete biglake.fields.region;
  const gcsOauth2 = sample('oauth2');
  gcsOauth2.storage = 'gcs';
  gcsOauth2.fields.warehouse = 'gs://my-lake/olake';
  gcsOauth2.fields.gcpServiceAccountJson = sample('google').fields.gcpServiceAccountJson;
  for (const id of ['region', 'accessKey', 'secretKey'] as const) delete gcsOauth2.fields[id];
  return [
    ...AUTH_TYPES.map((a) => [a, sample(a)] as [string, Values]),
    ['biglake-gcs', biglake],
    ['gcs-oauth2', gcsOauth2],
    ['glue', glue],
    ['s3tables', s3tables],
    ['sigv4-host', sigv4Host],
  ];
}
