// A hostile OLake UI: job names, task paths, log lines, action messages and errors full of escape
// sequences reach the browser's frames inert (shown, never acting).
import { afterEach, describe, expect, it } from 'vitest';
import { ManagementError } from '../../../src/management/types.js';
import { expectInert, HOSTILE, HOSTILE_SHOWN } from '../../support/hostile.js';
import { FakeApi, KEY, makeJob, makeTask, mount, unmountAll } from './support.js';

afterEach(() => {
  unmountAll();
});

class HostileApi extends FakeApi {
  override async syncNow(): Promise<string> {
    return `sync started ${HOSTILE}`;
  }
}

describe('jobs browser with a hostile server', () => {
  it('shows job names, task paths, logs and action messages with their control characters made visible', async () => {
    const api = new HostileApi([makeJob(1, { name: `orders${HOSTILE}`, activate: true })]);
    const task = makeTask(1, { file_path: `/logs/${HOSTILE}` });
    api.tasks.set(1, [task]);
    api.logs.set(task.file_path, [{ time: '2026-08-20T11:00:00Z', level: 'info', message: HOSTILE }]);
    const m = await mount({ api });
    expect(m.frame()).toContain('orders');
    await m.press(KEY.enter);
    await m.press(KEY.enter);
    await m.press('n');
    await m.press('y');
    const frames = m.frames().join('\n');
    expect(frames).toContain(HOSTILE_SHOWN.slice(0, 20));
    expectInert(m.r.frames.join('\n'));
  });

  it('shows a hostile error message inert', async () => {
    const api = new FakeApi([]);
    api.listError = new ManagementError('server', `boom ${HOSTILE}`, 500);
    const m = await mount({ api });
    expect(m.frame()).toContain('boom evil^[]0;');
    expectInert(m.r.frames.join('\n'));
  });
});
