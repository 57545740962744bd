// A job's schedule as a period: the longest time between two runs its cron expression allows (a
// weekday schedule's is the weekend's), so `floe tables` can say a job's table is stale when no commit
// came for longer than that. Five fields (minute hour day-of-month month day-of-week) with `*`, `?`,
// numbers, names, ranges, lists and steps, the macros, and olake-ui's older `N-unit` frequencies;
// vixie cron's day rule (both day fields restricted: either matches). Times in UTC. Linear in the
// expression's length; the fire times of ~800 days are walked once.

const LEGACY_UNITS: Record<string, (n: number) => string> = {
  minutes: (n) => `*/${n} * * * *`,
  hours: (n) => `0 */${n} * * *`,
  days: (n) => `0 0 */${n} * *`,
  weeks: (n) => `0 0 * * */${n}`,
  months: (n) => `0 0 1 */${n} *`,
  years: (n) => `0 0 1 1 */${n}`,
};

/**
 * Older OLake UIs saved frequencies as `N-unit` (`6-hours`); the server still schedules them through
 * utils.ToCron (olake-ui `server/internal/utils/utils.go`), ported here; anything else is unchanged.
 */
export function legacyToCron(frequency: string): string {
  const parts = frequency.toLowerCase().split('-');
  if (parts.length !== 2) return frequency;
  const [value = '', unit = ''] = parts;
  const n = /^\d+$/.test(value) ? Number(value) : 0;
  const make = LEGACY_UNITS[unit];
  return n > 0 && make ? make(n) : frequency;
}

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldSpec {
  min: number;
  max: number;
  names?: string[];
  /** The first name's number (1 for months, 0 for days). */
  nameBase?: number;
}

const FIELDS: FieldSpec[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, nameBase: 1 },
  { min: 0, max: 7, names: DAYS, nameBase: 0 },
];

function value(text: string, spec: FieldSpec): number | null {
  const named = spec.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (spec.nameBase ?? 0);
  if (!/^\d{1,2}$/.test(text)) return null;
  const n = Number(text);
  return n >= spec.min && n <= spec.max ? n : null;
}

/** The values a field allows (index → allowed), and whether it restricts at all; null when malformed. */
function field(text: string, spec: FieldSpec): { allowed: boolean[]; any: boolean } | null {
  if (text.length > 100) return null;
  const allowed = Array<boolean>(spec.max + 1).fill(false);
  for (const item of text.split(',')) {
    const match = /^(\*|\?|[a-z0-9]+(?:-[a-z0-9]+)?)(?:\/(\d{1,2}))?$/i.exec(item);
    if (!match) return null;
    const [, range = '', stepText] = match;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) return null;
    let from: number | null = spec.min;
    let to: number | null = spec.max;
    if (range !== '*' && range !== '?') {
      const [a = '', b] = range.split('-');
      from = value(a, spec);
      // `5/15`: from 5 to the end by 15.
      to = b !== undefined ? value(b, spec) : stepText === undefined ? from : spec.max;
    }
    if (from === null || to === null || to < from) return null;
    for (let n = from; n <= to; n += step) allowed[n] = true;
  }
  return { allowed, any: text === '*' || text === '?' };
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Enough days for any schedule that repeats within a year to show its longest gap twice. */
const WINDOW_DAYS = 800;
/** A Monday, 1 Jan 2024 (a leap year) UTC. */
const START = Date.UTC(2024, 0, 1);

/**
 * The longest time between two runs of `frequency` (a cron expression, a macro or an `N-unit`
 * frequency), or null when it is empty, not understood, or runs less than twice in ~800 days.
 */
export function cronPeriodMs(frequency: string): number | null {
  const trimmed = legacyToCron(frequency.trim()).trim();
  const cron = MACROS[trimmed.toLowerCase()] ?? trimmed;
  const parts = cron.split(/\s+/);
  if (parts.length !== 5) return null;
  const fields = parts.map((text, i) => field(text, FIELDS[i]!));
  if (fields.some((f) => f === null)) return null;
  const [minutes, hours, dom, months, dow] = fields as NonNullable<(typeof fields)[number]>[];
  if (dow!.allowed[7]) dow!.allowed[0] = true;
  const times: number[] = [];
  for (let h = 0; h < 24; h++)
    if (hours!.allowed[h])
      for (let m = 0; m < 60; m++) if (minutes!.allowed[m]) times.push((h * 60 + m) * MINUTE);
  if (times.length === 0) return null;
  let previous: number | null = null;
  let longest = 0;
  for (let d = 0; d < WINDOW_DAYS; d++) {
    const day = new Date(START + d * DAY);
    if (!months!.allowed[day.getUTCMonth() + 1]) continue;
    const byDate = dom!.allowed[day.getUTCDate()]!;
    const byWeekday = dow!.allowed[day.getUTCDay()]!;
    const runs = dom!.any || dow!.any ? byDate && byWeekday : byDate || byWeekday;
    if (!runs) continue;
    const base = START + d * DAY;
    if (previous !== null) longest = Math.max(longest, base + times[0]! - previous);
    // Within a day the gaps repeat every day: the widest is the same each time.
    for (let i = 1; i < times.length; i++) longest = Math.max(longest, times[i]! - times[i - 1]!);
    previous = base + times.at(-1)!;
  }
  return longest > 0 ? longest : null;
}
