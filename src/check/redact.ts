// Last line of defence: the chains redact what they report, and the orchestrator still masks any
// literal secret of the profile that slips into an event before anyone renders or prints it.
import { FIELDS, type Values } from '../destination/fields.js';
import type { CheckEvent } from './types.js';

export const MASK = '••••';

/** Shorter values would mask ordinary words; no real credential is that short. */
const MIN_SECRET_LENGTH = 4;

function secretStrings(values: Values): string[] {
  const out = new Set<string>();
  const add = (value: string | undefined) => {
    if (!value || value.length < MIN_SECRET_LENGTH) return;
    out.add(value);
    out.add(encodeURIComponent(value));
    out.add(JSON.stringify(value).slice(1, -1));
  };
  for (const def of FIELDS) {
    const value = values.fields[def.id];
    if (!def.secret || typeof value !== 'string') continue;
    add(value);
    if (def.id === 'credential') add(value.slice(value.indexOf(':') + 1));
    if (def.id === 'gcpServiceAccountJson') {
      try {
        const key = (JSON.parse(value) as { private_key?: unknown }).private_key;
        if (typeof key === 'string') {
          add(key);
          for (const line of key.split('\n')) if (!line.startsWith('-----')) add(line);
        }
      } catch {
        // Not JSON: the whole value is masked above.
      }
    }
  }
  // Longest first, so that a secret containing another is masked whole.
  return [...out].sort((a, b) => b.length - a.length);
}

function mask(value: unknown, secrets: string[]): unknown {
  if (typeof value === 'string') return secrets.reduce((s, secret) => s.split(secret).join(MASK), value);
  if (Array.isArray(value)) return value.map((v) => mask(v, secrets));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v, secrets)]));
  return value;
}

/** Returns a function that masks every secret value of `values` in an event's strings. */
export function eventRedactor(values: Values): (event: CheckEvent) => CheckEvent {
  const secrets = secretStrings(values);
  if (secrets.length === 0) return (event) => event;
  return (event) => mask(event, secrets) as CheckEvent;
}
