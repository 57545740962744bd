// Where a profile's secrets travel: plain http:// to a token URL or a catalog that receives one is
// warned about (wizard review, `floe test`), and a catalog's `overrides.uri` that moves the bearer token
// from https to http is refused unless allowed. The usual loopback names (localhost, 127.0.0.1, [::1])
// are exempt: that traffic never leaves the machine.
import type { Values } from '../destination/fields.js';

const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])$/i;

export function isLoopback(url: URL): boolean {
  return LOOPBACK.test(url.hostname) || url.hostname.endsWith('.localhost');
}

function parse(raw: string): URL | undefined {
  try {
    return new URL(raw.trim());
  } catch {
    return undefined;
  }
}

function origin(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/** The warning when `what` (e.g. "the client secret") would go to `url` over plain http, else undefined. */
export function cleartextWarning(url: URL | string | undefined, what: string): string | undefined {
  const parsed = typeof url === 'string' ? parse(url) : url;
  if (parsed?.protocol !== 'http:' || isLoopback(parsed)) return undefined;
  return `${what} is sent to ${origin(parsed)} over plain http:// (unencrypted, readable on the network); use https://`;
}

function text(values: Values, id: 'catalogUrl' | 'oauth2Uri' | 'token' | 'credential'): string {
  const value = values.fields[id];
  return typeof value === 'string' ? value.trim() : '';
}

/** The secrets a profile sends in clear text, as warnings for the wizard's review (before any request). */
export function cleartextWarnings(values: Values): string[] {
  const catalog = text(values, 'catalogUrl').replace(/\/+$/, '');
  const warnings: (string | undefined)[] = [];
  if (values.authType === 'oauth2') {
    const tokenUrl = text(values, 'oauth2Uri') || `${catalog}/v1/oauth/tokens`;
    warnings.push(cleartextWarning(tokenUrl, 'The OAuth2 client secret'));
  }
  if (values.authType === 'token' || values.authType === 'oauth2' || values.authType === 'google')
    warnings.push(cleartextWarning(catalog, 'The bearer token'));
  return warnings.filter((w): w is string => w !== undefined);
}

export type UriOverride = { follow: true; warning?: string } | { follow: false; from: string; to: string };

/**
 * Whether to follow a catalog's `overrides.uri` from `from` to `to`. A change of host is followed (Iceberg
 * clients do; Lakekeeper always sends one) with a warning naming both; https → http with a secret
 * attached is refused unless `allowDowngrade`.
 */
export function judgeUriOverride(
  from: string,
  to: string,
  secretAttached: boolean,
  allowDowngrade: boolean,
): UriOverride {
  const a = parse(from);
  const b = parse(to);
  if (!a || !b) return { follow: true };
  // Plain http stays on the machine only when both ends are loopback: a remote catalog pointing the
  // token at http://127.0.0.1:… would hand it to whatever listens on that port.
  const downgrade = a.protocol === 'https:' && b.protocol === 'http:' && !(isLoopback(a) && isLoopback(b));
  if (downgrade && secretAttached && !allowDowngrade)
    return { follow: false, from: origin(a), to: origin(b) };
  const notes: string[] = [];
  if (a.host !== b.host) notes.push(`the catalog moved requests from ${a.host} to ${b.host} (overrides.uri)`);
  if (downgrade)
    notes.push(
      `requests now go over plain http:// to ${origin(b)}${secretAttached ? ' with the bearer token (allowed by --allow-insecure-uri-override)' : ''}`,
    );
  return notes.length ? { follow: true, warning: `${notes.join('; ')}` } : { follow: true };
}
