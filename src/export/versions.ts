// The engine releases each export targets, and how release numbers compare: the `since` / `before`
// bounds of the table's targets (table.ts) are read against them.
export const ENGINES = ['pyiceberg', 'spark', 'trino', 'duckdb'] as const;
export type Engine = (typeof ENGINES)[number];

export interface EngineVersions {
  /** What the version numbers count: a release of the engine, or of the library it loads. */
  product: string;
  /** The release written when no --engine-version is given (the newest floe was checked against). */
  latest: string;
  /** The oldest release floe writes for; older ones are refused. */
  oldest: string;
  /** The releases at which a property name changes, each with what changes, oldest first. */
  changes: readonly { at: string; what: string }[];
}

/**
 * The releases each export targets. `--engine-version` picks the property names for an older one; the
 * changes below are what the table's `since` / `before` bounds encode.
 */
export const ENGINE_VERSIONS: Record<Engine, EngineVersions> = {
  pyiceberg: {
    product: 'pyiceberg',
    latest: '0.11.1',
    oldest: '0.8.0',
    changes: [
      {
        at: '0.10.0',
        what: 'auth: {type: google} (GoogleAuthManager), SigV4 keys as client.*; older: no Google sign-in, SigV4 keys from AWS_* variables',
      },
    ],
  },
  spark: {
    product: 'Iceberg',
    latest: '1.10.1',
    oldest: '1.5.0',
    changes: [
      {
        at: '1.8.0',
        what: 'rest.auth.type; older: rest.sigv4-enabled, OAuth2 from token/credential',
      },
      { at: '1.10.0', what: 'rest.auth.type=google (GoogleAuthManager); older: no Google sign-in' },
    ],
  },
  trino: {
    product: 'Trino',
    // 483 (17 Jul 2026) is the newest release; 484's release notes are still undated (docs/…/release-484.md).
    latest: '483',
    oldest: '471',
    changes: [
      {
        at: '481',
        what: 'fs.s3.enabled, fs.gcs.enabled; older: fs.native-s3.enabled, fs.native-gcs.enabled',
      },
      {
        at: '484',
        what: 'iceberg.rest-catalog.google-json-key-file-path; older: gcs.json-key-file-path',
      },
    ],
  },
  duckdb: {
    product: 'DuckDB',
    latest: '1.5.0',
    oldest: '1.4.0',
    changes: [
      {
        at: '1.5.0',
        what: 'SIGV4_SERVICE, SIGV4_REGION; older: both read from the host <service>.<region>.…',
      },
    ],
  },
};

/** Compares dotted release numbers (`1.8`, `1.8.0`, `481`): negative, zero or positive. */
export function compareReleases(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export const RELEASE_PATTERN = /^\d+(\.\d+){0,2}$/;
