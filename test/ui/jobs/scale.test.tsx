import { afterEach, describe, expect, it } from 'vitest';
import { ManagementError } from '../../../src/management/types.js';
import {
  FakeApi,
  jobRows,
  KEY,
  makeJob,
  makeTask,
  mount,
  neverRan,
  selectedRow,
  unmountAll,
} from './support.js';

afterEach(unmountAll);

function manyJobs(count: number) {
  return new FakeApi(
    Array.from({ length: count }, (_, i) =>
      i % 7 === 0
        ? neverRan(i + 1)
        : makeJob(i + 1, { last_run_state: i % 5 === 0 ? 'Failed' : 'Completed', activate: i % 3 !== 0 }),
    ),
  );
}

describe('10,000 jobs', () => {
  it('renders only the rows that fit the terminal, and filtering narrows them', async () => {
    const m = await mount({ api: manyJobs(10_000) });
    expect(m.frame()).toContain('10000 jobs');
    // 24 rows: title, table header, status line, footer and the spare last row leave 19 for jobs.
    expect(jobRows(m.frame())).toHaveLength(19);
    expect(jobRows(m.frame())[0]).toContain('job-00001');
    expect(jobRows(m.frame())[18]).toContain('job-00019');
    await m.press('G');
    expect(selectedRow(m.frame())).toContain('job-10000');
    expect(jobRows(m.frame())).toHaveLength(19);
    await m.press('/', 'job-0999');
    expect(m.frame()).toContain('10/10000 jobs');
    expect(jobRows(m.frame())).toHaveLength(10);
    expect(jobRows(m.frame()).every((row) => row.includes('job-0999'))).toBe(true);
    await m.press('5');
    expect(jobRows(m.frame())).toHaveLength(1);
    expect(selectedRow(m.frame())).toContain('job-09995');
  });

  it('follows the terminal height, and its resizes', async () => {
    const m = await mount({ api: manyJobs(10_000) }, { rows: 40 });
    expect(jobRows(m.frame())).toHaveLength(35);
    expect(m.frame().split('\n').length).toBeLessThanOrEqual(39);
    await m.press(KEY.pageDown);
    expect(selectedRow(m.frame())).toContain('job-00036');
    await m.resize(100, 24);
    expect(jobRows(m.frame())).toHaveLength(19);
    expect(selectedRow(m.frame())).toContain('job-00036');
  });
});

describe('80 columns', () => {
  const fits = (frame: string, loaded = true) => {
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThanOrEqual(23);
    expect(lines[0]).toMatch(loaded ? /^floe jobs · project 1.* updated 0s ago$/ : /^floe jobs · project 1/);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
  };

  it('never lets a line pass 80 columns or wrap, on any screen', async () => {
    const long = 'a_really_long_job_name_that_goes_on_and_on_well_past_eighty_columns_of_terminal_width';
    const api = new FakeApi([
      makeJob(1, {
        name: long,
        source: { name: 'a-very-long-source-name', type: 'postgres', version: 'v0.9.4' },
        destination: { name: 'a-very-long-destination-name', type: 'iceberg', version: 'v0.9.4' },
        frequency: '0 9 * * 1',
        advanced_settings: { max_discover_threads: 50, note: 'x'.repeat(200) },
      }),
      makeJob(2, { last_run_state: 'WORKFLOW_EXECUTION_STATUS_TERMINATED' }),
      neverRan(3, { activate: false }),
    ]);
    api.tasks.set(1, [makeTask(1), makeTask(2, { status: 'Failed' })]);
    api.logs.set(makeTask(1).file_path, [
      { level: 'error', time: '2026-08-19T01:00:01Z', message: `writer failed: ${'y'.repeat(300)}` },
    ]);
    const m = await mount({ api }, { columns: 80 });
    fits(m.frame());
    // Below 100 columns the state is its glyph next to the time, leaving the name 23 characters.
    expect(m.frame()).toMatch(
      /› a_really_long_job_name… postgres → iceberg Mondays 09:… ✓ 3 h ago +● active/,
    );
    expect(m.frame()).toMatch(/job-00003 .* – never +○ paused/);
    expect(m.frame()).toMatch(
      /↑↓ move\s+\/ filter\s+s sort\s+Enter open\s+n\/p actions\s+R refresh\s+\? help\s+q quit/,
    );
    await m.press('n');
    fits(m.frame());
    expect(m.frame()).toContain('? Start a sync of “a_really_long_job_name_that_goes_o…” now? y/N');
    await m.press(KEY.escape, '?');
    fits(m.frame());
    await m.press(KEY.escape, KEY.enter);
    expect(m.frame()).toContain('Runs (2)');
    fits(m.frame());
    await m.press(KEY.enter);
    expect(m.frame()).toContain('writer failed');
    fits(m.frame());
    await m.press(KEY.escape, 'P');
    fits(m.frame());
    api.listError = new ManagementError('network', `connect ECONNREFUSED ${'z'.repeat(120)}`);
    await m.press(KEY.escape, 'R');
    fits(m.frame());
    for (const frame of m.frames()) fits(frame, false);
  });
});
