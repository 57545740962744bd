// A job's source and destination configs (JSON strings in the job detail) summarised for people and
// `--json`: secret values are never shown, only whether they are set.
export const HIDDEN = '(set, hidden)';

/** Keys whose values are secrets in OLake source and destination configs. */
const SECRET_KEY = /pass|secret|token|credential|private|session|_json$|^aws_access_key$|api_?key/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** The config with every secret value replaced by HIDDEN (nested objects too); undefined if not JSON. */
export function redactConfig(raw: string | undefined): Record<string, unknown> | undefined {
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const walk = (value: unknown, key: string): unknown => {
    if (isSecretKey(key) && value !== '' && value !== null && value !== undefined) return HIDDEN;
    if (Array.isArray(value)) return value.map((v) => walk(v, ''));
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  const out = walk(parsed, '');
  return typeof out === 'object' && out !== null && !Array.isArray(out)
    ? (out as Record<string, unknown>)
    : undefined;
}

/** `key=value` pairs of the top level (a destination's `writer` is flattened in), secrets hidden. */
export function configLine(raw: string | undefined): string {
  const config = redactConfig(raw);
  if (!config) return raw ? '(not JSON)' : '(none)';
  const flat = { ...config, ...(typeof config.writer === 'object' && config.writer ? config.writer : {}) };
  delete (flat as Record<string, unknown>).writer;
  return Object.entries(flat)
    .filter(([, v]) => v !== '' && v !== null && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}
