// The one sanitizer for text floe did not write itself: anything from a server (OLake UI job names,
// logs, catalog and S3 errors), a file or the environment, before it reaches a terminal, in the TUI and
// in plain output alike. A terminal acts on control characters: ESC ] 0 sets the window title, ESC ] 52
// writes the clipboard, ESC [ 2 J clears the screen, \r overwrites a row, bidi overrides reorder what
// is shown. Nothing is dropped silently: each control character is shown in caret notation (ESC as
// `^[`, BEL as `^G`, a C1 control as `^[` and its 7-bit letter, so ESC ] 0;x BEL shows as `^[]0;x^G`),
// and each bidi or line-separator character as `�`. `--json` keeps the text, with jsonSafe escaping
// what JSON.stringify leaves raw.

export interface SanitizeOptions {
  /** Keep line breaks and tabs (a log, a multi-line message); else they are shown as `^J`, `^I`. */
  multiline?: boolean;
}

/** Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), bidi marks, line separators. */
const INVISIBLE = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

function shown(char: string, multiline: boolean): string {
  const code = char.charCodeAt(0);
  if (multiline && (char === '\n' || char === '\t')) return char;
  if (INVISIBLE.test(char)) return '\ufffd';
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `^[${String.fromCharCode(code - 0x40)}`;
}

/** `text` with every control, bidi and line-separator character made visible and harmless. */
export function sanitize(text: string, { multiline = false }: SanitizeOptions = {}): string {
  if (!UNSAFE.test(text)) return text;
  const input = multiline ? text.replace(/\r\n/g, '\n') : text;
  let out = '';
  for (const char of input) out += UNSAFE.test(char) ? shown(char, multiline) : char;
  return out;
}

/** Every string inside `value` (objects and arrays, recursively) sanitized; other values as they are. */
export function sanitizeDeep<T>(value: T, options?: SanitizeOptions): T {
  if (typeof value === 'string') return sanitize(value, options) as T;
  if (Array.isArray(value)) return value.map((v) => sanitizeDeep(v, options)) as T;
  if (value !== null && typeof value === 'object')
    // Keys too: a server's object keys (a job's advanced_settings) are shown like its values.
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [sanitize(k, options), sanitizeDeep(v, options)]),
    ) as T;
  return value;
}

/** What JSON.stringify leaves raw that a terminal still acts on: DEL, C1 controls, bidi, separators. */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** JSON text with those characters escaped (\u009b…): the same value for a parser, inert on a terminal. */
export function jsonSafe(json: string): string {
  return json.replace(RAW_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
