// `floe jobs` on a real 80x24 pseudo-terminal against the OLake UI emulator: the browser as
// @xterm/headless sees it, re-login with a typed password after the server drops the session,
// and Ctrl-C leaving the alternate screen with the cursor back (exit 130). Needs the built CLI.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startTerminal } from '../../../scripts/lib/terminal.mjs';
import {
  HUGE_JOB_ID,
  HUGE_JOB_STREAMS,
  type OlakeUiEmulator,
  seedJobs,
  startOlakeUiEmulator,
} from '../../../src/sandbox/olake-ui/index.js';
import { spawnCli } from '../../support/cli.js';

const PASSWORD = 'pw-Browser-8841';
let ui: OlakeUiEmulator;
let configDir: string;
/** No keychain: the session goes to the consented file. */
const NO_BUS = 'unix:path=/nonexistent/floe-test-bus';

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && key !== 'CI' && !key.startsWith('FLOE_')) env[key] = value;
  return {
    ...env,
    FLOE_CONFIG_DIR: configDir,
    DBUS_SESSION_BUS_ADDRESS: NO_BUS,
  };
}

beforeAll(async () => {
  // Runs of 4 s (8 s by default): the follow test waits for one to end.
  ui = await startOlakeUiEmulator({ jobs: seedJobs(40, 5), users: { admin: PASSWORD }, runDurationMs: 4000 });
  configDir = mkdtempSync(join(tmpdir(), 'floe-jobs-pty-'));
  // The emulator runs in this process, so the login must not block it.
  const login = await spawnCli(
    ['login', '--url', ui.url, '--password-stdin', '--insecure-storage'],
    cleanEnv(),
    PASSWORD,
  );
  expect(login.code, login.stderr).toBe(0);
});
afterAll(() => ui.close());

function browser() {
  const terminal = startTerminal({
    args: ['jobs'],
    env: { FLOE_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: NO_BUS },
  });
  onTestFailed(() => {
    process.stderr.write(`floe jobs screen:\n${terminal.screen().join('\n')}\n`);
    terminal.kill();
  });
  return { ...terminal, text: () => terminal.screen().join('\n') };
}

describe('floe jobs on an 80x24 terminal', () => {
  it('browses, signs in again after the session ends, and leaves cleanly on Ctrl-C', async () => {
    const names = ui.jobs.map((job) => job.name.toLowerCase()).sort();
    const b = browser();
    await b.waitFor(/40 jobs · sort name +updated \d+s ago[\s\S]*q quit/);
    const lines = b.screen();
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines[22]).toMatch(/Enter open/);
    expect(lines.filter((line) => /^[› ] \S+_\d+ +\S+ → iceberg/.test(line))).toHaveLength(19);

    b.write('j');
    await b.waitFor(new RegExp(`^› ${names[1]?.slice(0, 20)}[\\s\\S]*q quit`, 'm'));
    ui.expireSessions();
    b.write('R');
    await b.waitFor(/Password for admin:$/m);
    b.write(PASSWORD);
    await b.waitFor(new RegExp(`Password for admin: \\*{${PASSWORD.length}}$`, 'm'));
    b.write('\r');
    await b.waitFor(/40 jobs · sort name[\s\S]*q quit/);
    expect(b.text()).toMatch(new RegExp(`^› ${names[1]?.slice(0, 20)}`, 'm'));
    expect(b.raw()).not.toContain(PASSWORD);

    b.write('\u0003');
    expect(await b.exit()).toBe(130);
    expect(b.raw()).toContain('\u001B[?1049l');
    expect(b.raw()).toContain('\u001B[?25h');
    expect(b.text()).not.toContain('40 jobs');
  });

  it('reads a run’s logs through the real client, one page older at a time', async () => {
    const job = ui.jobs.find((candidate) => candidate.tasks.length > 0);
    const run = job?.tasks[0];
    if (!job || !run) throw new Error('the seed has no job that ran');
    for (let second = 0; second < 30; second++)
      run.logs.push({
        level: 'info',
        time: `2031-01-01T00:00:${String(second).padStart(2, '0')}Z`,
        message: `extra line ${second}`,
      });
    const lines = run.logs.filter((line) => line.level !== 'debug');
    const b = browser();
    await b.waitFor(/40 jobs · sort name[\s\S]*q quit/);
    b.write('/');
    await b.waitFor(/^\/$/m);
    b.write(job.name);
    await b.waitFor(new RegExp(`^/${job.name}$`, 'm'));
    b.write('\r');
    await b.waitFor(new RegExp(`filter: ${job.name}`));
    b.write('\r');
    await b.waitFor(new RegExp(`${job.name} #${job.id}[\\s\\S]*Runs \\(${job.tasks.length}\\)`));
    b.write('\r');
    // 24 rows leave 10 for the pane: its header and nine lines (each after a two-column marker).
    const tail = lines.slice(-9);
    await b.waitFor(new RegExp(`^(?:› | {2})${tail.at(-1)?.time} `, 'm'));
    expect(b.text()).toContain(`${tail[0]?.time} `);
    expect(b.text()).not.toContain(`${lines.at(-10)?.time} `);
    b.write('[');
    await b.waitFor(new RegExp(`^(?:› | {2})${lines.at(-10)?.time} `, 'm'));
    expect(b.text()).toContain(`${lines.at(-18)?.time} `);
    expect(b.text()).not.toContain(`${tail.at(-1)?.time} `);
    for (const line of b.screen()) expect(line.length).toBeLessThanOrEqual(80);
    b.write('q');
    expect(await b.exit()).toBe(0);
  });

  it('opens the detail of a job whose detail is over 10 MB, and tests its destination with t', async () => {
    const job = ui.jobs.find((candidate) => candidate.id === HUGE_JOB_ID);
    if (!job) throw new Error('the seed has no huge job');
    const b = browser();
    await b.waitFor(/40 jobs · sort name[\s\S]*q quit/);
    b.write('/');
    await b.waitFor(/^\/$/m);
    b.write(job.name);
    await b.waitFor(new RegExp(`^/${job.name}$`, 'm'));
    b.write('\r');
    await b.waitFor(new RegExp(`filter: ${job.name}`));
    b.write('\r');
    await b.waitFor(
      new RegExp(
        `Streams +${HUGE_JOB_STREAMS.toLocaleString('en-US')} selected \\(\\d+\\.\\d MiB catalog\\)`,
      ),
    );
    b.write('t');
    // The seeded destination is an unreachable example catalog: the test runs and fails there.
    await b.waitFor(/Connection test · job 6 · iceberg-rest[\s\S]*Esc\/q back/);
    expect(b.text()).toMatch(/CATALOG_DNS|CATALOG_CONNECTION_REFUSED|CATALOG_NETWORK/);
    b.write('\u001b');
    await b.waitFor(new RegExp(`${job.name} #${job.id}`));
    b.write('q');
    expect(await b.exit()).toBe(0);
  });

  it('offers c only while a sync runs, with the keys sent in one burst', async () => {
    const idle = ui.jobs.find((job) => job.last_run_state && job.last_run_state !== 'Running');
    const running = ui.jobs.find((job) => job.last_run_state === 'Running');
    if (!idle || !running) throw new Error('the seed has no idle or no running job');
    const b = browser();
    await b.waitFor(/40 jobs · sort name[\s\S]*q quit/);
    b.write(`/${idle.name}\rc`);
    await b.waitFor(`Nothing is running for “${idle.name}”: c cancels a running sync`);
    expect(b.text()).toMatch(/n\/p actions/);
    expect(b.text()).not.toContain('y/N');
    b.write(`\u001b/${running.name}\rc`);
    await b.waitFor(`Cancel the running sync of “${running.name}”? y/N`);
    b.write('nq');
    expect(await b.exit()).toBe(0);
  });

  // Issue 30, item 4: n in the detail follows the run it started (not the older one); the filter says
  // where it matched. Keys in bursts.
  it('n in the detail selects and follows the new run to its end; the filter names the field', async () => {
    const job = ui.jobs.find(
      (j) => j.activate && j.tasks.length > 0 && j.tasks[0]?.status !== 'Running' && j.id !== HUGE_JOB_ID,
    );
    if (!job) throw new Error('the seed has no idle job that ran');
    const older = job.tasks[0]?.file_path;
    const b = browser();
    await b.waitFor(/40 jobs · sort name[\s\S]*q quit/);
    b.write(`/${job.name}\r`);
    await b.waitFor(new RegExp(`filter: ${job.name}, matched in name 1`));
    b.write('\rny');
    await b.waitFor(/following \(f stops\)/);
    const fresh = job.tasks[0];
    expect(fresh?.file_path).not.toBe(older);
    expect(b.text()).toContain(`Run ${fresh?.start_time} Running`);
    await b.waitFor('✓ Run ended: Completed; following stopped.', { timeoutMs: 20_000 });
    expect(b.text()).toContain('Sync completed; state committed');
    for (const line of b.screen()) expect(line.length).toBeLessThanOrEqual(80);
    b.write('q');
    expect(await b.exit()).toBe(0);
  });

  it('a first sign-in names the server and the user and never says "expired"', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'floe-jobs-first-'));
    const t = startTerminal({
      args: ['jobs', '--url', ui.url],
      env: { FLOE_CONFIG_DIR: fresh, DBUS_SESSION_BUS_ADDRESS: NO_BUS, FLOE_PASSWORD: 'not-the-password' },
    });
    onTestFailed(() => {
      process.stderr.write(`floe jobs screen:\n${t.screen().join('\n')}\n`);
      t.kill();
    });
    await t.waitFor(`Sign in to ${ui.url} as admin.`);
    await t.waitFor(/Password for admin:$/m);
    expect(t.screen().join('\n')).not.toMatch(/expired/i);
    t.write(`${PASSWORD}\r`);
    await t.waitFor(/40 jobs · sort name[\s\S]*q quit/);
    t.write('q');
    expect(await t.exit()).toBe(0);
    expect(t.raw()).not.toContain(PASSWORD);
  });

  it.each([60, 200])('fits the list to %i columns: names whole, no wide blank after them', async (cols) => {
    const t = startTerminal({
      args: ['jobs'],
      cols,
      env: { FLOE_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: NO_BUS },
    });
    onTestFailed(() => {
      process.stderr.write(`floe jobs screen:\n${t.screen().join('\n')}\n`);
      t.kill();
    });
    await t.waitFor(/40 jobs · sort name[\s\S]*q quit/);
    const rows = t.screen().filter((line) => /^[› ] \S+_\d+ /.test(line));
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      const [, name, gap, route] = /^[› ] (\S+)( +)(\S+ → \S+)/.exec(row) ?? [];
      expect(ui.jobs.map((job) => job.name)).toContain(name);
      expect(route, row).toMatch(/ → iceberg$/);
      expect(gap?.length, row).toBeLessThanOrEqual(24);
      expect(row.length).toBeLessThanOrEqual(cols);
    }
    expect(t.screen().join('\n').includes('STATUS')).toBe(cols === 200);
    t.write('q');
    expect(await t.exit()).toBe(0);
  });
});
