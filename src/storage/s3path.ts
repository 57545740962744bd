// `s3://bucket[/prefix]` split into the bucket and a key prefix ending in `/` (or empty), and where the
// storage check's data location comes from.
import type { Values } from '../destination/fields.js';

export interface S3Location {
  bucket: string;
  /** `''` or a prefix ending in `/`, e.g. `olake/raw/`. */
  prefix: string;
}

/**
 * Lenient on purpose: any non-empty bucket is returned, so a name the store rejects
 * (too short, upper case) reaches it and comes back as its own `InvalidBucketName`.
 */
/** The profile's own data location: the Data Location field, else a Warehouse that is a location. */
export function profileDataLocation(values: Values): { url: string; from: string } | null {
  const text = (id: 'dataLocation' | 'warehouse') => {
    const value = values.fields[id];
    return typeof value === 'string' ? value.trim() : '';
  };
  if (text('dataLocation')) return { url: text('dataLocation'), from: 'Data Location' };
  if (/^(s3a?|gs):\/\//.test(text('warehouse'))) return { url: text('warehouse'), from: 'Warehouse' };
  return null;
}

export function parseS3Path(value: string): S3Location | null {
  const match = /^s3a?:\/\/([^/\s]+)(?:\/(\S*))?$/.exec(value.trim());
  if (!match?.[1]) return null;
  const rest = (match[2] ?? '').replace(/\/{2,}/g, '/').replace(/^\/+|\/+$/g, '');
  return { bucket: match[1], prefix: rest ? `${rest}/` : '' };
}
