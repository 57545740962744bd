// The shape of the export table (table.ts): a row per thing floe knows about a catalog and its storage,
// a target per engine (a property, with the releases it applies to, or "cannot"), and the small value and
// condition helpers the rows are written with.
import { type AuthType, DEFAULT_GCP_SCOPES, type SecretEnv, type Values } from '../destination/fields.js';
import { compareReleases, type Engine } from './versions.js';

export type Produce = (v: Values) => string | string[] | undefined;

/** The engine releases a target applies to: from `since`, and before `before`. */
interface Bounds {
  since?: string;
  before?: string;
}

/** Where a row goes for one engine: a property (with an engine-specific value), or "cannot". */
export type Target =
  | string
  | ({ key: string; value?: string | Produce; when?: (v: Values) => boolean } & Bounds)
  | ({ unsupported: string; when?: (v: Values) => boolean } & Bounds);

/** Whether a target applies to this engine release. */
export function inRelease(target: Target, release: string): boolean {
  if (typeof target === 'string') return true;
  if (target.since !== undefined && compareReleases(release, target.since) < 0) return false;
  if (target.before !== undefined && compareReleases(release, target.before) >= 0) return false;
  return true;
}

export interface Row {
  /** What the row carries, in words. */
  what: string;
  when: (v: Values) => boolean;
  /** The value from the profile; an engine target may give its own. */
  value?: Produce;
  /** A secret: written only with --include-secrets, otherwise a placeholder or an env reference. */
  secret?: { env: SecretEnv; part?: 'client_id' | 'client_secret' };
  /** A local file the user must provide (the engine reads a path, floe holds the content). */
  file?: string;
  engines: Partial<Record<Engine, Target | Target[]>>;
}

export const text = (v: Values, id: keyof Values['fields']): string | undefined => {
  const value = v.fields[id];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};
export const field =
  (id: keyof Values['fields']): Produce =>
  (v) =>
    text(v, id);
export const auth =
  (...types: AuthType[]) =>
  (v: Values) =>
    types.includes(v.authType);
export const always = () => true;
export const hasKeys = (v: Values) => text(v, 'accessKey') !== undefined;
export const gcs = (v: Values) => v.storage === 'gcs';
export const awsEndpoint = (v: Values) => v.preset === 'glue' || v.preset === 's3tables';
export const DUCKDB_ENDPOINT_TYPE: Partial<Record<Values['preset'], string>> = {
  glue: 'glue',
  s3tables: 's3_tables',
};

/** DuckDB 1.4 signs with `<service>.<region>` read from the catalog host's first two labels. */
export const hostSigns = (v: Values): boolean => {
  const url = text(v, 'catalogUrl');
  if (url === undefined) return false;
  const [service, region] = new URL(url).hostname.split('.');
  return service === text(v, 'signingName') && region === text(v, 'signingRegion');
};

/** DuckDB's S3 ENDPOINT is host[:port], with USE_SSL for the scheme. */
export const hostPort: Produce = (v) => {
  const raw = text(v, 's3Endpoint');
  return raw === undefined ? undefined : new URL(raw).host;
};
export const scopes = (v: Values) =>
  (text(v, 'gcpAuthScopes') ?? DEFAULT_GCP_SCOPES)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export const KEY_FILE = '<path of the service-account key file>';
