// A job's schedule as the longest gap between its runs (what "stale" means for a job's tables).
import { describe, expect, it } from 'vitest';
import { cronPeriodMs } from '../../src/management/schedule.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('cronPeriodMs', () => {
  it.each([
    ['0 * * * *', HOUR],
    ['@hourly', HOUR],
    ['*/15 * * * *', 15 * MIN],
    ['* * * * *', MIN],
    ['0 0 * * *', DAY],
    ['@daily', DAY],
    ['30 2 * * *', DAY],
    ['0 */6 * * *', 6 * HOUR],
    // Uneven steps: 0, 7, 14, 21, then 3 h to the next day's 0: the widest gap is 7 h.
    ['0 */7 * * *', 7 * HOUR],
    // 20:00 to the next 00:00 is 4 h, 00:00 to 20:00 is 20 h.
    ['0 0,20 * * *', 20 * HOUR],
    ['0 9,17 * * *', 16 * HOUR],
    ['0 9 * * 1-5', 3 * DAY],
    ['0 9 * * mon-fri', 3 * DAY],
    ['0 0 * * 0', 7 * DAY],
    ['0 0 * * 7', 7 * DAY],
    ['@weekly', 7 * DAY],
    // January 1 to March 1 across a leap year's February: 31 + 29 days.
    ['0 0 1 * *', 31 * DAY],
    ['@yearly', 366 * DAY],
    // vixie cron: both day fields restricted, either matches (the 1st and every Monday).
    ['0 0 1 * 1', 7 * DAY],
    ['5/20 * * * *', 20 * MIN],
    ['5/25 * * * *', 25 * MIN],
    // olake-ui's older frequencies (utils.ToCron).
    ['6-hours', 6 * HOUR],
    ['15-minutes', 15 * MIN],
    ['  0 * * * *  ', HOUR],
  ])('%s runs at most %d ms apart', (cron, ms) => {
    expect(cronPeriodMs(cron)).toBe(ms);
  });

  it.each([
    '',
    'every hour',
    '0 * * *',
    '0 0 0 * * *',
    '60 * * * *',
    '0 24 * * *',
    '0 0 32 * *',
    '*/0 * * * *',
    '5-1 * * * *',
    '0 0 29 2 *',
    '2-fortnights',
    `${'1,'.repeat(200)}1 * * * *`,
  ])('%j has no period', (cron) => {
    expect(cronPeriodMs(cron)).toBeNull();
  });
});
