// Turns the common cron forms OLake jobs use into words; anything else comes back as the cron string itself.
import { legacyToCron } from '../../management/schedule.js';

const DAYS = ['Sundays', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const MACROS = new Map([
  ['@yearly', 'yearly, 1 Jan 00:00'],
  ['@annually', 'yearly, 1 Jan 00:00'],
  ['@monthly', 'monthly, day 1 00:00'],
  ['@weekly', 'Sundays 00:00'],
  ['@daily', 'daily 00:00'],
  ['@midnight', 'daily 00:00'],
  ['@hourly', 'every hour'],
]);

function int(field: string, min: number, max: number): number | undefined {
  if (!/^\d{1,2}$/.test(field)) return undefined;
  const value = Number(field);
  return value >= min && value <= max ? value : undefined;
}

/** `*\/n` (or `0/n`) with n in range, as n. */
function step(field: string, max: number): number | undefined {
  const match = /^(?:\*|0)\/(\d{1,2})$/.exec(field);
  if (!match) return undefined;
  const value = Number(match[1]);
  return value >= 1 && value <= max ? value : undefined;
}

function day(field: string): number | undefined {
  const named = DAY_NAMES.indexOf(field.toLowerCase());
  if (named >= 0) return named;
  const value = int(field, 0, 7);
  return value === undefined ? undefined : value % 7;
}

const pad = (value: number) => String(value).padStart(2, '0');
const clock = (hour: number, minute: number) => `${pad(hour)}:${pad(minute)}`;

function humanise(fields: string[]): string | undefined {
  const [minute = '', hour = '', dom = '', month = '', dow = ''] = fields;
  if (month !== '*') return undefined;
  const everyDay = dom === '*' && (dow === '*' || dow === '?');
  const m = int(minute, 0, 59);
  if (everyDay && hour === '*') {
    if (minute === '*') return 'every minute';
    const minutes = step(minute, 59);
    if (minutes !== undefined) return minutes === 1 ? 'every minute' : `every ${minutes} min`;
    if (m !== undefined) return m === 0 ? 'every hour' : `hourly at :${pad(m)}`;
    return undefined;
  }
  if (m === undefined) return undefined;
  const hours = step(hour, 23);
  if (everyDay && hours !== undefined) {
    const every = hours === 1 ? 'every hour' : `every ${hours} h`;
    return m === 0 ? every : `${every} at :${pad(m)}`;
  }
  const h = int(hour, 0, 23);
  if (h === undefined) return undefined;
  const at = clock(h, m);
  if (everyDay) return `daily ${at}`;
  if (dom === '*' || dom === '?') {
    if (dow === '1-5' || dow.toLowerCase() === 'mon-fri') return `weekdays ${at}`;
    if (dow === '0,6' || dow === '6,0' || dow.toLowerCase() === 'sat,sun') return `weekends ${at}`;
    const d = day(dow);
    return d === undefined ? undefined : `${DAYS[d]} ${at}`;
  }
  const date = int(dom, 1, 31);
  if (date !== undefined && (dow === '*' || dow === '?')) return `monthly, day ${date} ${at}`;
  return undefined;
}

/** "every 6 h", "daily 02:00", "every 15 min", …; the trimmed cron string when the form is not a common one. */
export function humaniseCron(frequency: string): string {
  const cron = legacyToCron(frequency.trim());
  const trimmed = cron.trim();
  if (trimmed === '') return 'no schedule';
  const macro = MACROS.get(trimmed.toLowerCase());
  if (macro) return macro;
  const fields = trimmed.split(/\s+/);
  return (fields.length === 5 && humanise(fields)) || trimmed;
}

/**
 * The one wording of a schedule, in the jobs browser and `floe jobs` alike: the words with the
 * frequency as saved, "monthly, day 1 00:00 (0 0 1 * *)"; the frequency alone when it has no words.
 */
export function scheduleText(frequency: string): string {
  const human = humaniseCron(frequency);
  const saved = frequency.trim();
  return human === saved || saved === '' ? human : `${human} (${saved})`;
}
