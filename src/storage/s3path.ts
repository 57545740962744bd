// `s3://bucket[/prefix]` split into the bucket and a key prefix ending in `/` (or empty).

export interface S3Location {
  bucket: string;
  /** `''` or a prefix ending in `/`, e.g. `olake/raw/`. */
  prefix: string;
}

/**
 * Lenient on purpose: any non-empty bucket is returned, so a name the store rejects
 * (too short, upper case) reaches it and comes back as its own `InvalidBucketName`.
 */
export function parseS3Path(value: string): S3Location | null {
  const match = /^s3a?:\/\/([^/\s]+)(?:\/(\S*))?$/.exec(value.trim());
  if (!match?.[1]) return null;
  const rest = (match[2] ?? '').replace(/\/{2,}/g, '/').replace(/^\/+|\/+$/g, '');
  return { bucket: match[1], prefix: rest ? `${rest}/` : '' };
}
