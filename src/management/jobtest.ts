// The destination config the OLake UI holds for a job, made testable by floe's own connection test:
// parsed from the job detail's `destination.config` (OLake's destination.json, as a string), secrets
// that the server's copy lacks (empty or masked) taken from a local profile of the same catalog URL or
// asked for, and the differences from that profile named by key (never with secret values).
import type { Values } from '../destination/fields.js';
import { FIELDS } from '../destination/fields.js';
import { fromDestinationJson, ImportError, toDestinationJson } from '../destination/olake.js';
import { validate } from '../destination/schema.js';

/** Writer keys whose values are secrets (from the field registry). */
export const SECRET_WRITER_KEYS: ReadonlySet<string> = new Set(
  FIELDS.flatMap((f) => (f.secret && f.writerKey ? [f.writerKey] : [])),
);

/** A value the OLake UI shows in place of a secret, or none at all. */
export function isMasked(value: unknown): boolean {
  return (
    value === undefined ||
    value === '' ||
    (typeof value === 'string' && /^(?:\*+|•+|x{4,}|<?redacted>?|\(hidden\)|\*{3}.*)$/i.test(value.trim()))
  );
}

export type Writer = Record<string, unknown>;

export class JobConfigError extends Error {}

/** The writer object of a destination.json string. */
export function parseWriter(config: string | undefined): Writer {
  if (!config) throw new JobConfigError('the OLake UI sent no destination config for this job');
  let parsed: unknown;
  try {
    parsed = JSON.parse(config);
  } catch {
    throw new JobConfigError('the job’s destination config is not JSON');
  }
  const writer = (parsed as { writer?: unknown } | null)?.writer;
  if (typeof writer !== 'object' || writer === null || Array.isArray(writer))
    throw new JobConfigError('the job’s destination config has no "writer" object');
  return writer as Writer;
}

/** A profile's writer keys, as OLake would receive them. */
export function profileWriter(values: Values): Writer {
  return toDestinationJson(values).writer as Writer;
}

const sameUrl = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

const present = (value: unknown) => value !== undefined && value !== null && value !== '' && value !== false;

/** How a writer signs in to its catalog, read from OLake's keys (masked secrets count as present). */
export function writerAuth(w: Writer): 'sigv4' | 'google' | 'oauth2' | 'token' | 'none' {
  if (w.rest_signing_v_4 === true || w.rest_signing_v_4 === 'true') return 'sigv4';
  if (present(w.gcp_service_account_json)) return 'google';
  if (present(w.credential) || present(w.oauth2_uri)) return 'oauth2';
  if (present(w.token)) return 'token';
  return 'none';
}

/** The same catalog: the same URL and the same way of signing in (a bearer-token profile is not an OAuth2 job's). */
export function sameCatalog(server: Writer, local: Writer): boolean {
  return sameUrl(server.rest_catalog_url, local.rest_catalog_url) && writerAuth(server) === writerAuth(local);
}

/**
 * Where each secret travels, as writer keys holding a URL: the OAuth2 client secret to the token URL
 * (or, without one, the catalog's /v1/oauth/tokens), a bearer token and a service account's token to
 * the catalog, the S3 keys to the S3 endpoint (and, signing with SigV4, to the catalog).
 */
const SECRET_DESTINATIONS: Record<string, string[]> = {
  credential: ['oauth2_uri', 'rest_catalog_url'],
  token: ['rest_catalog_url'],
  gcp_service_account_json: ['rest_catalog_url'],
  aws_access_key: ['s3_endpoint', 'rest_catalog_url'],
  aws_secret_key: ['s3_endpoint', 'rest_catalog_url'],
};

const normalUrl = (value: unknown) => (typeof value === 'string' ? value.trim().replace(/\/+$/, '') : '');

/**
 * The places the server's copy would send a local profile's secret `key` to that the profile itself
 * does not: each as the URL key with both values. A local secret goes only where its own profile
 * sends it, so a non-empty answer means "do not fill it from the profile".
 */
export function movedDestinations(
  server: Writer,
  local: Writer,
  key: string,
): { key: string; server: string; local: string }[] {
  return (SECRET_DESTINATIONS[key] ?? []).flatMap((url) => {
    const a = normalUrl(server[url]);
    const b = normalUrl(local[url]);
    return a === b ? [] : [{ key: url, server: a || '(none)', local: b || '(none)' }];
  });
}

/** Secret keys the server's copy has masked or empty while the configuration uses them. */
export function missingSecrets(server: Writer): string[] {
  return Object.keys(server).filter((key) => SECRET_WRITER_KEYS.has(key) && isMasked(server[key]));
}

/** Keys whose values differ between the server's copy and the local profile (secrets by name only). */
export function differingKeys(server: Writer, local: Writer): string[] {
  const keys = new Set([...Object.keys(server), ...Object.keys(local)]);
  return [...keys]
    .filter((key) => {
      const a = server[key];
      const b = local[key];
      if (SECRET_WRITER_KEYS.has(key) && isMasked(a)) return false;
      if (key === 'rest_catalog_url') return !sameUrl(a, b);
      return JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);
    })
    .sort();
}

/** floe values for the server's writer with `filled` secrets; throws JobConfigError when unusable. */
export function valuesFor(server: Writer, filled: Writer): Values {
  let imported: ReturnType<typeof fromDestinationJson>;
  try {
    imported = fromDestinationJson({ type: 'ICEBERG', writer: { ...server, ...filled } });
  } catch (error) {
    if (error instanceof ImportError) throw new JobConfigError(`floe cannot test it: ${error.message}`);
    throw error;
  }
  const checked = validate(imported.values);
  if (!checked.ok)
    throw new JobConfigError(
      `floe cannot test it as it is: ${checked.issues.map((i) => i.message).join('; ')}`,
    );
  return checked.values;
}
