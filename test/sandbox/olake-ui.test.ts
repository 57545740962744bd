// The OLake UI emulator against the real server's source: each departure the issue listed, and the
// gin / beego / sessions-off / write-timeout modes.
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  HUGE_JOB_ID,
  HUGE_JOB_STREAMS,
  logFile,
  type OlakeUiEmulator,
  type OlakeUiEmulatorOptions,
  pageLogs,
  seedJobs,
  startOlakeUiEmulator,
} from '../../src/sandbox/olake-ui/index.js';

interface Client {
  ui: OlakeUiEmulator;
  cookie: string;
  call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; text: string; json: () => Record<string, unknown> }>;
}

async function open(options: OlakeUiEmulatorOptions = {}, login = true): Promise<Client> {
  const ui = await startOlakeUiEmulator({ jobs: seedJobs(12, 1, Date.now()), ...options });
  const client: Client = {
    ui,
    cookie: '',
    async call(method, path, body) {
      const res = await request(`${ui.url}${path}`, {
        method: method as 'GET',
        headers: {
          ...(client.cookie ? { cookie: client.cookie } : {}),
          'content-type': 'application/json',
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, text, json: () => JSON.parse(text) };
    },
  };
  if (login) {
    const res = await request(`${ui.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'password' }),
    });
    await res.body.dump();
    client.cookie = String(res.headers['set-cookie']).split(';')[0] as string;
  }
  return client;
}

const P = '/api/v1/project/123';

describe('gin mode (olake-ui v0.4.6)', () => {
  let c: Client;
  beforeAll(async () => {
    c = await open({ runDurationMs: 60_000 });
  });
  afterAll(() => c.ui.close());

  it('answers null tasks for a job that never ran (E1)', async () => {
    const never = c.ui.jobs.find((j) => j.tasks.length === 0);
    const res = await c.call('GET', `${P}/jobs/${never?.id}/tasks`);
    expect(res.text).toContain('"data":null');
  });

  it('answers 200 to a sync during a run and starts nothing (E2, overlap policy SKIP)', async () => {
    const job = c.ui.jobs.find((j) => j.activate && j.tasks[0]?.status === 'Running');
    const before = job?.tasks.length;
    const res = await c.call('POST', `${P}/jobs/${job?.id}/sync`, {});
    expect([res.status, res.json().message]).toEqual([
      200,
      `sync triggered successfully for job_id[${job?.id}]`,
    ]);
    expect(job?.tasks.length).toBe(before);
  });

  it('pauses a job on activate {} and accepts a no-op (E3)', async () => {
    const job = c.ui.jobs.find((j) => j.activate);
    const res = await c.call('POST', `${P}/jobs/${job?.id}/activate`, {});
    expect([res.status, res.json().message, job?.activate]).toEqual([
      200,
      `job ${job?.id} paused successfully`,
      false,
    ]);
    expect((await c.call('POST', `${P}/jobs/${job?.id}/activate`, { activate: false })).status).toBe(200);
    expect((await c.call('POST', `${P}/jobs/${job?.id}/activate`)).json().message).toBe(
      'failed to validate request: EOF',
    );
    await c.call('POST', `${P}/jobs/${job?.id}/activate`, { activate: true });
  });

  it('creates a destination under an unknown project, as an orphan (E4)', async () => {
    const body = { name: 'orphan', type: 'iceberg', version: 'v0.9.4', config: '{}' };
    expect((await c.call('POST', '/api/v1/project/456/destinations', body)).status).toBe(200);
    const listed = (await c.call('GET', `${P}/destinations`)).json().data as { name: string }[];
    const names = listed.map((d) => d.name);
    expect(names).not.toContain('orphan');
    expect(((await c.call('GET', '/api/v1/project/456/destinations')).json().data as unknown[]).length).toBe(
      1,
    );
  });

  it("ignores the project for another project's job and has no runs for it (E5)", async () => {
    const job = c.ui.jobs.find((j) => j.tasks.length > 0);
    const detail = (await c.call('GET', `/api/v1/project/999/jobs/${job?.id}`)).json().data as Record<
      string,
      unknown
    >;
    expect(detail.name).toBe(job?.name);
    expect(detail).not.toHaveProperty('last_run_state');
    expect((await c.call('GET', `/api/v1/project/999/jobs/${job?.id}/tasks`)).text).toContain('"data":null');
  });

  it('carries streams_config and both configs in the detail only; one detail is over 10 MB (E6)', async () => {
    const list = (await c.call('GET', `${P}/jobs`)).json().data as Record<string, Record<string, unknown>>[];
    for (const j of list) {
      expect(j).not.toHaveProperty('streams_config');
      expect(j.destination).not.toHaveProperty('config');
    }
    const small = (await c.call('GET', `${P}/jobs/1`)).json().data as Record<string, Record<string, string>>;
    expect(JSON.parse(small.destination?.config ?? '').writer.catalog_type).toBe('rest');
    expect(JSON.parse(small.source?.config ?? '')).toHaveProperty('password');
    const huge = await c.call('GET', `${P}/jobs/${HUGE_JOB_ID}`);
    expect(huge.text.length).toBeGreaterThan(10 * 1024 * 1024);
    const streams = JSON.parse((huge.json().data as { streams_config: string }).streams_config);
    expect(streams.streams.length).toBe(HUGE_JOB_STREAMS);
  });

  it('answers a failed check on olake ≥ v0.9.0 with 400 and the container log, older with 200 FAILED (E9)', async () => {
    const config = JSON.stringify({
      type: 'ICEBERG',
      writer: { catalog_type: 'rest', iceberg_s3_path: 'wh' },
    });
    const failed = await c.call('POST', `${P}/destinations/test`, {
      type: 'iceberg',
      version: 'v0.9.4',
      config,
    });
    expect(failed.status).toBe(400);
    expect(failed.json().message).toMatch(
      /^failed to verify driver credentials: connection test failed: .*exited with status 1: \{"level":"info"/s,
    );
    const old = await c.call('POST', `${P}/destinations/test`, {
      type: 'iceberg',
      version: 'v0.8.2',
      config,
    });
    expect(old.status).toBe(200);
    expect((old.json().data as { connection_result: { status: string } }).connection_result.status).toBe(
      'FAILED',
    );
  });

  it('accepts every REST catalog flavour and defaults catalog_type to glue (E8)', async () => {
    const { checkIcebergConfig } = await import('../../src/sandbox/olake-ui/index.js');
    const base = { iceberg_s3_path: 'wh', rest_catalog_url: 'http://127.0.0.1:1' };
    const lakekeeper = await checkIcebergConfig({ writer: { ...base, catalog_type: 'lakekeeper' } });
    expect(lakekeeper.message).toContain('ConnectException');
    expect((await checkIcebergConfig({ writer: base })).message).toContain('glue');
    expect((await checkIcebergConfig({ writer: { ...base, catalog_type: 'odd' } })).message).toContain(
      'unsupported catalog_type: odd',
    );
  });
});

describe('log cursors are byte offsets; a partial last line is skipped (E7)', () => {
  const lines = [
    { level: 'info', time: '2026-01-01T00:00:00Z', message: 'one' },
    { level: 'debug', time: '2026-01-01T00:00:01Z', message: 'hidden' },
    { level: 'info', time: '2026-01-01T00:00:02Z', message: 'two' },
  ];
  const q = (o: Record<string, string | number>) =>
    new URLSearchParams(Object.entries(o).map(([k, v]): [string, string] => [k, String(v)]));

  it('tails backwards with newer_cursor at the file size and pages forward from an offset', () => {
    const file = logFile(lines, '{"level":"info","time":"2026-01-01T00:00:03Z","mess');
    const tail = pageLogs(file, q({ cursor: -1, limit: 10 }));
    expect(tail.logs.map((l) => l.message)).toEqual(['one', 'two']);
    expect([tail.older_cursor, tail.newer_cursor, tail.has_more_older, tail.has_more_newer]).toEqual([
      0,
      file.length,
      false,
      false,
    ]);
    const firstLine = Buffer.byteLength(`${JSON.stringify(lines[0])}\n`);
    const fwd = pageLogs(file, q({ cursor: firstLine, direction: 'newer', limit: 10 }));
    expect(fwd.logs.map((l) => l.message)).toEqual(['two']);
    // The forward cursor jumps past the partial line: a follower trusting it would lose that line.
    expect(fwd.newer_cursor).toBe(file.length);
    const limited = pageLogs(file, q({ cursor: 0, direction: 'newer', limit: 1 }));
    expect([limited.newer_cursor, limited.has_more_newer]).toEqual([firstLine, true]);
  });
});

describe('beego mode (olake-ui ≤ v0.4.1)', () => {
  let c: Client;
  beforeAll(async () => {
    c = await open({ mode: 'beego', idleTimeoutMs: 300 });
  });
  afterAll(() => c.ui.close());

  it('answers 500 for a missing job, the SPA for unknown GETs, and no /health', async () => {
    const missing = await c.call('GET', `${P}/jobs/999`);
    expect([missing.status, missing.json().message]).toEqual([
      500,
      'failed to get job: job not found: id 999',
    ]);
    expect((await c.call('GET', `${P}/nothing`)).text).toContain('<div id="root">');
    expect((await c.call('GET', '/health')).text).toContain('<div id="root">');
  });

  it('ends a session after the idle time', async () => {
    expect((await c.call('GET', '/auth/check')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 400));
    expect((await c.call('GET', '/auth/check')).status).toBe(401);
  });
});

describe('sessions-off mode (SESSION_ON=false)', () => {
  let c: Client;
  beforeAll(async () => {
    c = await open({ sessions: false }, false);
  });
  afterAll(() => c.ui.close());

  it('lets API calls through while /auth/check and user-id handlers answer 401 "Not authenticated"', async () => {
    expect((await c.call('GET', `${P}/jobs`)).status).toBe(200);
    const check = await c.call('GET', '/auth/check');
    expect([check.status, check.json().message]).toEqual([401, 'Not authenticated']);
    const pause = await c.call('POST', `${P}/jobs/1/activate`, { activate: false });
    expect([pause.status, pause.json().message]).toEqual([401, 'Not authenticated']);
  });
});

describe('write-timeout mode (olake-ui v0.4.2–v0.4.3)', () => {
  let c: Client;
  beforeAll(async () => {
    c = await open({
      writeTimeoutMs: 100,
      checkDestination: () =>
        new Promise((r) => setTimeout(() => r({ status: 'SUCCEEDED', message: '' }), 300)),
    });
  });
  afterAll(() => c.ui.close());

  it('closes the connection unanswered when the answer comes after the write timeout', async () => {
    const config = JSON.stringify({ type: 'ICEBERG', writer: {} });
    await expect(
      c.call('POST', `${P}/destinations/test`, { type: 'iceberg', version: 'v0.9.4', config }),
    ).rejects.toThrow(/other side closed|socket/i);
    const telemetry = (await c.call('GET', '/telemetry-id')).json().data as { version: string };
    expect(telemetry.version).toBe('v0.4.3');
  });
});

describe('a run started through the API writes its log as it goes', () => {
  let c: Client;
  let now: number;
  beforeAll(async () => {
    c = await open({ runDurationMs: 10_000 });
  });
  afterAll(() => c.ui.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * Starts a sync of an idle job at the (fake) clock's now; returns its id and the run's file path. With
   * Math.random fixed meanwhile, the run's log (seed.ts taskLogs) is the same each time: its lines evenly
   * spread over 90 % of the run, seven of them shown (info), at 0, 1, 2, 4, 5, 6 and 8 s of 10 (random
   * gaps once put the second line past the middle).
   */
  async function startSync(): Promise<{ id: number; file: string }> {
    const job = c.ui.jobs.find((j) => j.activate && j.tasks[0]?.status !== 'Running' && j.tasks.length > 0);
    if (!job) throw new Error('no idle job');
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
    try {
      expect((await c.call('POST', `${P}/jobs/${job.id}/sync`, {})).status).toBe(200);
    } finally {
      random.mockRestore();
    }
    return { id: job.id, file: job.tasks[0]?.file_path as string };
  }
  async function log(id: number, file: string) {
    const res = await c.call('POST', `${P}/jobs/${id}/tasks/${file}/logs?cursor=-1&limit=1000`, {
      file_path: file,
    });
    return (res.json().data as { logs: { time: string; message: string }[] }).logs;
  }
  async function status(id: number, file: string) {
    const tasks = (await c.call('GET', `${P}/jobs/${id}/tasks`)).json().data as {
      file_path: string;
      status: string;
    }[];
    return tasks.find((t) => t.file_path === file)?.status;
  }

  it('shows the lines whose time has come, then every line and the end when the run is over', async () => {
    // A whole second: the log's times have no milliseconds, so which line's time has come is known.
    now = Math.floor(Date.now() / 1000) * 1000;
    vi.useFakeTimers({ toFake: ['Date'], now });
    const { id, file } = await startSync();
    const first = await log(id, file);
    expect(first.map((l) => l.message)).toEqual([expect.stringMatching(/^Starting sync for job /)]);
    vi.setSystemTime(now + 4_500);
    const middle = await log(id, file);
    expect(middle).toHaveLength(4);
    expect(middle.slice(0, first.length)).toEqual(first);
    expect(middle.map((l) => l.message)).not.toContain('Sync completed; state committed');
    expect(await status(id, file)).toBe('Running');
    vi.setSystemTime(now + 10_001);
    expect(await status(id, file)).toBe('Completed');
    const all = await log(id, file);
    expect(all).toHaveLength(8);
    expect(all.slice(0, middle.length)).toEqual(middle);
    expect(all.at(-1)?.message).toBe('Sync completed; state committed');
    const times = all.map((l) => Date.parse(l.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('a cancelled run never writes the lines it had not written yet', async () => {
    now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now });
    const { id, file } = await startSync();
    vi.setSystemTime(now + 3_000);
    const before = await log(id, file);
    expect((await c.call('GET', `${P}/jobs/${id}/cancel`)).status).toBe(200);
    vi.setSystemTime(now + 20_000);
    const after = await log(id, file);
    expect(after.slice(0, -1)).toEqual(before);
    expect(after.at(-1)?.message).toBe('Workflow cancellation requested; stopping writers');
  });
});
