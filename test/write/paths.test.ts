// Object paths a catalog names, normalized before floe decides whether one is its own to delete.
import { describe, expect, it } from 'vitest';
import { isInside, objectPath } from '../../src/write/paths.js';

describe('objectPath', () => {
  it.each([
    ['s3://b/a//b/./c/../d', { scheme: 's3', bucket: 'b', key: 'a/b/d' }],
    ['s3a://b/ns/t/metadata/%2E%2E/x', { scheme: 's3a', bucket: 'b', key: 'ns/t/x' }],
    ['gs://b/k%2Fl', { scheme: 'gs', bucket: 'b', key: 'k/l' }],
  ])('%s', (url, expected) => {
    expect(objectPath(url)).toEqual(expected);
  });

  it.each([
    ['s3://b/../x', 'climbs above the bucket'],
    ['s3://b/%zz', 'a bad escape'],
    ['s3://b/a%0Ab', 'a line break'],
    ['s3://b/', 'no key'],
    ['file:///etc/passwd', 'another scheme'],
    ['s3://b%2Fc/x', 'an escape in the bucket'],
  ])('refuses %s (%s)', (url) => {
    expect(objectPath(url)).toBeNull();
  });
});

describe('isInside', () => {
  const folder = 's3://warehouse/test_olake/t/metadata';
  it.each([
    ['s3://warehouse/test_olake/t/metadata/00001-x.metadata.json', true],
    ['s3a://warehouse/test_olake/t/metadata/00001-x.metadata.json', true],
    ['s3://warehouse/test_olake/t/metadata', false],
    ['s3://warehouse/test_olake/t/metadata-other/x', false],
    ['s3://warehouse/test_olake/t/metadata/../../../precious/orders.parquet', false],
    ['s3://warehouse/test_olake/t/metadata/%2e%2e/data/x.parquet', false],
    ['s3://other/test_olake/t/metadata/x.json', false],
    ['gs://warehouse/test_olake/t/metadata/x.json', false],
  ])('%s: %s', (url, inside) => {
    expect(isInside(url, folder)).toBe(inside);
  });
});
