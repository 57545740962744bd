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

/** A secret's start this long at the end of a cut-off text is masked (shorter ones match ordinary words). */
const MIN_CUT_PREFIX = 6;

const ISSUED_TOKEN_JSON = /"(access_token|refresh_token|id_token)"\s*:\s*"((?:[^"\\]|\\.)*)"?/g;
const ISSUED_TOKEN_FORM = /(?:^|[&?\s])(access_token|refresh_token|id_token)=([^&\s"]+)/g;

/** application/x-www-form-urlencoded, as URLSearchParams sends it (`~` → %7E, space → +). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** Every form in which a secret can appear in a body, a URL or a JSON text floe or a server writes. */
function encodings(value: string): Set<string> {
  const uri = encodeURIComponent(value);
  const form = formEncode(value);
  const rfc3986 = uri.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const json = JSON.stringify(value).slice(1, -1);
  // JSON inside JSON (a config string echoed in a log line) escapes twice.
  const forms = new Set([value, uri, form, rfc3986, json, JSON.stringify(json).slice(1, -1)]);
  for (const encoded of [uri, form, rfc3986])
    forms.add(encoded.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()));
  // JSON that escapes "/" or non-ASCII (Java and PHP encoders do).
  forms.add(
    JSON.stringify(value)
      .slice(1, -1)
      .replace(/\//g, '\\/')
      .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
  return forms;
}

/** The known secret values of one run; `scrub` replaces each with `mask(secret)`. */
export class SecretScrubber {
  private readonly values = new Map<string, string>();

  constructor(private readonly mask: (secret: string) => string = () => REDACTED) {}

  add(value: string | undefined): void {
    // Very short values would mangle ordinary text and are not worth hiding from it.
    if (!value || value.length < 4) return;
    const masked = this.mask(value);
    for (const form of encodings(value)) this.values.set(form, masked);
  }

  /**
   * Tokens a server issued (`access_token`, `refresh_token`, `id_token`) in a response body, whatever its
   * content type says: a JSON object, a form-encoded answer, or a cut-off body that still shows the field.
   */
  addIssuedTokens(body: string): void {
    for (const match of body.matchAll(ISSUED_TOKEN_JSON)) {
      try {
        this.add(JSON.parse(`"${match[2]}"`) as string);
      } catch {
        this.add(match[2]);
      }
    }
    for (const match of body.matchAll(ISSUED_TOKEN_FORM)) {
      try {
        this.add(decodeURIComponent(match[2]!.replace(/\+/g, ' ')));
      } catch {}
      this.add(match[2]);
    }
  }

  /** HTTP Basic credentials `id:secret` as sent (base64), in both the raw and the form-encoded RFC 6749 form. */
  addBasicCredentials(id: string, secret: string): void {
    this.add(Buffer.from(`${id}:${secret}`).toString('base64'));
    this.add(Buffer.from(`${formEncode(id)}:${formEncode(secret)}`).toString('base64'));
  }

  /** Every secret field of a profile, the client secret of its credential and its private key. */
  addProfileSecrets(values: Values): this {
    for (const def of FIELDS) {
      const value = values.fields[def.id];
      if (!def.secret || typeof value !== 'string') continue;
      this.add(value);
      if (def.id === 'credential') {
        const { clientId, clientSecret } = splitCredential(value);
        this.add(clientSecret);
        if (clientId) this.addBasicCredentials(clientId, clientSecret);
      }
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
    return this.#maskCutTail(out);
  }

  /** A text cut off for display (a body excerpt) can end inside a secret: its visible start is masked too. */
  #maskCutTail(text: string): string {
    const ellipsis = text.endsWith('…') ? '…' : '';
    const body = ellipsis ? text.slice(0, -1) : text;
    let cut = 0;
    let masked = '';
    for (const [value, mask] of this.values) {
      // The earliest start in the tail where the rest of the text begins the secret is the longest cut.
      const first = value.charCodeAt(0);
      for (let i = Math.max(0, body.length - value.length + 1); i <= body.length - MIN_CUT_PREFIX; i++) {
        if (body.charCodeAt(i) !== first || !value.startsWith(body.slice(i))) continue;
        if (body.length - i > cut) {
          cut = body.length - i;
          masked = mask;
        }
        break;
      }
    }
    return cut === 0 ? text : `${body.slice(0, -cut)}${masked}${ellipsis}`;
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
