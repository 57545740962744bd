// Object paths a catalog names, read strictly: the write check deletes a file the catalog wrote only
// when its normalized path lies under the metadata folder of the table this run created.

export interface ObjectPath {
  /** `s3`, `s3a` or `gs`. */
  scheme: string;
  bucket: string;
  /** The key, normalized: no `.` or `..` segments, no empty segments, percent-escapes resolved. */
  key: string;
}

/**
 * `s3://bucket/a//b/./c/../d%2Fe` → {scheme s3, bucket, key `a/b/d/e`}; null for anything that is not an
 * object path (another scheme, no bucket, a `..` above the bucket, a bad escape, a control character).
 */
export function objectPath(url: string): ObjectPath | null {
  const match = /^(s3a?|gs):\/\/([^/?#]+)\/(.*)$/.exec(url);
  if (!match) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(match[3]!);
  } catch {
    return null;
  }
  if (/[\u0000-\u001f\u007f]/.test(decoded) || match[2]!.includes('%')) return null;
  const segments: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.pop() === undefined) return null;
      continue;
    }
    segments.push(segment);
  }
  if (segments.length === 0) return null;
  return { scheme: match[1]!, bucket: match[2]!, key: segments.join('/') };
}

/** `s3` and `s3a` name the same store; `gs` another. */
const store = (scheme: string) => (scheme === 's3a' ? 's3' : scheme);

/**
 * Whether `url` is an object inside `folder` (a location such as `s3://b/ns/t/metadata`): same store,
 * same bucket, and its normalized key strictly under the folder's normalized key.
 */
export function isInside(url: string, folder: string): boolean {
  const path = objectPath(url);
  // The folder's own key, normalized as an object's would be: `<folder>/x` less the `x`.
  const base = objectPath(`${folder.replace(/\/+$/, '')}/x`);
  if (!path || !base) return false;
  const prefix = base.key.slice(0, -1);
  return (
    store(path.scheme) === store(base.scheme) && path.bucket === base.bucket && path.key.startsWith(prefix)
  );
}

/** The URL of an object path, in the scheme it was named with. */
export function objectUrl(path: ObjectPath): string {
  return `${path.scheme}://${path.bucket}/${path.key}`;
}
