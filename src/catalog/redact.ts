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
    if (value && value.length >= 4) this.values.add(value);
  }

  scrub(text: string): string {
    let out = text;
    for (const value of [...this.values].sort((a, b) => b.length - a.length)) {
      out = out.split(value).join(REDACTED);
    }
    return out;
  }
}

export function redactHeaders(
  headers: Record<string, string>,
  scrubber: SecretScrubber,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : scrubber.scrub(value);
  }
  return out;
}

/** The URL without userinfo, fragment or credential-like query values. */
export function safeUrl(url: URL | string, scrubber?: SecretScrubber): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return scrubber ? scrubber.scrub(String(url)) : String(url);
  }
  parsed.username = '';
  parsed.password = '';
  parsed.hash = '';
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_QUERY.test(key)) parsed.searchParams.set(key, REDACTED);
  }
  const text = parsed.toString();
  return scrubber ? scrubber.scrub(text) : text;
}
