// The jobs list's columns at narrow and wide terminals: NAME is served first, the other columns give
// way in a fixed order, and a wide terminal leaves blank what nothing needs.
import { describe, expect, it } from 'vitest';
import { tableLayout } from '../../../src/ui/jobs/JobTable.js';

const total = (l: ReturnType<typeof tableLayout>) =>
  2 + l.nameWidth + l.routeWidth + l.freqWidth + l.runWidth + l.activeWidth;

describe('jobs table layout', () => {
  it('at 60 columns keeps a long name whole up to 24 and leaves out STATUS and FREQUENCY instead', () => {
    const l = tableLayout(60, 40);
    expect(l).toMatchObject({ nameWidth: 26, runWidth: 13, routeWidth: 19, activeWidth: 0, freqWidth: 0 });
    expect(total(l)).toBe(60);
  });

  it('at 60 columns gives a short name only what it needs', () => {
    const l = tableLayout(60, 9);
    expect(l.nameWidth).toBe(10);
    expect(l).toMatchObject({ runWidth: 13, routeWidth: 19, activeWidth: 9, freqWidth: 0 });
  });

  it('at 80 columns shows every column with names of 23 characters', () => {
    const l = tableLayout(80, 40);
    expect(l).toMatchObject({ nameWidth: 24, routeWidth: 19, freqWidth: 13, runWidth: 13, activeWidth: 9 });
    expect(total(l)).toBe(80);
  });

  it('at 120 columns shows the cron expression and the state word, the rest to long names', () => {
    const l = tableLayout(120, 60);
    expect(l).toMatchObject({ wide: true, compact: false, freqWidth: 28, runWidth: 23, nameWidth: 39 });
    expect(total(l)).toBe(120);
  });

  it('at 200 columns gives NAME its longest name and leaves the rest blank', () => {
    const l = tableLayout(200, 17);
    expect(l.nameWidth).toBe(18);
    expect(l).toMatchObject({ routeWidth: 19, freqWidth: 28, runWidth: 23, activeWidth: 9 });
    expect(total(l)).toBe(99);
  });

  it('never lays out wider than the terminal, down to 20 columns', () => {
    for (let columns = 20; columns <= 240; columns++)
      for (const longest of [1, 8, 23, 24, 60, 300]) {
        const l = tableLayout(columns, longest);
        expect(total(l), `${columns} columns, names of ${longest}`).toBeLessThanOrEqual(
          Math.max(columns, 10),
        );
        expect(l.nameWidth).toBeGreaterThanOrEqual(Math.min(8, columns - 2));
      }
  });
});
