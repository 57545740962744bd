// `floe login` with the masked password prompt, then `floe jobs` on a real 80x24 terminal against the
// OLake UI emulator: the list, the `/` filter, and a job's detail with its runs and a run's logs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { expectCleanOutput, floe, tempDir } from './support.js';

const PASSWORD = 'SENTINEL-e2e-pw-5e71';
let ui: OlakeUiEmulator;
let configDir: string;

beforeAll(async () => {
  ui = await startOlakeUiEmulator({ jobs: seedJobs(30, 7), users: { admin: PASSWORD } });
  configDir = tempDir('floe-e2e-jobs-');
});
afterAll(() => ui?.close());

describe('floe login and floe jobs on a terminal', { timeout: 90_000 }, () => {
  it('logs in at a masked prompt, then lists, filters and opens a job with its runs and logs', async () => {
    const login = floe(configDir, { args: ['login', '--url', ui.url, '--insecure-storage'] });
    await login.waitFor(/Password for admin at .*:$/m);
    await login.press(PASSWORD);
    expect(login.screen().join('\n')).not.toContain('SENTINEL');
    await login.press('enter');
    await login.waitFor('[y/N]');
    await login.press('n', 'enter');
    await login.waitFor(`✓ Logged in to ${ui.url} as admin`);
    expect(await login.exit()).toBe(0);
    expectCleanOutput(login, [PASSWORD], { frames: false });

    const job = ui.jobs.find((j) => j.tasks.length > 1 && j.tasks[0]!.logs.length > 3)!;
    const t = floe(configDir, { args: ['jobs'] });
    const list = await t.waitFor(/30 jobs · sort name[\s\S]*q quit/);
    expect(list.filter((line) => /^[› ] \S+ +\S+ → /.test(line)).length).toBeGreaterThan(10);

    await t.press('/');
    await t.press(job.name);
    await t.press('enter');
    const filtered = (await t.waitFor(/\d+\/30 jobs/)).join('\n');
    expect(filtered).toMatch(new RegExp(`^› ${job.name}\\b`, 'm'));

    await t.press('enter');
    const detail = (
      await t.waitFor(new RegExp(`${job.name} #${job.id}[\\s\\S]*Runs \\(${job.tasks.length}\\)`))
    ).join('\n');
    expect(detail).toContain(`Source`);
    expect(detail).toMatch(/^› /m);
    await t.press('enter');
    const logs = (await t.waitFor(/Run \S+ \S+ · \[ older/)).join('\n');
    const shown = job.tasks[0]!.logs.filter((line) => line.level !== 'debug').slice(-3);
    for (const line of shown) expect(logs).toContain(line.message.slice(0, 40));

    await t.press('q');
    expect(await t.exit()).toBe(0);
    expectCleanOutput(t, [PASSWORD]);
  });
});
