// The storage fields: S3 endpoint, data location and S3 keys.
import { always, type FieldDef, filled, httpUrl, never, s3Storage } from '../field-def.js';
import { gsLocation, s3Location } from '../presets.js';

export const STORAGE_FIELDS: readonly FieldDef[] = [
  {
    id: 's3Endpoint',
    label: 'S3 Endpoint',
    help: 'Object-store URL; required for S3-compatible stores, e.g. http://minio:9000 (path style is then forced)',
    example: 'http://localhost:9000',
    type: 'text',
    secret: false,
    writerKey: 's3_endpoint',
    section: 'storage',
    flag: 's3-endpoint',
    applies: s3Storage,
    required: (v) => v.storage === 's3-compatible',
    rule: httpUrl('http(s)'),
  },
  {
    id: 'dataLocation',
    label: 'Data Location',
    help: 'Where floe’s storage check writes its probe, e.g. s3://bucket/prefix (gs://bucket/prefix for GCS); empty: the Warehouse if it is a location, else the catalog’s own default location. Never exported.',
    example: 's3://warehouse/olake',
    text: (v) =>
      v.storage === 'gcs'
        ? {
            label: 'Data Location',
            help: 'Where floe’s storage check writes its probe, e.g. gs://my-lake/olake; empty: the Warehouse if it is gs://, else the catalog’s own default location. Never exported.',
            example: 'gs://my-lake/olake',
          }
        : {
            label: 'Data Location',
            help: 'Where floe’s storage check writes its probe, e.g. s3://bucket/prefix; empty: the Warehouse if it is s3://, else the catalog’s own default location. Never exported.',
            example: 's3://warehouse/olake',
          },
    type: 'text',
    secret: false,
    section: 'storage',
    flag: 'data-location',
    applies: always,
    required: never,
    rule: (value, v) => (v.storage === 'gcs' ? gsLocation(value) : s3Location(value)),
  },
  {
    id: 'accessKey',
    label: 'Access Key',
    help: 'Access key id for the bucket; leave both keys empty to use the runtime environment’s credentials',
    example: 'AKIAIOSFODNN7EXAMPLE',
    type: 'text',
    secret: true,
    writerKey: 'aws_access_key',
    section: 'storage',
    flag: 'access-key',
    env: 'FLOE_ACCESS_KEY',
    applies: s3Storage,
    required: (v) => filled(v, 'secretKey'),
    rule: (value) => (/^\S+$/.test(value) ? null : 'must not contain spaces'),
  },
  {
    id: 'secretKey',
    label: 'Secret Key',
    help: 'Secret access key matching the Access Key, e.g. wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    example: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    type: 'text',
    secret: true,
    writerKey: 'aws_secret_key',
    section: 'storage',
    secretFlag: 'secret-key-stdin',
    env: 'FLOE_SECRET_KEY',
    applies: s3Storage,
    required: (v) => filled(v, 'accessKey'),
    rule: (value) => (/^\S+$/.test(value) ? null : 'must not contain spaces'),
  },
];
