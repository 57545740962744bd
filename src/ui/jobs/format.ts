// Small pure formatters for the jobs browser: run states, relative times, endpoints.
import type { Job } from '../../management/types.js';

export interface StateLook {
  glyph: string;
  word: string;
  color: 'green' | 'red' | 'yellow' | 'gray' | 'cyan';
}

const LOOKS = new Map<string, StateLook>(
  Object.entries({
    completed: { glyph: '✓', word: 'completed', color: 'green' },
    failed: { glyph: '✗', word: 'failed', color: 'red' },
    terminated: { glyph: '✗', word: 'terminated', color: 'red' },
    timedout: { glyph: '✗', word: 'timed out', color: 'red' },
    running: { glyph: '●', word: 'running', color: 'yellow' },
    canceled: { glyph: '⊘', word: 'canceled', color: 'gray' },
    cancelled: { glyph: '⊘', word: 'canceled', color: 'gray' },
    continuedasnew: { glyph: '●', word: 'continued', color: 'cyan' },
  } satisfies Record<string, StateLook>),
);

export const NEVER: StateLook = { glyph: '–', word: 'never', color: 'gray' };

/** Temporal's workflow status (`Completed`, `WORKFLOW_EXECUTION_STATUS_FAILED`, …) as glyph, word and colour. */
export function stateLook(state: string | undefined): StateLook {
  if (!state) return NEVER;
  const key = state
    .toLowerCase()
    .replace(/^workflow_execution_status_/, '')
    .replace(/[_\s-]/g, '');
  return LOOKS.get(key) ?? { glyph: '?', word: state.toLowerCase(), color: 'gray' };
}

/** Sort rank by state: problems first, jobs that never ran last. */
export function stateRank(state: string | undefined): number {
  const look = stateLook(state);
  if (look === NEVER) return 5;
  return { red: 0, yellow: 1, cyan: 1, gray: 2, green: 3 }[look.color];
}

/** "3 h ago", "just now", "in 5 min"; `undefined` for a missing or unparsable time. */
export function relativeTime(iso: string | undefined, now: number): string | undefined {
  if (!iso) return undefined;
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return undefined;
  const seconds = Math.round((now - at) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 10) return 'just now';
  let span: string;
  if (abs < 60) span = `${abs} s`;
  else if (abs < 3600) span = `${Math.floor(abs / 60)} min`;
  else if (abs < 86_400) span = `${Math.floor(abs / 3600)} h`;
  else span = `${Math.floor(abs / 86_400)} d`;
  return seconds < 0 ? `in ${span}` : `${span} ago`;
}

/** "updated 4s ago" style stamp for the header. */
export function ageStamp(since: number | undefined, now: number): string {
  if (since === undefined) return '';
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  if (seconds < 60) return `updated ${seconds}s ago`;
  if (seconds < 3600) return `updated ${Math.floor(seconds / 60)}m ago`;
  return `updated ${Math.floor(seconds / 3600)}h ago`;
}

/** "postgres → iceberg": the endpoint types of a job. */
export function route(job: Job): string {
  return `${job.source.type} → ${job.destination.type}`;
}

/** "pg-prod (postgres v0.9.4, #2)". Endpoint configs are never shown: they hold credentials. */
export function endpoint(end: Job['source']): string {
  const details = [end.type, end.version, end.id === undefined ? undefined : `#${end.id}`].filter(Boolean);
  return `${end.name} (${details.join(' ')})`;
}

/** `key=value, …` for advanced settings. */
export function settingsSummary(settings: Record<string, unknown> | undefined): string {
  if (!settings || Object.keys(settings).length === 0) return '—';
  return Object.entries(settings)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}
