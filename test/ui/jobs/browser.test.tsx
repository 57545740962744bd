import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManagementError } from '../../../src/management/types.js';
import {
  FakeApi,
  KEY,
  makeJob,
  makeTask,
  mount,
  NOW,
  neverRan,
  SOURCE_PASSWORD,
  selectedRow,
  unmountAll,
} from './support.js';

afterEach(() => {
  unmountAll();
  vi.useRealTimers();
});

/** Names in the table, top to bottom. */
function jobLines(frame: string) {
  return frame
    .split('\n')
    .map((line) => /^[› ] (\S+)/.exec(line)?.[1])
    .filter((name) => name !== undefined && name !== 'NAME');
}

function sample() {
  return new FakeApi([
    makeJob(1, { name: 'orders_to_lake', advanced_settings: { max_discover_threads: 50 } }),
    makeJob(2, {
      name: 'crm_contacts',
      source: { id: 5, name: 'mysql-crm', type: 'mysql', version: 'v0.9.4' },
      frequency: '*/15 * * * *',
      last_run_state: 'Failed',
      last_run_time: '2026-08-20T11:45:00Z',
      activate: false,
    }),
    neverRan(3, { name: 'audit_log', frequency: '0 2 * * *' }),
    makeJob(4, { name: 'payments', frequency: '7 4 1,15 * *', last_run_state: 'Running' }),
  ]);
}

describe('list', () => {
  it('shows every job with route, frequency, last run (glyph and word), when and active/paused', async () => {
    const m = await mount({ api: sample() });
    const frame = m.frame();
    expect(frame).toContain('floe jobs · project 1 · 4 jobs · sort name');
    expect(frame).toContain('updated 0s ago');
    const rows = frame.split('\n');
    const row = (name: string) => rows.find((line) => line.includes(name)) ?? '';
    expect(row('orders_to_lake')).toMatch(
      /postgres → iceberg\s+every 6 h\s+✓ completed\s+3 h ago\s+● active/,
    );
    expect(row('crm_contacts')).toMatch(/mysql → iceberg\s+every 15 min\s+✗ failed\s+15 min ago\s+○ paused/);
    expect(row('audit_log')).toMatch(/daily 02:00\s+– never\s+never\s+● active/);
    expect(row('payments')).toMatch(/7 4 1,15 \* \*\s+● running/);
    expect(selectedRow(frame)).toContain('audit_log');
    expect(frame).toMatch(/↑↓ move\s+\/ filter\s+s sort\s+Enter open/);
  });

  it('moves with arrows, j/k, g/G, Home/End and pages', async () => {
    const m = await mount({ api: sample() });
    await m.press('j');
    expect(selectedRow(m.frame())).toContain('crm_contacts');
    await m.press(KEY.down, KEY.down);
    expect(selectedRow(m.frame())).toContain('payments');
    await m.press(KEY.down);
    expect(selectedRow(m.frame())).toContain('payments');
    await m.press('k', KEY.up);
    expect(selectedRow(m.frame())).toContain('crm_contacts');
    await m.press('G');
    expect(selectedRow(m.frame())).toContain('payments');
    await m.press('g');
    expect(selectedRow(m.frame())).toContain('audit_log');
    await m.press(KEY.end);
    expect(selectedRow(m.frame())).toContain('payments');
    await m.press(KEY.home);
    expect(selectedRow(m.frame())).toContain('audit_log');
    await m.press(KEY.pageDown);
    expect(selectedRow(m.frame())).toContain('payments');
    await m.press(KEY.pageUp);
    expect(selectedRow(m.frame())).toContain('audit_log');
  });

  it('filters with / as you type, Enter keeps the filter, Esc clears it', async () => {
    const m = await mount({ api: sample() });
    await m.press('/', 'crm');
    expect(m.frame()).toContain('/crm');
    expect(m.frame()).toContain('1/4 jobs');
    expect(m.frame()).toContain('crm_contacts');
    expect(m.frame()).not.toContain('orders_to_lake');
    await m.press(KEY.enter);
    expect(m.frame()).toContain('filter: crm, matched in name 1, source 1 (Esc clears)');
    expect(m.frame()).not.toContain('orders_to_lake');
    await m.press(KEY.escape);
    expect(m.frame()).toContain('orders_to_lake');
    expect(m.frame()).toContain('4 jobs');
    expect(m.frame()).not.toContain('filter:');
  });

  it('filters by source and destination too, and Esc while typing clears', async () => {
    const m = await mount({ api: sample() });
    await m.press('/', 'MYSQL');
    expect(m.frame()).toContain('crm_contacts');
    expect(m.frame()).not.toContain('payments');
    await m.press(KEY.escape);
    expect(m.frame()).toContain('payments');
    await m.press('/', 'nothing-like-this');
    expect(m.frame()).toContain('No job matches “nothing-like-this”');
    await m.press(KEY.escape, '/', 'payments\r');
    expect(m.frame()).toContain('filter: payments, matched in name 1 (Esc clears)');
    expect(jobLines(m.frame())).toEqual(['payments']);
  });

  // Issue 30, item 4: /events matched jobs by their source's name without saying so.
  it('says which field the filter matched: source, source type, last run', async () => {
    const m = await mount({ api: sample() });
    await m.press('/', 'mysql', KEY.enter);
    expect(jobLines(m.frame())).toEqual(['crm_contacts']);
    expect(m.frame()).toContain('filter: mysql, matched in source 1, source type 1 (Esc clears)');
    await m.press(KEY.escape, '/', 'failed', KEY.enter);
    expect(jobLines(m.frame())).toEqual(['crm_contacts']);
    expect(m.frame()).toContain('filter: failed, matched in last run 1 (Esc clears)');
  });

  it('keeps keys typed ahead of the screen: / then a name, P then a project', async () => {
    const api = sample();
    const m = await mount({ api });
    await m.typeAhead('/', 'crm', '\r', 'j');
    expect(m.frame()).toContain('filter: crm, matched in name 1, source 1 (Esc clears)');
    expect(jobLines(m.frame())).toEqual(['crm_contacts']);
    await m.typeAhead(KEY.escape);
    await m.typeAhead('P', KEY.backspace, '9', KEY.enter);
    expect(api.calls.at(-1)).toBe('listJobs 9');
  });

  it('cycles the sort with s: name, last run, state', async () => {
    const m = await mount({ api: sample() });
    await m.press('s');
    expect(m.frame()).toContain('sort last run');
    const names = () => jobLines(m.frame());
    expect(names()).toEqual(['crm_contacts', 'orders_to_lake', 'payments', 'audit_log']);
    await m.press('s');
    expect(m.frame()).toContain('sort state');
    expect(names()).toEqual(['crm_contacts', 'payments', 'orders_to_lake', 'audit_log']);
    await m.press('s');
    expect(m.frame()).toContain('sort name');
    expect(names()).toEqual(['audit_log', 'crm_contacts', 'orders_to_lake', 'payments']);
  });

  it('shows a help overlay with ? and closes it with Esc', async () => {
    const m = await mount({ api: sample() });
    await m.press('?');
    expect(m.frame()).toContain('cancel the running sync');
    expect(m.frame()).toContain('switch project');
    await m.press(KEY.escape);
    expect(m.frame()).not.toContain('cancel the running sync');
    expect(m.frame()).toContain('orders_to_lake');
  });

  it('quits with q (0) and Ctrl-C (130)', async () => {
    const m = await mount({ api: sample() });
    await m.press('q');
    expect(m.exits).toEqual([0]);
    const n = await mount({ api: sample() });
    await n.press('/', 'ab', KEY.ctrlC);
    expect(n.exits).toEqual([130]);
    const o = await mount({ api: sample() });
    await o.press('/', `ab${KEY.ctrlC}`);
    expect(o.exits).toEqual([130]);
  });

  it('R refreshes and P switches project', async () => {
    const api = sample();
    const m = await mount({ api });
    await m.press('R');
    expect(api.calls.filter((call) => call === 'listJobs 1')).toHaveLength(2);
    await m.press('P');
    expect(m.frame()).toContain('Project: 1');
    await m.press(KEY.backspace, '42', KEY.enter);
    expect(api.calls.at(-1)).toBe('listJobs 42');
    expect(m.frame()).toContain('project 42');
  });

  it('refreshes on its own every refreshMs, keeping the selected job by id', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const api = sample();
    const m = await mount({ api, refreshMs: 10_000 });
    await m.press('j');
    expect(selectedRow(m.frame())).toContain('crm_contacts');
    api.jobs.unshift(makeJob(9, { name: 'aaa_first' }));
    await act(async () => {
      vi.advanceTimersByTime(10_000);
    });
    await m.settle();
    expect(m.frame()).toContain('aaa_first');
    expect(selectedRow(m.frame())).toContain('crm_contacts');
    expect(api.calls.filter((call) => call === 'listJobs 1')).toHaveLength(2);
    await m.press('/', 'x');
    await act(async () => {
      vi.advanceTimersByTime(30_000);
    });
    await m.settle();
    expect(api.calls.filter((call) => call === 'listJobs 1')).toHaveLength(2);
  });
});

describe('detail', () => {
  function withHistory() {
    const api = sample();
    api.tasks.set(1, [
      makeTask(1),
      makeTask(2, { status: 'Failed', runtime: '12s' }),
      makeTask(3, { status: 'Running' }),
    ]);
    api.logs.set(
      makeTask(1).file_path,
      Array.from({ length: 40 }, (_, i) => ({
        level: i === 39 ? 'error' : 'info',
        time: `2026-08-19T01:00:${String(i).padStart(2, '0')}Z`,
        message: `log line ${String(i).padStart(2, '0')}`,
      })),
    );
    return api;
  }

  async function openOrders(api: FakeApi) {
    const m = await mount({ api });
    await m.press('/', 'orders', KEY.enter, KEY.enter);
    return m;
  }

  it('shows every field, advanced settings and who created/updated it, but never endpoint configs', async () => {
    const m = await openOrders(withHistory());
    const frame = m.frame();
    expect(frame).toContain('orders_to_lake #1');
    expect(frame).toMatch(/Source\s+pg-prod \(postgres v0\.9\.4 #2\)/);
    expect(frame).toMatch(/Destination\s+iceberg-rest \(iceberg v0\.9\.4 #1\)/);
    expect(frame).toMatch(/Frequency\s+every 6 h \(0 \*\/6 \* \* \*\)/);
    expect(frame).toMatch(/Status\s+● active/);
    expect(frame).toMatch(/Last run\s+✓ completed · sync · 2026-08-20T09:00:00Z \(3 h ago\)/);
    expect(frame).toMatch(/Created\s+2026-08-01T10:15:30Z \(19 d ago\) by admin/);
    expect(frame).toMatch(/Updated\s+2026-08-02T11:00:00Z \(18 d ago\) by alice/);
    expect(frame).toMatch(/Advanced\s+max_discover_threads=50/);
    expect(frame).toMatch(/Streams\s+3 selected/);
    expect(m.frames().some((f) => f.includes(SOURCE_PASSWORD))).toBe(false);
  });

  it('lists the task history and goes back with Esc to the same job', async () => {
    const api = withHistory();
    const m = await openOrders(api);
    expect(api.calls).toContain('listTasks 1 1');
    const frame = m.frame();
    expect(frame).toContain('Runs (3)');
    expect(frame).toMatch(/› ✓ completed\s+sync\s+2026-08-19T01:00:01Z\s+2m30s/);
    expect(frame).toMatch(/✗ failed\s+sync\s+2026-08-19T02:00:01Z\s+12s/);
    expect(frame).toMatch(/● running/);
    await m.press('j');
    expect(selectedRow(m.frame())).toContain('failed');
    await m.press(KEY.escape);
    expect(m.frame()).toContain('filter: orders');
    expect(selectedRow(m.frame())).toContain('orders_to_lake');
  });

  it('says so when a job never ran', async () => {
    const m = await mount({ api: sample() });
    await m.press(KEY.enter);
    expect(m.frame()).toContain('audit_log #3');
    expect(m.frame()).toMatch(/Last run\s+– never/);
    expect(m.frame()).toContain('This job has not run yet.');
  });

  it('pages logs older and newer with [ ] and PgUp/PgDn in the log pane', async () => {
    const api = withHistory();
    const m = await openOrders(api);
    await m.press(KEY.enter);
    let frame = m.frame();
    expect(frame).toContain('log line 39');
    expect(frame).toContain('log line 31');
    expect(frame).not.toContain('log line 30');
    expect(frame).toContain('] newer (none)');
    await m.press('[');
    frame = m.frame();
    expect(frame).toContain('log line 22');
    expect(frame).toContain('log line 30');
    expect(frame).not.toContain('log line 31');
    expect(api.calls.at(-1)).toBe(`taskLogs 1 1 ${makeTask(1).file_path} older 31`);
    await m.press(KEY.pageUp, KEY.pageUp, KEY.pageUp);
    frame = m.frame();
    expect(frame).toContain('log line 00');
    expect(frame).toContain('[ older (none)');
    await m.press(']');
    expect(m.frame()).toContain('log line 04');
    expect(m.frame()).toContain('log line 12');
    expect(api.calls.at(-1)).toBe(`taskLogs 1 1 ${makeTask(1).file_path} newer 4`);
    await m.press(KEY.pageDown);
    expect(m.frame()).toContain('log line 13');
    await m.press(KEY.tab);
    expect(m.frame()).toContain('2026-08-19T02:00:01Z');
  });
});

describe('actions', () => {
  async function onCrm(api: FakeApi) {
    const m = await mount({ api });
    await m.press('j');
    expect(selectedRow(m.frame())).toContain('crm_contacts');
    return m;
  }

  it.each([
    ['n', 'Start a sync of “orders_to_lake” now? y/N', 'syncNow 1 1', 'Sync started: run sync-now-1-'],
    [
      'p',
      'Pause “orders_to_lake”?',
      'setActive 1 1 false',
      'Paused the schedule of job 1 (orders_to_lake) · the OLake UI said: job 1 paused successfully',
    ],
    [
      'c',
      'Cancel the running sync of “payments”?',
      'cancelRun 1 4',
      'Cancel requested for job 4 (payments) · the OLake UI said: job workflow cancel requested',
    ],
  ])(
    '%s asks to confirm naming the job, y performs and says so, the server message as detail',
    async (key, question, call, message) => {
      const api = sample();
      const m = await mount({ api });
      await m.press('/', key === 'c' ? 'payments' : 'orders', KEY.enter, key);
      expect(m.frame()).toContain(question);
      expect(api.calls).not.toContain(call);
      await m.press('y');
      expect(api.calls).toContain(call);
      expect(m.frame()).toContain(`✓ ${message}`);
    },
  );

  it.each([
    ['n', 'n'],
    ['Esc', KEY.escape],
    ['Enter', KEY.enter],
  ])('%s at the confirmation does nothing', async (_, answer) => {
    const api = sample();
    const m = await mount({ api });
    const before = api.calls.length;
    await m.press('n');
    expect(m.frame()).toContain('Start a sync of “audit_log” now? y/N');
    await m.press(answer);
    expect(api.calls.slice(before)).toEqual([]);
    expect(m.frame()).not.toContain('y/N');
    expect(m.frame()).toContain('audit_log');
  });

  it('shows a paused job’s sync error verbatim', async () => {
    const api = sample();
    const m = await onCrm(api);
    await m.press('n', 'y');
    expect(api.calls).toContain('syncNow 1 2');
    expect(m.frame()).toContain('✗ failed to trigger sync: job is paused, please unpause to run sync');
  });

  it('p on a paused job resumes it, and the refreshed list shows it active', async () => {
    const api = sample();
    const m = await onCrm(api);
    await m.press('p');
    expect(m.frame()).toContain('Resume “crm_contacts”? y/N');
    await m.press('y');
    expect(api.calls).toContain('setActive 1 2 true');
    expect(m.frame()).toContain('✓ Resumed the schedule of job 2 (crm_contacts)');
    expect(selectedRow(m.frame())).toContain('● active');
  });

  it('acts on the job shown in the detail view', async () => {
    const api = sample();
    const m = await onCrm(api);
    await m.press(KEY.enter, 'p');
    expect(m.frame()).toContain('Resume “crm_contacts”? y/N');
    await m.press('y');
    expect(api.calls).toContain('setActive 1 2 true');
    expect(m.frame()).toContain('crm_contacts #2');
  });

  it('offers and accepts c only while a sync runs', async () => {
    const api = sample();
    const m = await mount({ api });
    await m.press('/', 'orders', KEY.enter);
    expect(m.frame()).toMatch(/n\/p actions/);
    expect(m.frame()).not.toContain('n/p/c');
    await m.press('c');
    expect(m.frame()).toContain('! Nothing is running for “orders_to_lake”: c cancels a running sync');
    expect(m.frame()).not.toContain('y/N');
    expect(api.calls.filter((call) => call.startsWith('cancelRun'))).toEqual([]);
    await m.press(KEY.escape, '/', 'payments', KEY.enter);
    expect(m.frame()).toMatch(/n\/p\/c actions/);
  });

  it('in the detail, a running run in the runs list makes c cancel it', async () => {
    const api = sample();
    api.tasks.set(1, [makeTask(1, { status: 'Running' })]);
    const m = await mount({ api });
    await m.press('/', 'orders', KEY.enter, KEY.enter);
    expect(m.frame()).toMatch(/n\/p\/c actions/);
    await m.press('c');
    expect(m.frame()).toContain('Cancel the running sync of “orders_to_lake”? y/N');
    await m.press('y');
    expect(api.calls).toContain('cancelRun 1 1');
  });
});

describe('states', () => {
  it('loading, then the list', async () => {
    const api = sample();
    let release: () => void = () => {};
    api.hold = new Promise((resolve) => {
      release = resolve;
    });
    const m = await mount({ api });
    expect(m.frame()).toContain('Loading the jobs of project 1…');
    release();
    await m.settle();
    expect(m.frame()).toContain('orders_to_lake');
  });

  it('an empty project', async () => {
    const m = await mount({ api: new FakeApi([]) });
    expect(m.frame()).toContain('No jobs in project 1 yet.');
    expect(m.frame()).toMatch(/R refresh\s+P project\s+q quit/);
  });

  it('a server error with its message and R to retry', async () => {
    const api = sample();
    api.listError = new ManagementError(
      'server',
      'failed to list jobs: pq: relation "job" does not exist',
      500,
    );
    const m = await mount({ api });
    expect(m.frame()).toContain('✗ The server answered with an error');
    expect(m.frame()).toContain('failed to list jobs: pq: relation "job" does not exist');
    expect(m.frame()).toContain('R to retry');
    api.listError = undefined;
    let release: () => void = () => {};
    api.hold = new Promise((resolve) => {
      release = resolve;
    });
    await m.press('R');
    expect(m.frame()).toContain('Retrying…');
    release();
    await m.settle();
    expect(m.frame()).toContain('orders_to_lake');
  });

  it('a network error', async () => {
    const api = sample();
    api.listError = new ManagementError('network', 'connect ECONNREFUSED 127.0.0.1:8000');
    const m = await mount({ api });
    expect(m.frame()).toContain('✗ Cannot reach the OLake server');
    expect(m.frame()).toContain('connect ECONNREFUSED 127.0.0.1:8000');
    expect(m.frame()).toContain('R to retry');
  });

  it('an unknown project', async () => {
    const api = sample();
    api.listError = new ManagementError('not-found', 'project not found', 404);
    const m = await mount({ api });
    expect(m.frame()).toContain('✗ Project 1 was not found');
  });

  it('a failed refresh keeps the list and says so on the status line', async () => {
    const api = sample();
    const m = await mount({ api });
    api.listError = new ManagementError('network', 'connect ECONNREFUSED 127.0.0.1:8000');
    await m.press('R');
    expect(m.frame()).toContain('orders_to_lake');
    expect(m.frame()).toContain('✗ Refresh failed: connect ECONNREFUSED 127.0.0.1:8000 (R to retry)');
  });

  it('the "updated Ns ago" stamp ticks with the clock', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let now = NOW;
    const m = await mount({ api: sample(), now: () => now, tickMs: 1000 });
    expect(m.frame()).toContain('updated 0s ago');
    now += 7_000;
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(m.frame()).toContain('updated 7s ago');
  });
});
