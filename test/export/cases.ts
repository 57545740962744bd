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
  return [
    ...AUTH_TYPES.map((a) => [a, sample(a)] as [string, Values]),
    ['glue', glue],
    ['s3tables', s3tables],
  ];
}
