import { afterEach, describe, expect, it } from 'vitest';
import { ManagementError } from '../../../src/management/types.js';
import { FakeApi, KEY, makeJob, makeTask, mount, selectedRow, unmountAll } from './support.js';

afterEach(unmountAll);

const PASSWORD = 'hunter2-Xy7!';

function sample() {
  const api = new FakeApi([
    makeJob(1, { name: 'orders_to_lake' }),
    makeJob(2, { name: 'orders_archive' }),
    makeJob(3, { name: 'crm_contacts' }),
    makeJob(4, { name: 'payments' }),
  ]);
  api.tasks.set(2, [makeTask(1), makeTask(2)]);
  return api;
}

/** A relogin like the real one: a remembered password or none, and the server's 401 for a wrong one. */
function relogin(api: FakeApi, remembered: boolean) {
  const calls: (string | undefined)[] = [];
  const fn = async (password?: string) => {
    calls.push(password === undefined ? undefined : '<typed>');
    if (password === undefined && !remembered)
      throw new ManagementError('unauthorized', 'no remembered password', 401);
    if (password !== undefined && password !== PASSWORD)
      throw new ManagementError('unauthorized', 'Invalid credentials', 401);
    api.expired = false;
  };
  return { fn, calls };
}

/** Filter "orders", select orders_to_lake (the second match), open its detail. */
async function browse(api: FakeApi, login: (password?: string) => Promise<void>) {
  const m = await mount({ api, relogin: login });
  await m.press('/', 'orders', KEY.enter, 'j');
  expect(selectedRow(m.frame())).toContain('orders_to_lake');
  return m;
}

describe('session expiry', () => {
  it('signs in again with the remembered password, retries, and keeps selection and filter', async () => {
    const api = sample();
    const login = relogin(api, true);
    const m = await browse(api, login.fn);
    api.expired = true;
    const before = api.calls.length;
    await m.press('R');
    expect(login.calls).toEqual([undefined]);
    expect(api.calls.slice(before)).toEqual(['listJobs 1', 'listJobs 1']);
    expect(selectedRow(m.frame())).toContain('orders_to_lake');
    expect(m.frame()).toContain('filter: orders');
    expect(m.frame()).toContain('2/4 jobs');
  });

  it('keeps the detail pane open on the same job after signing in again', async () => {
    const api = sample();
    const login = relogin(api, true);
    const m = await mount({ api, relogin: login.fn });
    await m.press('/', 'archive', KEY.enter, KEY.enter);
    await m.press('j');
    expect(selectedRow(m.frame())).toContain('2026-08-19T02:00:01Z');
    api.expired = true;
    await m.press('R');
    expect(login.calls).toEqual([undefined]);
    expect(m.frame()).toContain('orders_archive #2');
    expect(selectedRow(m.frame())).toContain('2026-08-19T02:00:01Z');
  });

  it('asks for the password when there is none remembered, masked, and carries on', async () => {
    const api = sample();
    const login = relogin(api, false);
    const m = await browse(api, login.fn);
    api.expired = true;
    await m.press('R');
    expect(login.calls).toEqual([undefined]);
    expect(m.frame()).toContain('Your session has expired');
    expect(m.frame()).toContain('Password:');
    await m.press('wrong');
    expect(m.frame()).toContain('*****');
    await m.press(KEY.enter);
    expect(m.frame()).toContain('✗ Invalid credentials');
    expect(m.frame()).toContain('Password:');
    await m.press(PASSWORD);
    expect(m.frame()).toContain('*'.repeat(PASSWORD.length));
    await m.press(KEY.enter);
    expect(login.calls).toEqual([undefined, '<typed>', '<typed>']);
    expect(m.frame()).not.toContain('Password:');
    expect(selectedRow(m.frame())).toContain('orders_to_lake');
    expect(m.frame()).toContain('filter: orders');
    expect(m.frames().some((frame) => frame.includes(PASSWORD) || frame.includes('wrong'))).toBe(false);
  });

  it('names the server and the user, and says "expired" only when the server had given a session', async () => {
    for (const hadSession of [false, true]) {
      const api = sample();
      const login = relogin(api, false);
      const account = { url: 'http://olake.internal:8000', username: 'ops', hadSession: () => hadSession };
      const m = await mount({ api, relogin: login.fn, account });
      api.expired = true;
      await m.press('R');
      expect(m.frame()).toContain(
        hadSession
          ? 'Your session has expired. Sign in again to http://olake.internal:8000 as ops'
          : 'Sign in to http://olake.internal:8000 as ops.',
      );
      if (!hadSession) expect(m.frame()).not.toMatch(/expired/i);
      expect(m.frame()).toContain('Password for ops:');
      await m.press(`${PASSWORD}\r`);
      expect(login.calls).toEqual([undefined, '<typed>']);
      expect(m.frame()).not.toContain('Password for ops:');
      unmountAll();
    }
  });

  it('keeps a password typed ahead of the prompt’s next render', async () => {
    const api = sample();
    const login = relogin(api, false);
    const m = await browse(api, login.fn);
    api.expired = true;
    await m.press('R');
    await m.typeAhead(PASSWORD.slice(0, 4), PASSWORD.slice(4), KEY.enter);
    expect(login.calls).toEqual([undefined, '<typed>']);
    expect(selectedRow(m.frame())).toContain('orders_to_lake');
    expect(m.frames().some((frame) => frame.includes(PASSWORD.slice(0, 4)))).toBe(false);
  });

  it('Esc at the password prompt leaves a session-expired screen; R asks again', async () => {
    const api = sample();
    const login = relogin(api, false);
    const m = await browse(api, login.fn);
    api.expired = true;
    await m.press('R', KEY.escape);
    expect(m.frame()).toContain('✗ Session expired');
    expect(m.frame()).toContain('R to sign in again');
    await m.press('R');
    expect(m.frame()).toContain('Password:');
    // Pasted with its line break, in one input chunk.
    await m.press(`${PASSWORD}\r`);
    expect(login.calls).toEqual([undefined, undefined, '<typed>']);
    expect(selectedRow(m.frame())).toContain('orders_to_lake');
    expect(m.frames().some((frame) => frame.includes(PASSWORD))).toBe(false);
  });

  it('retries an action once after signing in again', async () => {
    const api = sample();
    const login = relogin(api, true);
    const m = await browse(api, login.fn);
    api.expired = true;
    await m.press('n', 'y');
    expect(login.calls).toEqual([undefined]);
    // The 401 comes on the first call of the action (reading the runs); after signing in it goes on.
    expect(api.calls.filter((call) => call === 'listTasks 1 1').length).toBeGreaterThanOrEqual(2);
    expect(api.calls.filter((call) => call === 'syncNow 1 1')).toHaveLength(1);
    expect(m.frame()).toContain('✓ Sync started: run sync-now-1-');
  });

  it('shows a network error from relogin as such, not as an expired session', async () => {
    const api = sample();
    const m = await browse(api, async () => {
      throw new ManagementError('network', 'connect ECONNREFUSED 127.0.0.1:8000');
    });
    api.expired = true;
    await m.press('R');
    expect(m.frame()).toContain('✗ Refresh failed: connect ECONNREFUSED 127.0.0.1:8000');
    expect(m.frame()).not.toContain('Session expired');
  });
});
