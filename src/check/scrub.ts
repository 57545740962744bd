// Keeps secrets out of traces, diagnoses and warnings: header values are redacted by name, URLs lose
// their userinfo and credential-like query parameters, and every known secret value is scrubbed.
// Shared by the catalog chain, the storage chain and the orchestrator.
import { FIELDS, splitCredential, type Values } from '../destination/fields.js';

export const REDACTED = '[redacted]';

const SECRET_HEADERS = new Set([
  'authorization',
  'original-authorization',
  'proxy-authorization',
  'x-amz-security-token',
  'x-amz-signature',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
]);

/** Query parameters whose values are credentials (`pageToken` is not one). */
const SECRET_QUERY =
  /(^|[-_])(token|secret|password|passwd|credential|signature|assertion|sig|code)$|^access_?token$|secret|api[-_]?key|^x-amz-/i;

/** The known secret values of one run; `scrub` replaces each with `mask(secret)`. */
export class SecretScrubber {
  private readonly values = new Map<string, string>();

  constructor(private readonly mask: (secret: string) => string = () => REDACTED) {}

  add(value: string | undefined): void {
    // Very short values would mangle ordinary text and are not worth hiding from it.
    if (!value || value.length < 4) return;
    const masked = this.mask(value);
    this.values.set(value, masked);
    this.values.set(encodeURIComponent(value), masked);
    this.values.set(JSON.stringify(value).slice(1, -1), masked);
  }

  /** Every secret field of a profile, the client secret of its credential and its private key. */
  addProfileSecrets(values: Values): this {
    for (const def of FIELDS) {
      const value = values.fields[def.id];
      if (!def.secret || typeof value !== 'string') continue;
      this.add(value);
      if (def.id === 'credential') this.add(splitCredential(value).clientSecret);
      if (def.id === 'gcpServiceAccountJson') this.addPrivateKey(value);
    }
    return this;
  }

  /** The PEM `private_key` of a service-account JSON, whole and line by line. */
  addPrivateKey(serviceAccountJson: string): void {
    let key: unknown;
    try {
      key = (JSON.parse(serviceAccountJson) as { private_key?: unknown }).private_key;
    } catch {
      return;
    }
    if (typeof key !== 'string') return;
    this.add(key);
    for (const line of key.split('\n')) if (!line.startsWith('-----')) this.add(line.trim());
  }

  get empty(): boolean {
    return this.values.size === 0;
  }

  scrub(text: string): string {
    let out = text;
    // Longest first, so that a secret containing another is replaced whole.
    for (const [value, masked] of [...this.values].sort((a, b) => b[0].length - a[0].length)) {
      out = out.split(value).join(masked);
    }
    return out;
  }

  /** A copy of `value` with every string in it scrubbed. */
  scrubDeep<T>(value: T): T {
    if (this.empty) return value;
    return JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
      typeof v === 'string' ? this.scrub(v) : v,
    ) as T;
  }
}

/** Response headers that carry a URL, cleaned like any other URL. */
const URL_HEADERS = new Set(['location', 'content-location']);

export function redactHeaders(
  headers: Record<string, string>,
  scrubber: SecretScrubber,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    out[name] = SECRET_HEADERS.has(lower)
      ? REDACTED
      : URL_HEADERS.has(lower)
        ? safeLocation(value, scrubber)
        : scrubber.scrub(value);
  }
  return out;
}

function clean(url: URL): URL {
  url.username = '';
  url.password = '';
  url.hash = '';
  for (const key of [...url.searchParams.keys()]) {
    if (SECRET_QUERY.test(key)) url.searchParams.set(key, REDACTED);
  }
  return url;
}

/** The URL without userinfo, fragment or credential-like query values. */
export function safeUrl(url: URL | string, scrubber?: SecretScrubber): string {
  let text: string;
  try {
    text = clean(new URL(String(url))).toString();
  } catch {
    text = String(url);
  }
  return scrubber ? scrubber.scrub(text) : text;
}

/** A Location value, absolute or relative, cleaned like `safeUrl`. */
function safeLocation(value: string, scrubber: SecretScrubber): string {
  if (/^[a-z][a-z\d+.-]*:/i.test(value)) return safeUrl(value, scrubber);
  try {
    const url = clean(new URL(value, 'http://relative.invalid'));
    return scrubber.scrub(`${url.pathname}${url.search}`);
  } catch {
    return REDACTED;
  }
}
