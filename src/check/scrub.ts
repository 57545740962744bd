// Keeps secrets out of traces, diagnoses and warnings: header values are redacted by name, URLs lose
// their userinfo and credential-like query parameters, and every known secret value is scrubbed.

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

/** The known secret values of one run; `scrub` replaces each with a placeholder. */
export class SecretScrubber {
  private readonly values = new Set<string>();

  add(value: string | undefined): void {
    // Very short values would mangle ordinary text and are not worth hiding from it.
    if (!value || value.length < 4) return;
    this.values.add(value);
    this.values.add(encodeURIComponent(value));
    this.values.add(JSON.stringify(value).slice(1, -1));
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

  scrub(text: string): string {
    let out = text;
    for (const value of [...this.values].sort((a, b) => b.length - a.length)) {
      out = out.split(value).join(REDACTED);
    }
    return out;
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
