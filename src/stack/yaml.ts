// YAML for the compose file and the pyiceberg export, written by the `yaml` package: block maps and
// lists, scalars that stay plain only when YAML 1.1 and 1.2 readers alike cannot read them as anything but
// the same string, JSON-style double quotes otherwise, literal blocks for multi-line text, and comment
// lines above map entries. The package is loaded only by the commands that write YAML (`floe stack`,
// `floe export --format pyiceberg`): they await loadYaml() first, then toYaml() is synchronous.
import type * as Yaml from 'yaml';
import { lazy, type YamlLib } from '../lazy.js';

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

let lib: YamlLib | undefined;

/** Loads the `yaml` package (its own chunk in dist/); idempotent. */
export async function loadYaml(): Promise<void> {
  if (lib) return;
  lib = await lazy.yaml();
}

function yaml(): YamlLib {
  if (!lib) throw new Error('toYaml() before loadYaml(): the yaml package is loaded on demand');
  return lib;
}

/** Words YAML 1.1 or 1.2 parsers may read as booleans, nulls or numbers. */
const RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|~|\.inf|\.nan|-\.inf)$/i;
const NUMERIC = /^[-+.]?[0-9]/;
const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./-]*$/;

/** Whether a string may be written without quotes. */
function plain(text: string): boolean {
  return PLAIN.test(text) && !RESERVED.test(text) && !NUMERIC.test(text);
}

/** Text that a literal block (`|` or `|-`) carries unchanged. */
function literal(text: string): boolean {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (!body.includes('\n') || body.endsWith('\n')) return false;
  const lines = body.split('\n');
  const safe = lines.every((line) => /^[\x20-\x7e]*$/.test(line) && !/\s$/.test(line));
  return safe && lines[0] !== '' && !lines[0]?.startsWith(' ');
}

function stringNode(text: string, block: boolean): Yaml.Scalar {
  const node = new (yaml().Scalar)(text);
  node.type = plain(text) ? 'PLAIN' : block && literal(text) ? 'BLOCK_LITERAL' : 'QUOTE_DOUBLE';
  return node;
}

function comment(lines: string[]): string {
  return lines.map((line) => (line ? ` ${line}` : '')).join('\n');
}

function node(raw: YamlValue): Yaml.Node {
  const { Scalar, YAMLMap, YAMLSeq, Pair } = yaml();
  const value = unwrap(raw);
  if (value === null || typeof value === 'boolean') return new Scalar(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} in YAML`);
    // JSON has no negative zero: written as 0, as JSON.stringify writes it.
    return new Scalar(Object.is(value, -0) ? 0 : value);
  }
  if (typeof value === 'string') return stringNode(value, true);
  if (Array.isArray(value)) {
    const seq = new YAMLSeq();
    for (const item of value) {
      const child = node(item);
      if (isCommented(item)) child.commentBefore = comment(item[COMMENT]);
      seq.items.push(child);
    }
    if (value.length === 0) seq.flow = true;
    return seq;
  }
  const map = new YAMLMap();
  for (const [key, item] of Object.entries(value as YamlMap)) {
    const k = stringNode(key, false);
    if (isCommented(item)) k.commentBefore = comment(item[COMMENT]);
    map.items.push(new Pair(k, node(item)));
  }
  if (map.items.length === 0) map.flow = true;
  return map;
}

/** The document as YAML text, ending in a newline, with optional header comment lines. */
export function toYaml(value: YamlValue, header: string[] = []): string {
  const doc = new (yaml().Document)();
  const contents = node(value);
  const first = yaml().isMap(contents) ? contents.items[0]?.key : undefined;
  let head = '';
  if (header.length > 0 && yaml().isScalar(first)) {
    // On the first key rather than the document: the package would put a blank line after it.
    first.commentBefore = [comment(header), first.commentBefore].filter(Boolean).join('\n');
  } else if (header.length > 0) head = `${header.map((line) => `# ${line}`.trimEnd()).join('\n')}\n`;
  doc.contents = contents;
  return `${head}${doc.toString({ lineWidth: 0, indentSeq: true, doubleQuotedAsJSON: true, nullStr: 'null' })}`;
}

/** A string as a one-line YAML scalar, quoted as toYaml quotes it. */
export function scalar(text: string): string {
  return plain(text) ? text : JSON.stringify(text);
}
