// floe jobs against the emulator: sync --follow (the new run to its end, then the diagnosis of a failed
// end), jobs named by name, action messages in floe's words, one schedule wording in the table and the
// detail. In process (support.ts floe), but Ctrl-C: SIGINT and exit 130 need the built CLI's process.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { scheduleText } from '../../src/ui/jobs/cron.js';
import { BIN } from '../support/cli.js';
import { floe, tempConfigDir } from './support.js';

const PASSWORD = 'pw-Follow-3307';
const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-test-bus' };
/** Jobs whose syncs end Failed (the emulator logs their seeded failure). */
const failing = new Set<number>();
let ui: OlakeUiEmulator;
let configDir: string;

beforeAll(async () => {
  ui = await startOlakeUiEmulator({
    jobs: seedJobs(12, 1),
    users: { admin: PASSWORD },
    runDurationMs: 2500,
    // The run appears well after the 200 "sync triggered": the old run must not be followed meanwhile.
    syncStartDelayMs: 1500,
    syncOutcome: (job) => (failing.has(job.id) ? 'Failed' : 'Completed'),
  });
  configDir = tempConfigDir();
  const login = await floe(['login', '--url', ui.url, '--password-stdin', '--insecure-storage'], {
    configDir,
    input: PASSWORD,
    keychain: 'unavailable',
  });
  expect(login.code, login.stderr).toBe(0);
});
afterAll(() => ui.close());

const run = (args: string[]) => floe(args, { configDir, keychain: 'unavailable' });

/** An active job whose latest run is not running, with at least one run (so an older run exists). */
function idleJob(skip: number[] = []) {
  const job = ui.jobs.find(
    (j) => j.activate && j.tasks.length > 0 && j.tasks[0]?.status !== 'Running' && !skip.includes(j.id),
  );
  if (!job) throw new Error('the seed has no idle job that ran');
  return job;
}

describe('floe jobs sync ID --follow', () => {
  it('Ctrl-C stops following, not the sync: exit 130, the run goes on and nothing is cancelled', async () => {
    const job = idleJob();
    const child = spawn(process.execPath, [BIN, 'jobs', 'sync', String(job.id), '--follow'], {
      env: { ...process.env, FLOE_CONFIG_DIR: configDir, NO_COLOR: '1', ...NO_KEYCHAIN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let interrupted = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!interrupted && stderr.includes('Ctrl-C stops following')) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(130);
    expect(stderr).toContain(
      `floe: stopped following; the sync goes on ("floe jobs logs ${job.id} --follow" follows it again, "floe jobs cancel ${job.id}" stops it).`,
    );
    // Nothing was sent: the run the sync started is still running, and following it again sees it end.
    expect(job.tasks[0]?.status).toBe('Running');
    const again = await run(['jobs', 'logs', String(job.id), '--follow']);
    expect(again.stderr).toContain('Run ended: Completed.');
  });

  it('follows the new run (not the older one) to a completed end: exit 0', async () => {
    const job = idleJob();
    const older = job.tasks[0]?.file_path;
    const result = await run(['jobs', 'sync', String(job.id), '--follow']);
    const fresh = job.tasks[0];
    expect(fresh?.file_path).not.toBe(older);
    expect(result.stderr).toContain(
      `Sync started: following run ${fresh?.file_path}. Ctrl-C stops following, not the sync ("floe jobs cancel ${job.id}" stops the sync).`,
    );
    expect(result.stderr).toContain('Run ended: Completed.');
    expect(result.stdout).toContain('Sync completed; state committed');
    expect(result.stdout).toContain(`✓ Run ${fresh?.file_path} completed.`);
    expect(result.code).toBe(0);
  });

  it('diagnoses a failed end as jobs logs --diagnose does, and exits 1; --json gives run and diagnosis', async () => {
    // Job 1's seeded failure is an S3 ExpiredToken (olake-ui/failures.ts, by job id).
    const job = ui.jobs.find((j) => j.id === 1);
    if (!job) throw new Error('no job 1');
    job.activate = true;
    failing.add(1);
    const text = await run(['jobs', 'sync', '1', '--follow']);
    expect(text.stderr).toContain('Run ended: Failed.');
    expect(text.stdout).toMatch(/^✗ RUN_S3_EXPIRED_TOKEN \(run\.log\)\n {2}What {5}/m);
    expect(text.code).toBe(1);
    const diagnose = await run(['jobs', 'logs', '1', '--diagnose']);
    expect(text.stdout.endsWith(diagnose.stdout)).toBe(true);

    const json = await run(['jobs', 'sync', '1', '--follow', '--json']);
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as {
      run: { status: string; file_path: string };
      diagnoses: unknown[];
    };
    expect(parsed.run).toMatchObject({ status: 'Failed', file_path: job.tasks[0]?.file_path });
    expect(parsed.diagnoses[0]).toMatchObject({ code: 'RUN_S3_EXPIRED_TOKEN' });
  });

  it('--follow goes with logs or sync only', async () => {
    const wrong = await run(['jobs', 'pause', '2', '--follow']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--follow goes with "logs" or "sync"');
  });
});

describe('jobs by name', () => {
  it('takes an exact name wherever an ID is taken; numbers still work', async () => {
    const job = ui.jobs[2];
    if (!job) throw new Error('no job 3');
    const byName = await run(['jobs', 'show', job.name]);
    expect(byName.code).toBe(0);
    expect(byName.stdout).toContain(`Job          ${job.id} ${job.name}`);
    expect((await run(['jobs', 'show', String(job.id)])).stdout).toBe(byName.stdout);
    const tasks = await run(['jobs', 'tasks', job.name, '--json']);
    expect(tasks.code).toBe(0);
  });

  it('lists the jobs a shared name stands for (exit 2), and similar names when none is exact', async () => {
    const [a, b] = ui.jobs;
    if (!a || !b) throw new Error('no jobs');
    const saved = b.name;
    b.name = a.name;
    try {
      const ambiguous = await run(['jobs', 'logs', a.name]);
      expect(ambiguous.code).toBe(2);
      expect(ambiguous.stderr).toContain(`2 jobs are named "${a.name}"; name one by its number:`);
      expect(ambiguous.stderr).toMatch(new RegExp(`^floe: {3}${a.id} {2}${a.name}$`, 'm'));
      expect(ambiguous.stderr).toMatch(new RegExp(`^floe: {3}${b.id} {2}${a.name}$`, 'm'));
    } finally {
      b.name = saved;
    }
    const partial = a.name.slice(0, -1).toUpperCase();
    const similar = await run(['jobs', 'show', partial]);
    expect(similar.code).toBe(2);
    expect(similar.stderr).toContain(`No job is named exactly "${partial}" in project 123; similar names:`);
    expect(similar.stderr).toMatch(new RegExp(`^floe: {3}${a.id} {2}${a.name}$`, 'm'));
    const none = await run(['jobs', 'cancel', 'no_such_job']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No job named "no_such_job" in project 123.');
  });
});

describe('floe’s words for the server’s answers', () => {
  it('says what was done, with the OLake UI’s message as the detail', async () => {
    const job = idleJob([1]);
    const pause = await run(['jobs', 'pause', job.name]);
    expect(pause.stdout).toBe(
      `✓ Paused the schedule of job ${job.id} (${job.name})\n  the OLake UI said: job ${job.id} paused successfully\n`,
    );
    const resume = await run(['jobs', 'resume', String(job.id)]);
    expect(resume.stdout.split('\n')[0]).toBe(`✓ Resumed the schedule of job ${job.id}`);
    const cancel = await run(['jobs', 'cancel', String(job.id)]);
    // olake-ui's messages, as the emulator answers them (datazip-inc/olake-ui, the Gin handlers' job.go:
    // ActivateJob "job %d %s successfully", CancelJobRun "job workflow cancel requested successfully for job_id[%d]").
    expect(cancel.stdout).toBe(
      `✓ Cancel requested for job ${job.id}\n  the OLake UI said: job workflow cancel requested successfully for job_id[${job.id}]\n`,
    );
  });
});

describe('one schedule wording', () => {
  it('prints words and the saved cron alike in floe jobs and floe jobs show', async () => {
    const monthly = ui.jobs.find((j) => j.frequency === '0 0 1 * *');
    if (!monthly) throw new Error('the seed has no monthly job');
    expect(scheduleText(monthly.frequency)).toBe('monthly, day 1 00:00 (0 0 1 * *)');
    const table = await run(['jobs']);
    const row = table.stdout.split('\n').find((line) => line.startsWith(`${monthly.id} `));
    expect(row).toContain('monthly, day 1 00:00 (0 0 1 * *)');
    const show = await run(['jobs', 'show', String(monthly.id)]);
    expect(show.stdout).toMatch(/^Schedule {5}(active|paused), monthly, day 1 00:00 \(0 0 1 \* \*\)$/m);
    const json = JSON.parse((await run(['jobs', '--json'])).stdout) as { id: number; frequency: string }[];
    expect(json.find((j) => j.id === monthly.id)?.frequency).toBe('0 0 1 * *');
  });
});
