// Hostile instances of JSON Schemas: every optional property present, every string (and every key of
// a record) a hostile payload (hostile.ts), numbers, booleans, enums and constants valid so that the
// client accepts the answer and goes on to show it. The schemas come from the code and the specs
// (zod's toJSONSchema for the OLake UI, the Iceberg REST OpenAPI document), so a field added there is
// covered without a change here.
import { hostileString } from './hostile.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema is untyped here
export type JsonSchema = Record<string, any> | boolean;

export interface GenerateOptions {
  /** The document `$ref`s point into (`#/components/schemas/X`); default: the schema itself. */
  root?: JsonSchema;
  /**
   * Replaces the generated value at `path` (property names from the top; array items as '*'):
   * return undefined to keep it. For values the client reads as data of their own (a JSON document in
   * a string, an endpoint list), never to make a string harmless.
   */
  override?: (path: string[], schema: JsonSchema, generated: () => unknown) => unknown;
  /** The value of a boolean (default false: no "more pages", no endless follow). */
  boolean?: (path: string[]) => boolean;
  /** Deeper than this (recursive types), objects keep only required properties and arrays stay empty. */
  maxDepth?: number;
}

/** Makes hostile instances; the counter varies the payload from one string to the next. */
export class HostileGenerator {
  #n = 0;
  readonly #options: GenerateOptions;

  constructor(options: GenerateOptions = {}) {
    this.#options = options;
  }

  /** The next hostile string. */
  string(): string {
    return hostileString(this.#n++);
  }

  instance(schema: JsonSchema, root: JsonSchema = this.#options.root ?? schema): unknown {
    return this.#value(schema, root, [], 0);
  }

  #resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
    let s = schema;
    for (let hops = 0; typeof s === 'object' && typeof s.$ref === 'string' && hops < 50; hops++) {
      const ref: string = s.$ref;
      if (!ref.startsWith('#')) throw new Error(`external $ref ${ref}`);
      let target: JsonSchema = root;
      for (const part of ref.slice(1).split('/').filter(Boolean))
        target = (target as Record<string, JsonSchema>)[part.replace(/~1/g, '/').replace(/~0/g, '~')]!;
      if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
      const { $ref: _, ...rest } = s;
      s = typed(rest) ? { allOf: [target, rest] } : target;
    }
    return s;
  }

  #value(raw: JsonSchema, root: JsonSchema, path: string[], depth: number): unknown {
    const schema = this.#resolve(raw, root);
    const generate = () => this.#generate(schema, root, path, depth);
    const replaced = this.#options.override?.(path, schema, generate);
    return replaced !== undefined ? replaced : generate();
  }

  #generate(schema: JsonSchema, root: JsonSchema, path: string[], depth: number): unknown {
    if (schema === true || (typeof schema === 'object' && Object.keys(schema).length === 0))
      return this.string();
    if (schema === false) return null;
    const s = schema as Record<string, JsonSchema & Record<string, unknown>>;
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null) ?? s.enum[0];
    if (Array.isArray(s.allOf)) return this.#allOf(s, root, path, depth);
    const choices = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
    if (Array.isArray(choices)) {
      // The first choice that is not null (and, past maxDepth, one that is not an object, if any).
      const usable = choices
        .map((c) => this.#resolve(c, root))
        .filter((c) => !(typeof c === 'object' && c.type === 'null'));
      const deep = depth > this.#maxDepth;
      const pick =
        (deep && usable.find((c) => typeof c === 'object' && c.type !== 'object' && !c.properties)) ||
        usable[0] ||
        choices[0]!;
      const { oneOf: _o, anyOf: _a, discriminator: _d, ...rest } = s;
      return typed(rest)
        ? this.#value({ allOf: [rest, pick] }, root, path, depth)
        : this.#value(pick, root, path, depth);
    }
    let type = s.type as string | string[] | undefined;
    if (Array.isArray(type)) type = type.find((t) => t !== 'null') ?? 'null';
    type ??= s.properties || s.additionalProperties ? 'object' : s.items ? 'array' : 'string';
    switch (type) {
      case 'string':
        return this.string();
      case 'integer':
      case 'number':
        return this.#number(s);
      case 'boolean':
        return this.#options.boolean?.(path) ?? false;
      case 'null':
        return null;
      case 'array':
        return this.#array(s, root, path, depth);
      default:
        return this.#object(s, root, path, depth);
    }
  }

  get #maxDepth(): number {
    return this.#options.maxDepth ?? 12;
  }

  #number(s: Record<string, unknown>): number {
    const min =
      typeof s.minimum === 'number'
        ? s.minimum
        : typeof s.exclusiveMinimum === 'number'
          ? s.exclusiveMinimum + 1
          : 1;
    const max =
      typeof s.maximum === 'number'
        ? s.maximum
        : typeof s.exclusiveMaximum === 'number'
          ? s.exclusiveMaximum - 1
          : min + 1_000_000;
    return Math.min(max, min + (this.#n++ % 1000));
  }

  #array(s: Record<string, JsonSchema>, root: JsonSchema, path: string[], depth: number): unknown[] {
    if (depth > this.#maxDepth) return [];
    const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as JsonSchema[]) : [];
    const min = typeof s.minItems === 'number' ? s.minItems : 0;
    const max = typeof s.maxItems === 'number' ? s.maxItems : Number.POSITIVE_INFINITY;
    const count = Math.min(max, Math.max(2, min, prefix.length));
    return Array.from({ length: count }, (_, i) =>
      this.#value(prefix[i] ?? s.items ?? {}, root, [...path, '*'], depth + 1),
    );
  }

  #object(s: Record<string, JsonSchema>, root: JsonSchema, path: string[], depth: number): unknown {
    const out: Record<string, unknown> = {};
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((s.required ?? []) as unknown as string[]);
    for (const [key, sub] of Object.entries(properties)) {
      if (depth > this.#maxDepth && !required.has(key)) continue;
      out[key] = this.#value(sub, root, [...path, key], depth + 1);
    }
    const extra = s.additionalProperties;
    const open = extra !== undefined && extra !== false;
    if (open && depth <= this.#maxDepth)
      for (let i = 0; i < 2; i++) {
        const key = this.string();
        out[key] = this.#value(extra === true ? {} : extra, root, [...path, key], depth + 1);
      }
    return out;
  }

  #allOf(s: Record<string, unknown>, root: JsonSchema, path: string[], depth: number): unknown {
    const parts = (s.allOf as JsonSchema[]).map((p) => this.#resolve(p, root));
    const { allOf: _, ...rest } = s;
    // The schema's own keywords last: they are the most specific (PositionDeleteFile's `content` const).
    const all = [...parts, rest as JsonSchema].filter(typed);
    // Objects: one object with every part's properties (a part's own type decides for scalars).
    const objects = all.filter(
      (p) => typeof p === 'object' && (p.type === 'object' || p.properties || p.allOf || p.$ref),
    ) as Record<string, unknown>[];
    if (objects.length === 0) return this.#value(all[all.length - 1] ?? {}, root, path, depth);
    const merged: Record<string, unknown> = {};
    for (const part of objects) {
      const value = this.#value(part, root, path, depth);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) Object.assign(merged, value);
    }
    return merged;
  }
}

/** Keywords that say nothing about the value's type (docs, examples). */
const NON_TYPE = new Set([
  'description',
  'title',
  'example',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$schema',
]);

/** Whether `schema` says anything about a value (more than docs and examples). */
function typed(schema: JsonSchema): boolean {
  return typeof schema === 'object' && Object.keys(schema).some((k) => !NON_TYPE.has(k));
}

/** One hostile instance of `schema` (see HostileGenerator). */
export function hostileInstance(schema: JsonSchema, options: GenerateOptions = {}): unknown {
  return new HostileGenerator(options).instance(schema);
}
