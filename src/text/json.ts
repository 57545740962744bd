// JSON from outside floe with its 64-bit integers exact (Iceberg's snapshot ids): a catalog's table
// answers, read by the write check, `floe tables` and the sandbox's seeding. Linear time either way.

/**
 * An integer token beyond 2^53 - 1, where JSON numbers stop holding every integer: kept as its digits.
 * Only JSON's own integers: a leading zero stays an error of the text.
 */
const unsafeInteger = (digits: string): boolean =>
  /^-?[1-9]\d{15,}$/.test(digits) && !Number.isSafeInteger(Number(digits));

/** Fewer digits than this always read back exactly (2^53 has 16). */
const SHORTEST_UNSAFE = 16;

type SourceReviver = (key: string, value: unknown, context?: { source?: string }) => unknown;

/** Whether this runtime's JSON.parse hands a reviver each number's source text (V8 11.4+: Node 22+). */
const SOURCE_ACCESS = (() => {
  let seen: string | undefined;
  JSON.parse('1', ((_key, value, context) => {
    seen = context?.source;
    return value;
  }) as SourceReviver as Parameters<typeof JSON.parse>[1]);
  return seen === '1';
})();

/**
 * JSON.parse with every integer beyond 2^53 read as its decimal string, so snapshot ids survive.
 * Linear time, and the runtime's own JSON.parse either way: with source text access where it exists
 * (Node 22+, the single file), else after quoting the long integers (Node 20). Text that is not JSON
 * throws a SyntaxError (a catalog answer is capped at MAX_BODY_BYTES).
 */
export function parseLossless(text: string): unknown {
  return SOURCE_ACCESS ? parseWithSource(text) : parseQuoted(text);
}

/** The runtime's JSON.parse, numbers beyond 2^53 read from their source text. Exported for tests. */
export function parseWithSource(text: string): unknown {
  return JSON.parse(text, ((_key, value, context) =>
    typeof value === 'number' && context?.source !== undefined && unsafeInteger(context.source)
      ? context.source
      : value) as SourceReviver as Parameters<typeof JSON.parse>[1]);
}

/** JSON.parse of the text with its long integers quoted first (`quoteLongIntegers`). Exported for tests. */
export function parseQuoted(text: string): unknown {
  return JSON.parse(quoteLongIntegers(text));
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** What may follow an integer's digits inside one JSON number: a fraction or an exponent. */
const isNumberPart = (c: number) =>
  isDigit(c) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === MINUS;

/**
 * The text with each integer token a JSON number cannot hold exactly written as a string of its digits.
 * One pass over the text, skipping strings (their escapes included) and numbers with a fraction or an
 * exponent; anything else is left for JSON.parse to accept or refuse.
 */
export function quoteLongIntegers(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i++;
      while (i < text.length) {
        const d = text.charCodeAt(i);
        i += d === BACKSLASH ? 2 : 1;
        if (d === QUOTE) break;
      }
    } else if (c === MINUS || isDigit(c)) {
      let end = c === MINUS ? i + 1 : i;
      while (end < text.length && isDigit(text.charCodeAt(end))) end++;
      if (end < text.length && isNumberPart(text.charCodeAt(end))) {
        while (end < text.length && isNumberPart(text.charCodeAt(end))) end++;
      } else if (end - i >= SHORTEST_UNSAFE) {
        const digits = text.slice(i, end);
        if (unsafeInteger(digits)) {
          parts.push(text.slice(copied, i), `"${digits}"`);
          copied = end;
        }
      }
      i = end;
    } else i++;
  }
  if (copied === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}
