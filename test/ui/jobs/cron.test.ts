import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { humaniseCron } from '../../../src/ui/jobs/cron.js';

describe('humaniseCron', () => {
  it.each([
    ['0 */6 * * *', 'every 6 h'],
    ['0 */1 * * *', 'every hour'],
    ['15 */2 * * *', 'every 2 h at :15'],
    ['0 * * * *', 'every hour'],
    ['5 * * * *', 'hourly at :05'],
    ['*/15 * * * *', 'every 15 min'],
    ['* * * * *', 'every minute'],
    ['0 2 * * *', 'daily 02:00'],
    ['30 14 * * *', 'daily 14:30'],
    ['0 2 * * 1-5', 'weekdays 02:00'],
    ['0 9 * * 1', 'Mondays 09:00'],
    ['0 9 * * sun', 'Sundays 09:00'],
    ['0 9 * * 7', 'Sundays 09:00'],
    ['0 3 1 * *', 'monthly, day 1 03:00'],
    ['@daily', 'daily 00:00'],
    ['@hourly', 'every hour'],
    ['  0  2 * * *  ', 'daily 02:00'],
    ['', 'no schedule'],
  ])('%j → %s', (cron, human) => {
    expect(humaniseCron(cron)).toBe(human);
  });

  it.each([
    '0 2 * 1 *',
    '0 2,14 * * *',
    '0 0 12 * * ?',
    '61 * * * *',
    '0 25 * * *',
    '*/0 * * * *',
    'every day',
    '0 9 1 * 1',
    'constructor',
    '__proto__',
  ])('falls back to the cron string for %j', (cron) => {
    expect(humaniseCron(cron)).toBe(cron);
  });

  it('says every N min for any step of minutes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 59 }), (step) => {
        expect(humaniseCron(`*/${step} * * * *`)).toBe(`every ${step} min`);
      }),
    );
  });

  it('says daily HH:MM for any fixed time of day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), (hour, minute) => {
        const text = humaniseCron(`${minute} ${hour} * * *`);
        expect(text).toBe(`daily ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`);
      }),
    );
  });

  it('never throws and never answers empty: a known form or the trimmed input', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (cron) => {
        const text = humaniseCron(cron);
        expect(text.length).toBeGreaterThan(0);
        if (text !== cron.trim())
          expect(text).toMatch(
            /^(every|hourly|daily|weekdays|weekends|monthly|yearly|no schedule|[A-Z][a-z]+days )/,
          );
      }),
    );
  });
});
