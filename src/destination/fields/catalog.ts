// The catalog fields: its URL, warehouse and region (asked first in the wizard).
import { always, type FieldDef, httpUrl, s3Storage } from '../field-def.js';
import { PRESETS } from '../presets.js';

export const CATALOG_FIELDS: readonly FieldDef[] = [
  {
    id: 'catalogUrl',
    label: 'REST Catalog URL',
    help: 'Base URL of the Iceberg REST catalog, with its base path, e.g. http://localhost:8181/api/catalog',
    example: 'http://localhost:8181',
    text: (v) => ({
      label: 'REST Catalog URL',
      help: `Base URL of the Iceberg REST catalog, with its base path, e.g. ${PRESETS[v.preset].urlExample}`,
      example: PRESETS[v.preset].urlExample,
    }),
    type: 'text',
    secret: false,
    writerKey: 'rest_catalog_url',
    section: 'catalog',
    flag: 'catalog-url',
    applies: always,
    required: always,
    rule: httpUrl('http(s)'),
  },
  {
    id: 'warehouse',
    label: 'Warehouse',
    help: PRESETS.rest.warehouse.help,
    example: PRESETS.rest.warehouse.example,
    text: (v) => PRESETS[v.preset].warehouse,
    type: 'text',
    secret: false,
    writerKey: 'iceberg_s3_path',
    section: 'catalog',
    flag: 'warehouse',
    flagAliases: ['s3-path'],
    applies: always,
    required: always,
    rule: (value, v) => PRESETS[v.preset].warehouse.rule(value),
  },
  {
    id: 'region',
    label: 'Region',
    help: 'AWS region of the bucket (any value for most S3-compatible stores), e.g. us-east-1',
    example: 'us-east-1',
    type: 'text',
    secret: false,
    writerKey: 'aws_region',
    section: 'catalog',
    flag: 'region',
    applies: s3Storage,
    required: (v) => PRESETS[v.preset].regionRequired,
    rule: (value) =>
      /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value)
        ? null
        : 'must be a region name: lowercase letters, digits and hyphens',
  },
];
