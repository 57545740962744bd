// The management client against the emulator's real-server behaviours: big details, "sync now" truth,
// Beego's 500-for-missing, sessions off, the 60 s write timeout and a failed test's log dump.
import { afterAll, describe, expect, it } from 'vitest';
import { reduceCheckFailure } from '../../src/management/checklog.js';
import { ManagementClient } from '../../src/management/client.js';
import { DetailScanner } from '../../src/management/detail.js';
import { redactConfig } from '../../src/management/summary.js';
import { syncAndConfirm } from '../../src/management/sync.js';
import type { ManagementError } from '../../src/management/types.js';
import { chooseVersion, compareVersions } from '../../src/management/versions.js';
import {
  HUGE_JOB_ID,
  HUGE_JOB_STREAMS,
  type OlakeUiEmulator,
  type OlakeUiEmulatorOptions,
  seedJobs,
  startOlakeUiEmulator,
} from '../../src/sandbox/olake-ui/index.js';
import { humaniseCron } from '../../src/ui/jobs/cron.js';

const started: OlakeUiEmulator[] = [];
async function connect(options: OlakeUiEmulatorOptions = {}, login = true) {
  const ui = await startOlakeUiEmulator({ jobs: seedJobs(12, 1), ...options });
  started.push(ui);
  const client = new ManagementClient({ url: ui.url });
  if (login) await client.login('admin', 'password');
  return { ui, client };
}
afterAll(async () => {
  for (const ui of started) await ui.close();
});

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    return error as ManagementError;
  }
  throw new Error('expected a failure');
};

describe('a job detail far over the old 8 MiB cap', () => {
  it('opens, with its streams counted and not kept', async () => {
    const { client } = await connect();
    const job = await client.getJob('123', HUGE_JOB_ID);
    expect(job.streams?.selected).toBe(HUGE_JOB_STREAMS);
    expect(job.streams?.bytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(job).not.toHaveProperty('streams_config');
    expect(JSON.parse(job.destination.config ?? '{}').writer.catalog_type).toBe('rest');
    const small = await client.getJob('123', 1);
    expect(small.streams?.selected).toBeGreaterThan(0);
    await client.close();
  });

  it('scans the same whatever the chunking, and names its own cap', () => {
    const body = JSON.stringify({
      success: true,
      message: 'ok',
      data: {
        id: 1,
        name: 'a "quoted" streams_config name',
        streams_config: JSON.stringify({
          selected_streams: { s: [{ stream_name: 'x' }, { stream_name: 'y' }] },
        }),
        source: { name: 's', type: 'postgres', config: '{"streams_config":"kept"}' },
      },
    });
    const whole = new DetailScanner(1 << 20);
    whole.push(body);
    const bytewise = new DetailScanner(1 << 20);
    for (const c of body) bytewise.push(c);
    expect(bytewise.text()).toBe(whole.text());
    const parsed = JSON.parse(whole.text());
    expect(parsed.data.streams_config).toBe('');
    expect(parsed.data.source.config).toBe('{"streams_config":"kept"}');
    expect(whole.streams.selected).toBe(2);
    const tiny = new DetailScanner(10);
    expect(() => tiny.push(body)).toThrow(RangeError);
  });
});

describe('sync now tells the truth', () => {
  it('says started for a new run, skipped during a run, requested when no run appears yet', async () => {
    const { ui, client } = await connect({ runDurationMs: 60_000 });
    const idle = ui.jobs.find((j) => j.activate && j.tasks[0]?.status !== 'Running') ?? ui.jobs[0];
    const first = await syncAndConfirm(client, '123', idle?.id ?? 0, { polls: 1 });
    expect(first.kind).toBe('started');
    const second = await syncAndConfirm(client, '123', idle?.id ?? 0, { polls: 1 });
    expect(second.kind).toBe('skipped');
    const slow = await connect({ syncStartDelayMs: 60_000 });
    const other = slow.ui.jobs.find((j) => j.activate && j.tasks[0]?.status !== 'Running');
    const third = await syncAndConfirm(slow.client, '123', other?.id ?? 0, { polls: 2, intervalMs: 1 });
    expect(third.kind).toBe('requested');
    await client.close();
    await slow.client.close();
  });
});

describe('server modes', () => {
  it('reads a Beego 500 for a missing job as not found', async () => {
    const { client } = await connect({ mode: 'beego' });
    const error = await failure(client.getJob('123', 999));
    expect([error.kind, error.message]).toEqual([
      'not-found',
      'Not found: failed to get job: job not found: id 999',
    ]);
    await client.close();
  });

  it('explains a sessions-off refusal instead of asking to log in again', async () => {
    const { client } = await connect({ sessions: false }, false);
    let relogins = 0;
    client.reauthenticate = async () => {
      relogins++;
      return true;
    };
    expect((await client.listJobs('123')).length).toBe(12);
    expect(await client.authCheck()).toBe(false);
    const error = await failure(client.setActive('123', 1, false));
    expect(error.kind).toBe('server');
    expect(error.message).toContain('SESSION_ON=false');
    expect(relogins).toBe(0);
    await client.close();
  });

  it("names olake-ui v0.4.2–v0.4.3's write timeout when a destination test is cut", async () => {
    const { client } = await connect({
      writeTimeoutMs: 50,
      checkDestination: () =>
        new Promise((r) => setTimeout(() => r({ status: 'SUCCEEDED', message: '' }), 200)),
    });
    const error = await failure(
      client.testDestination('123', { type: 'iceberg', version: 'v0.9.4', config: '{"writer":{}}' }),
    );
    expect(error.message).toMatch(/olake-ui v0\.4\.3 cuts every response at 60 s/);
    expect(error.message).toContain('v0.4.4 or newer');
    expect(error.message).toContain('floe test');
    await client.close();
  });
});

describe("a failed test's container log", () => {
  it('comes back as its error lines, with the whole log kept apart', async () => {
    const { client } = await connect();
    const config = JSON.stringify({
      type: 'ICEBERG',
      writer: { catalog_type: 'rest', iceberg_s3_path: 'wh' },
    });
    const result = await client.testDestination('123', { type: 'iceberg', version: 'v0.9.4', config });
    expect(result.connection_result.status).toBe('FAILED');
    expect(result.connection_result.message).toContain(
      'rest_catalog_url is required when using REST catalog',
    );
    expect(result.connection_result.message).not.toContain('Starting Iceberg Java writer');
    expect(result.logs.some((l) => l.message.includes('Starting Iceberg Java writer'))).toBe(true);
    await client.close();
  });

  it('keeps a message without a container log as it is', () => {
    expect(reduceCheckFailure('failed to validate request: x')).toEqual({
      message: 'failed to validate request: x',
      logs: [],
    });
  });
});

describe('small client fixes', () => {
  it('orders driver versions by semver with custom tags last, preferring the target version', () => {
    const offered = ['v0.9.4', 'dev-latest', 'v0.10.0', 'v0.9.3', 'v0.10.0-rc1'];
    expect([...offered].sort(compareVersions)).toEqual([
      'v0.10.0',
      'v0.10.0-rc1',
      'v0.9.4',
      'v0.9.3',
      'dev-latest',
    ]);
    expect(chooseVersion(offered, 'latest')).toBe('v0.10.0');
    expect(chooseVersion(offered, '0.9.3')).toBe('v0.9.3');
    expect(chooseVersion(offered, '0.8.0')).toBe('v0.10.0');
  });

  it('humanises legacy N-unit frequencies as the server schedules them', () => {
    expect(humaniseCron('6-hours')).toBe('every 6 h');
    expect(humaniseCron('15-minutes')).toBe('every 15 min');
    expect(humaniseCron('2-fortnights')).toBe('2-fortnights');
  });

  it('hides secret values of configs, nested ones too', () => {
    const out = redactConfig(
      JSON.stringify({ host: 'h', password: 'p', writer: { aws_secret_key: 'k', token: '', url: 'u' } }),
    );
    expect(out).toEqual({
      host: 'h',
      password: '(set, hidden)',
      writer: { aws_secret_key: '(set, hidden)', token: '', url: 'u' },
    });
  });
});
