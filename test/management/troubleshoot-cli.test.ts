// floe jobs show, login --status with sessions off, no session after logout, --limit, run in process
// (support.ts floe) against the emulator, with no Secret Service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HUGE_JOB_ID,
  HUGE_JOB_STREAMS,
  type OlakeUiEmulator,
  seedJobs,
  startOlakeUiEmulator,
} from '../../src/sandbox/olake-ui/index.js';
import { floe, tempConfigDir } from './support.js';

const PASSWORD = 'pw-Trouble-7781';
let ui: OlakeUiEmulator;
let off: OlakeUiEmulator;

beforeAll(async () => {
  ui = await startOlakeUiEmulator({ jobs: seedJobs(12, 1), users: { admin: PASSWORD } });
  off = await startOlakeUiEmulator({ jobs: seedJobs(3, 1), users: { admin: PASSWORD }, sessions: false });
});
afterAll(async () => {
  await ui.close();
  await off.close();
});

async function loggedIn(url: string) {
  const configDir = tempConfigDir();
  const run = (args: string[], env: Record<string, string> = {}) =>
    floe(args, { configDir, env, keychain: 'unavailable' });
  const login = await floe(['login', '--url', url, '--password-stdin', '--insecure-storage'], {
    configDir,
    input: PASSWORD,
    keychain: 'unavailable',
  });
  expect(login.code).toBe(0);
  return run;
}

describe('floe jobs show', () => {
  it('prints a job whose detail is over 10 MB, configs summarised, secrets hidden', async () => {
    const run = await loggedIn(ui.url);
    const text = await run(['jobs', 'show', String(HUGE_JOB_ID)]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`Streams      ${HUGE_JOB_STREAMS.toLocaleString('en-US')} selected`);
    expect(text.stdout).toMatch(/rest_catalog_url=http:\/\/iceberg-rest\.internal:8181/);
    expect(text.stdout).toContain('password=(set, hidden)');
    const json = await run(['jobs', 'show', '1', '--json']);
    const detail = JSON.parse(json.stdout);
    expect(detail.destination.config.writer.aws_secret_key).toBe('(set, hidden)');
    expect(detail.streams.selected).toBeGreaterThan(0);
    for (const out of [text, json]) {
      expect(out.stdout).not.toContain('seed-destination-secret-key');
      expect(out.stdout).not.toMatch(/seed-source-password/);
    }
    const legacy = await run(['jobs', 'show', '9']);
    expect(legacy.stdout).toContain('every 6 h (6-hours)');
  });

  it('refuses a fractional --limit, which the server would silently read as 1000', async () => {
    const run = await loggedIn(ui.url);
    const bad = await run(['jobs', 'logs', '1', '--limit', '1.5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit must be a whole number');
  });
});

describe('no session', () => {
  it('after logout, floe jobs exits 4 without touching the network, even with the server down', async () => {
    const run = await loggedIn(ui.url);
    expect((await run(['logout'])).code).toBe(0);
    const seen = ui.requests.length;
    const jobs = await run(['jobs', '--url', 'http://127.0.0.1:9']);
    expect(jobs.code).toBe(4);
    const here = await run(['jobs']);
    expect([here.code, here.stderr]).toEqual([4, expect.stringContaining(`Not logged in to ${ui.url}`)]);
    expect(ui.requests.length).toBe(seen);
  });
});

describe('sessions switched off (SESSION_ON=false)', () => {
  it('login --status says so instead of "expired"', async () => {
    const run = await loggedIn(off.url);
    const status = await run(['login', '--status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('runs with sessions switched off (SESSION_ON=false)');
  });
});

describe('floe jobs logs --diagnose and --follow', () => {
  it('diagnoses a failed run, as text and as JSON', async () => {
    const run = await loggedIn(ui.url);
    // Job 1's latest run failed on an S3 ExpiredToken (olake-ui/failures.ts, by job id): a failure
    // found exits 1, as text and as JSON; a run without errors exits 0.
    expect(ui.jobs[0]?.tasks[0]?.status).toBe('Failed');
    const text = await run(['jobs', 'logs', '1', '--diagnose']);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /^✗ RUN_S3_EXPIRED_TOKEN \(run\.log\)\n {2}What {5}The object store refused the writer’s session token/,
    );
    expect(text.stdout).toContain('Remedy');
    const jsonRun = await run(['jobs', 'logs', '1', '--diagnose', '--json']);
    expect(jsonRun.code).toBe(1);
    expect(JSON.parse(jsonRun.stdout).diagnoses[0]).toMatchObject({
      code: 'RUN_S3_EXPIRED_TOKEN',
      step: 'run.log',
    });
    const completed = ui.jobs.find((j) => j.tasks[0]?.status === 'Completed');
    const clean = await run(['jobs', 'logs', String(completed?.id), '--diagnose']);
    expect([clean.code, clean.stdout]).toEqual([0, 'No errors in this run’s log.\n']);
    expect((await run(['jobs', 'show', '2', '--follow'])).code).toBe(2);
  });

  it('follows a running run until it ends, printing a line written in two pieces once', async () => {
    const live = await startOlakeUiEmulator({
      jobs: seedJobs(12, 1),
      users: { admin: PASSWORD },
      runDurationMs: 3500,
    });
    try {
      const run = await loggedIn(live.url);
      const job = live.jobs.find((j) => j.activate && j.tasks[0]?.status !== 'Running');
      const id = String(job?.id);
      expect((await run(['jobs', 'sync', id])).code).toBe(0);
      const task = job?.tasks[0];
      const line = JSON.stringify({ level: 'warn', time: '2026-01-01T00:00:09Z', message: 'split line' });
      const following = run(['jobs', 'logs', id, '--follow']);
      setTimeout(() => live.appendLog(task?.file_path ?? '', line.slice(0, 25)), 600);
      setTimeout(() => live.appendLog(task?.file_path ?? '', `${line.slice(25)}\n`), 1800);
      const out = await following;
      expect(out.code).toBe(0);
      expect(out.stdout.match(/split line/g)).toHaveLength(1);
      expect(out.stdout).toContain('Sync completed; state committed');
      expect(out.stderr).toContain('Run ended: Completed');
    } finally {
      await live.close();
    }
  });
});
