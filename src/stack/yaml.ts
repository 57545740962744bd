// A small YAML emitter for the compose file: block maps and lists, scalars that stay plain only when
// YAML cannot read them as anything but the same string, JSON-style double quotes otherwise (valid
// YAML), literal blocks for multi-line text, and comment lines above map entries.

export type YamlValue = string | number | boolean | null | YamlValue[] | YamlMap | Commented;
export interface YamlMap {
  [key: string]: YamlValue;
}

const COMMENT = Symbol('comment');

/** A value with comment lines printed above its map key. */
export interface Commented {
  readonly [COMMENT]: string[];
  readonly value: YamlValue;
}

export function commented(comment: string, value: YamlValue): Commented {
  return { [COMMENT]: comment.split('\n'), value };
}

function isCommented(value: YamlValue): value is Commented {
  return typeof value === 'object' && value !== null && COMMENT in value;
}

function unwrap(value: YamlValue): YamlValue {
  return isCommented(value) ? unwrap(value.value) : value;
}

/** Words YAML 1.1 or 1.2 parsers may read as booleans, nulls or numbers. */
const RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|~|\.inf|\.nan|-\.inf)$/i;
const NUMERIC = /^[-+.]?[0-9]/;
const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./-]*$/;

/** A string as a one-line YAML scalar. */
export function scalar(text: string): string {
  if (PLAIN.test(text) && !RESERVED.test(text) && !NUMERIC.test(text)) return text;
  return JSON.stringify(text);
}

/** Text that a literal block (`|` or `|-`) carries unchanged. */
function literalBlock(text: string, indent: string): string | null {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (!body.includes('\n') || body.endsWith('\n')) return null;
  const lines = body.split('\n');
  const safe = lines.every((line) => /^[\x20-\x7e]*$/.test(line) && !/\s$/.test(line));
  if (!safe || lines[0] === '' || lines[0]?.startsWith(' ')) return null;
  const header = text.endsWith('\n') ? '|' : '|-';
  return `${header}\n${lines.map((line) => (line ? `${indent}${line}` : '')).join('\n')}`;
}

function inline(value: YamlValue): string | null {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} in YAML`);
    return JSON.stringify(value);
  }
  if (typeof value === 'string') return scalar(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : null;
  if (isCommented(value)) return null;
  return Object.keys(value).length === 0 ? '{}' : null;
}

function emitMap(map: YamlMap, indent: string): string[] {
  const out: string[] = [];
  for (const [key, raw] of Object.entries(map)) {
    if (isCommented(raw)) for (const line of raw[COMMENT]) out.push(`${indent}# ${line}`.trimEnd());
    const value = unwrap(raw);
    const head = `${indent}${scalar(key)}:`;
    const block = typeof value === 'string' ? literalBlock(value, `${indent}  `) : null;
    const text = block ?? inline(value);
    if (text !== null) out.push(`${head} ${text}`);
    else {
      out.push(head);
      out.push(...emitBlock(value, `${indent}  `));
    }
  }
  return out;
}

function emitList(list: YamlValue[], indent: string): string[] {
  const out: string[] = [];
  for (const raw of list) {
    if (isCommented(raw)) for (const line of raw[COMMENT]) out.push(`${indent}# ${line}`.trimEnd());
    const value = unwrap(raw);
    const block = typeof value === 'string' ? literalBlock(value, `${indent}  `) : null;
    const text = block ?? inline(value);
    if (text !== null) {
      out.push(`${indent}- ${text}`);
      continue;
    }
    const [first, ...rest] = emitBlock(value, `${indent}  `);
    out.push(`${indent}- ${(first ?? '').slice(indent.length + 2)}`, ...rest);
  }
  return out;
}

/** A non-empty list or map, one line per entry. */
function emitBlock(value: YamlValue, indent: string): string[] {
  const bare = unwrap(value);
  return Array.isArray(bare) ? emitList(bare, indent) : emitMap(bare as YamlMap, indent);
}

/** The document as YAML text, ending in a newline, with optional header comment lines. */
export function toYaml(value: YamlValue, header: string[] = []): string {
  const lines = [...header.map((line) => `# ${line}`.trimEnd()), ...emitTop(value)];
  return `${lines.join('\n')}\n`;
}

function emitTop(value: YamlValue): string[] {
  const text = inline(unwrap(value));
  return text === null ? emitBlock(value, '') : [text];
}
