// The Logs pane as a troubleshooter uses it at 80 columns: wrapped lines, one line whole, search,
// following a running run, and a failed run's diagnosis on top.
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogLine, Task } from '../../../src/management/types.js';
import { FakeApi, KEY, makeJob, makeTask, mount, settle, unmountAll } from './support.js';

afterEach(() => unmountAll());

const CAUSE =
  'failed to write records: rpc error: code = Internal desc = Failed to process request: org.apache.iceberg.exceptions.NotAuthorizedException: Not authorized: token expired';
const FAILED = makeTask(2, { status: 'Failed' });
const RUNNING = makeTask(3, { status: 'Running', file_path: 'sync-running' });

function line(i: number, message: string, level = 'info'): LogLine {
  return { level, time: `2026-08-19T02:00:${String(i).padStart(2, '0')}Z`, message };
}

function api() {
  const fake = new FakeApi([makeJob(1, { name: 'orders_to_lake' })]);
  fake.tasks.set(1, [RUNNING, FAILED]);
  fake.logs.set(FAILED.file_path, [
    line(0, 'Starting sync for job orders_to_lake'),
    line(1, 'Stream public.orders: wrote 120 records to Iceberg'),
    line(2, 'Retrying commit after a transient error (1/3)', 'warn'),
    line(3, CAUSE, 'error'),
  ]);
  fake.logs.set(RUNNING.file_path, [line(0, 'Starting sync'), line(1, 'Stream public.orders: running')]);
  return fake;
}

/** Waits (up to 5 s, polling every 50 ms) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++)
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
  await settle();
}

/** Opens job 1 and the run `down` rows below the newest. */
async function openRun(fake: FakeApi, down: number, extra: Record<string, unknown> = {}) {
  const m = await mount({ api: fake, ...extra }, { columns: 80, rows: 24 });
  await m.press(KEY.enter);
  for (let i = 0; i < down; i++) await m.press('j');
  await m.press(KEY.enter);
  return m;
}

describe('the detail at 80x24', () => {
  it('shows every field and a one-line footer', async () => {
    const m = await mount({ api: api() }, { columns: 80, rows: 24 });
    await m.press(KEY.enter);
    const lines = m.frame().trimEnd().split('\n');
    expect(lines[1]).toMatch(/^Source /);
    expect(lines.at(-1)).toMatch(/^Esc back .* t test {2}b tables {2}\? help$/);
    expect(lines.every((line) => line.length <= 80)).toBe(true);
  });
});

describe('the Logs pane', () => {
  it('wraps a failing line so its cause shows at 80 columns; w cuts lines again', async () => {
    const m = await openRun(api(), 1);
    expect(m.frame()).toContain('NotAuthorizedException: Not authorized: token');
    expect(m.frame().trimEnd().split('\n').at(-1)).toMatch(/^Esc back .* \? help$/);
    await m.press('w');
    expect(m.frame()).not.toContain('NotAuthorizedException');
    expect(m.frame()).toContain('› 2026-08-19T02:00:03Z error');
  });

  it('shows the diagnosis of a failed run on top', async () => {
    const m = await openRun(api(), 1);
    expect(m.frame()).toContain('✗ RUN_TOKEN_EXPIRED: The catalog rejected the writer’s token as expired');
    expect(m.frame()).toMatch(/Remedy: Give the destination OAuth2 client credentials/);
  });

  it('opens the selected line whole with Enter, scrolls it, and goes back with Esc', async () => {
    const m = await openRun(api(), 1);
    await m.press('w', 'k', 'k', KEY.enter);
    expect(m.frame()).toContain('2026-08-19T02:00:01Z INFO · line in full');
    expect(m.frame()).toContain('Stream public.orders: wrote 120 records to Iceberg');
    await m.press(KEY.escape);
    expect(m.frame()).not.toContain('line in full');
    expect(m.frame()).toContain('Runs');
  });

  it('searches with / and moves to the matching line', async () => {
    const m = await openRun(api(), 1);
    await m.press('w', '/', 'retrying');
    expect(m.frame()).toContain('search /retrying');
    await m.press(KEY.enter);
    expect(m.frame()).toContain('› 2026-08-19T02:00:02Z warn  Retrying commit');
    expect(m.frame()).toContain('· /retrying');
    await m.press(KEY.escape);
    expect(m.frame()).not.toContain('· /retrying');
  });

  it('follows a running run with f: new lines appear as they are written', async () => {
    const fake = api();
    const m = await openRun(fake, 0, { followMs: 5 });
    await m.press('f');
    expect(m.frame()).toContain('following (f stops)');
    fake.logs.get(RUNNING.file_path)?.push(line(2, 'Stream public.orders: wrote 77 records'));
    for (let i = 0; i < 50 && !m.frame().includes('wrote 77 records'); i++)
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
      });
    await settle();
    expect(m.frame()).toContain('wrote 77 records');
    expect(m.frame().match(/Stream public\.orders: running/g)).toHaveLength(1);
    await m.press('f');
    expect(m.frame()).not.toContain('following');
  });

  // Issue 19, item 6: the follow view ends with the run, as `floe jobs logs --follow` does.
  it('stops following when the run ends, reading its last lines and showing its final status', async () => {
    const fake = api();
    const m = await openRun(fake, 0, { followMs: 5 });
    await m.press('f');
    expect(m.frame()).toContain('following (f stops)');
    fake.logs.get(RUNNING.file_path)?.push(line(2, 'Sync completed: 120 records'));
    fake.tasks.set(1, [{ ...RUNNING, status: 'Completed' }, FAILED]);
    for (let i = 0; i < 50 && m.frame().includes('following (f stops)'); i++)
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
      });
    await settle();
    expect(m.frame()).not.toContain('following (f stops)');
    expect(m.frame()).toContain('Sync completed: 120 records');
    expect(m.frame()).toMatch(/Run \S+ Completed/);
    expect(m.frame()).toContain('✓ Run ended: Completed; following stopped.');
  });

  // Issue 30, item 4: a failed end is a ✗, not a ✓.
  it('ends a failed run with a ✗', async () => {
    const fake = api();
    const m = await openRun(fake, 0, { followMs: 5 });
    await m.press('f');
    fake.tasks.set(1, [{ ...RUNNING, status: 'Failed' }, FAILED]);
    for (let i = 0; i < 50 && m.frame().includes('following (f stops)'); i++)
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
      });
    await settle();
    expect(m.frame()).toContain('✗ Run ended: Failed; following stopped.');
    expect(m.frame()).not.toContain('✓ Run ended');
  });
});

describe('t: test the job’s destination', () => {
  it('prepares the server copy, shows the connection test screen, and Esc returns to the job', async () => {
    const { fromDestinationJson } = await import('../../../src/destination/olake.js');
    const { validate } = await import('../../../src/destination/schema.js');
    const writer = {
      catalog_type: 'rest',
      rest_catalog_url: 'http://127.0.0.1:1/catalog',
      iceberg_s3_path: 's3://warehouse',
      aws_region: 'us-east-1',
      token: 'tok',
      rest_auth_type: 'oauth2',
    };
    const config = JSON.stringify({ type: 'ICEBERG', writer });
    const checked = validate(fromDestinationJson({ type: 'ICEBERG', writer }).values);
    if (!checked.ok) throw new Error('bad fixture');
    const prepared: string[] = [];
    const fake = new FakeApi([
      makeJob(1, {
        name: 'orders_to_lake',
        destination: { id: 1, name: 'iceberg-rest', type: 'iceberg', version: 'v0.9.4', config },
      }),
    ]);
    const m = await mount(
      {
        api: fake,
        prepareTest: async (job) => {
          prepared.push(job.destination.config ?? '');
          return {
            values: checked.values,
            title: 'job 1 · iceberg-rest',
            notes: ['Testing…', 'no other key differs.'],
          };
        },
      },
      { columns: 80, rows: 24 },
    );
    await m.press(KEY.enter, 't');
    expect(prepared).toEqual([config]);
    for (let i = 0; i < 400 && !m.frame().includes('Esc/q back'); i++)
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 25));
      });
    expect(m.frame()).toContain('Connection test');
    expect(m.frame()).toContain('job 1 · iceberg-rest');
    expect(m.frame()).toContain('Esc/q back');
    expect(m.frame()).toMatch(/CATALOG_CONNECTION_REFUSED/);
    await m.press(KEY.escape);
    expect(m.frame()).toContain('orders_to_lake #1');
    expect(m.frame()).toContain('no other key differs.');
  });
  it('asks for missing secrets only while the job’s detail is open', async () => {
    const config = JSON.stringify({ type: 'ICEBERG', writer: { credential: '' } });
    let answer: (missing: { missing: { key: string; label: string }[] }) => void = () => {};
    const fake = new FakeApi([
      makeJob(1, {
        name: 'orders_to_lake',
        destination: { id: 1, name: 'iceberg-rest', type: 'iceberg', version: 'v0.9.4', config },
      }),
    ]);
    const m = await mount(
      {
        api: fake,
        prepareTest: () =>
          new Promise((resolve) => {
            answer = resolve;
          }),
      },
      { columns: 80, rows: 24 },
    );
    await m.press(KEY.enter, 't', KEY.escape);
    await act(async () => answer({ missing: [{ key: 'credential', label: 'REST Credential' }] }));
    await m.settle();
    expect(m.frame()).not.toContain('REST Credential:');
    expect(m.frame()).toContain('press t in its job’s detail');
    await m.press(KEY.enter, 't');
    await act(async () => answer({ missing: [{ key: 'credential', label: 'REST Credential' }] }));
    await m.settle();
    expect(m.frame()).toContain('REST Credential:');
  });
});

describe('server text', () => {
  it('reaches the terminal without control sequences (job names, log lines)', async () => {
    const evil = 'orders\u001b]0;pwned\u0007\u001b[2J';
    const fake = new FakeApi([makeJob(1, { name: evil })]);
    fake.tasks.set(1, [FAILED]);
    fake.logs.set(FAILED.file_path, [line(0, `boom \u001b[31mred\u001b[0m \u009b2J`, 'error')]);
    const m = await mount({ api: fake }, { columns: 80, rows: 24 });
    await m.press(KEY.enter, KEY.enter);
    const raw = m.r.lastFrame() ?? '';
    expect(m.frame()).toContain('orders^[]0;pwned^G^[[2J');
    expect(m.frame()).toContain('boom ^[[31mred^[[0m ^[[2J');
    expect(raw).not.toContain('\u001b]0;');
    expect(raw).not.toContain('\u001b[2J');
    expect(raw).not.toContain('\u009b');
  });

  // Issue 30, item 4: n in the detail selects the run the sync started and follows it, not the old one.
  it('n in the detail selects the new run and follows its log to a failed end, diagnosed', async () => {
    const fake = api();
    fake.tasks.set(1, [FAILED]);
    // FakeApi.syncNow names the new run sync-now-<job>-<runs before it>.
    fake.logs.set('sync-now-1-1', [line(0, 'New run: starting sync')]);
    const m = await mount({ api: fake, followMs: 40 }, { columns: 80, rows: 24 });
    await m.press(KEY.enter, 'n');
    expect(m.frame()).toContain('Start a sync of “orders_to_lake” now? y/N');
    await m.press('y');
    await until(() => m.frame().includes('following (f stops)'));
    expect(m.frame()).toContain('following (f stops)');
    expect(m.frame()).toContain('New run: starting sync');
    expect(m.frame()).not.toContain('Retrying commit');
    fake.logs.get('sync-now-1-1')?.push(line(1, CAUSE, 'error'));
    fake.tasks.set(1, [{ ...(fake.tasks.get(1)?.[0] as Task), status: 'Failed' }, FAILED]);
    await until(() => m.frame().includes('✗ RUN_TOKEN_EXPIRED'));
    expect(m.frame()).toContain('✗ Run ended: Failed; following stopped.');
    expect(m.frame()).toContain('✗ RUN_TOKEN_EXPIRED');
    await m.press(KEY.tab);
    expect(m.frame()).toMatch(/^› ✗ failed/m);
    expect(
      m
        .frame()
        .split('\n')
        .filter((row) => /^[› ] [✗●✓]/.test(row)),
    ).toHaveLength(2);
  });

  it('f in Runs follows the selected run', async () => {
    const m = await mount({ api: api(), followMs: 40 }, { columns: 80, rows: 24 });
    await m.press(KEY.enter);
    await m.press('f');
    expect(m.frame()).toContain('following (f stops)');
    expect(m.frame()).toContain('Stream public.orders: running');
  });
});
