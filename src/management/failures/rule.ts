// One row of a failure table: which component's text it answers, how it is recognized (one linear-time
// regular expression over a bounded line), the facts it takes from the text (bucket, region, action,
// principal, host…), and what / cause / remedy written from those facts.

/** The parts of a sync that fail: OLake's writer (the JVM and the Go side of it), the catalog, the
 * object store, the source database; `unknown` when nothing in a line says which. */
export type Component = 'writer' | 'catalog' | 'storage' | 'source' | 'unknown';

export const COMPONENT_NAME: Record<Component, string> = {
  writer: 'OLake’s Iceberg writer',
  catalog: 'the catalog',
  storage: 'the object store',
  source: 'the source database',
  unknown: 'an unidentified component',
};

export type Facts = Record<string, string>;

export interface FailureRule {
  code: string;
  /** The component the failure is in (for network rules: the component the line points at). */
  component: Component;
  /** One line for docs/diagnoses.md. */
  summary: string;
  /** The real text it answers, verbatim from its source (for the docs). */
  example: string;
  /** Linear-time: no nested quantifiers, no overlapping alternations under a quantifier. */
  match: RegExp;
  /** The line must be attributed to this component (network failures that look alike everywhere). */
  only?: Component;
  facts?: (text: string) => Facts;
  what: (f: Facts) => string;
  cause: (f: Facts) => string;
  remedy: (f: Facts) => string;
  /** Codes this failure follows from: after one of them, it is reported as its consequence. */
  follows?: string[];
}

/** The first capture of `re` in `text`, or nothing. */
export function capture(text: string, re: RegExp): string | undefined {
  return re.exec(text)?.[1];
}

/** Only the facts that were found. */
export function facts(entries: Record<string, string | undefined>): Facts {
  return Object.fromEntries(Object.entries(entries).filter((e): e is [string, string] => Boolean(e[1])));
}

/** `host:port` named in a line: a URL's host, a MongoDB "Addr:", a host:port, an IPv4:port. */
export function hostOf(text: string): string | undefined {
  return (
    capture(text, /https?:\/\/([\w.-]{1,253}(?::\d{1,5})?)/) ??
    capture(text, /Addr: ([\w.-]{1,253}:\d{1,5})/) ??
    capture(text, /\b([A-Za-z][\w-]{0,62}(?:\.[\w-]{1,62}){0,8}:\d{2,5})\b/) ??
    capture(text, /\b(\d{1,3}(?:\.\d{1,3}){3}:\d{2,5})\b/)
  );
}

/** `fallback` when the fact is missing. */
export function or(value: string | undefined, fallback: string): string {
  return value ?? fallback;
}
