import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManagementClient } from '../../src/management/client.js';
import { ManagementError } from '../../src/management/types.js';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';

let ui: OlakeUiEmulator;

beforeAll(async () => {
  ui = await startOlakeUiEmulator({ jobs: seedJobs(20, 7), users: { admin: 'pw-admin-1' } });
});
afterAll(() => ui.close());
beforeEach(() => ui.setFault(undefined));

async function loggedIn(options: Partial<ConstructorParameters<typeof ManagementClient>[0]> = {}) {
  const client = new ManagementClient({ url: ui.url, ...options });
  await client.login('admin', 'pw-admin-1');
  return client;
}

async function failure(promise: Promise<unknown>): Promise<ManagementError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ManagementError);
  return error as ManagementError;
}

describe('login and the session cookie', () => {
  it('rejects a wrong password as invalid credentials', async () => {
    const client = new ManagementClient({ url: ui.url });
    const error = await failure(client.login('admin', 'nope'));
    expect(error.kind).toBe('unauthorized');
    expect(error.message).toMatch(/Invalid credentials/);
    expect(await client.jar.getCookies(`${ui.url}/`)).toEqual([]);
    await client.close();
  });

  it('keeps olake-session with its attributes and sends it back', async () => {
    const client = await loggedIn();
    const [cookie] = await client.jar.getCookies(`${ui.url}/`);
    expect(cookie?.key).toBe('olake-session');
    expect(cookie?.path).toBe('/');
    expect(cookie?.maxAge).toBe(2592000);
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('lax');
    expect(await client.authCheck()).toBe(true);
    expect(ui.requests.at(-1)?.cookie).toBe(`olake-session=${cookie?.value}`);
    await client.close();
  });

  it('reports a missing session as unauthorized with the server message', async () => {
    const client = new ManagementClient({ url: ui.url });
    expect(await client.authCheck()).toBe(false);
    const error = await failure(client.listJobs('123'));
    expect(error.kind).toBe('unauthorized');
    expect(error.message).toContain('Unauthorized, try login again');
    await client.close();
  });

  it('re-logs in once on an expired session and retries the request', async () => {
    let calls = 0;
    const client = await loggedIn();
    client.reauthenticate = async () => {
      calls++;
      await client.login('admin', 'pw-admin-1');
      return true;
    };
    ui.expireSessions();
    const [jobs, tasks] = await Promise.all([client.listJobs('123'), client.listTasks('123', 2)]);
    expect(jobs).toHaveLength(20);
    expect(Array.isArray(tasks)).toBe(true);
    expect(calls).toBe(1);
    await client.close();
  });

  it('gives up after one retry when the new session is refused too', async () => {
    const client = await loggedIn();
    let calls = 0;
    client.reauthenticate = async () => {
      calls++;
      return true;
    };
    ui.expireSessions();
    expect((await failure(client.listJobs('123'))).kind).toBe('unauthorized');
    expect(calls).toBe(1);
    await client.close();
  });
});

describe('jobs', () => {
  it('lists jobs, with last_run_* absent for jobs that never ran', async () => {
    const client = await loggedIn();
    const jobs = await client.listJobs('123');
    expect(jobs.map((j) => j.id)).toEqual(ui.jobs.map((j) => j.id));
    const never = jobs.filter((j) => j.last_run_state === undefined);
    expect(never.length).toBeGreaterThan(0);
    for (const job of never) expect(job.last_run_time).toBeUndefined();
    expect(jobs.some((j) => !j.activate)).toBe(true);
    expect(await client.listJobs('999')).toEqual([]);
    await client.close();
  });

  it('pauses, resumes, syncs and cancels, with the methods the OLake UI uses', async () => {
    const client = await loggedIn();
    const job = ui.jobs.find((j) => j.activate && j.tasks[0]?.status !== 'Running');
    if (!job) throw new Error('seed has no idle active job');
    expect(await client.setActive('123', job.id, false)).toBe(`job ${job.id} paused successfully`);
    expect(ui.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/api/v1/project/123/jobs/${job.id}/activate`,
    });
    const paused = await failure(client.syncNow('123', job.id));
    expect(paused.kind).toBe('server');
    expect(paused.message).toContain('failed to trigger sync: job is paused, please unpause to run sync');
    expect(await client.setActive('123', job.id, true)).toBe(`job ${job.id} resumed successfully`);
    expect(await client.syncNow('123', job.id)).toBe(`sync triggered successfully for job_id[${job.id}]`);
    expect((await client.getJob('123', job.id)).last_run_state).toBe('Running');
    expect(await client.cancelRun('123', job.id)).toMatch(/cancel requested successfully/);
    expect(ui.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: `/api/v1/project/123/jobs/${job.id}/cancel`,
    });
    expect((await client.listTasks('123', job.id))[0]?.status).toBe('Canceled');
    await client.close();
  });

  it('reads task logs with POST, without debug lines, paged from the tail', async () => {
    const client = await loggedIn();
    const job = ui.jobs.find((j) => j.tasks.length > 0);
    if (!job) throw new Error('seed has no job with runs');
    const [task] = await client.listTasks('123', job.id);
    if (!task) throw new Error('no task');
    const all = job.tasks[0]?.logs.filter((l) => l.level !== 'debug') ?? [];
    const page = await client.taskLogs('123', job.id, task, { limit: 2 });
    expect(ui.requests.at(-1)?.method).toBe('POST');
    expect(page.logs).toEqual(all.slice(-2));
    expect(page.has_more_older).toBe(all.length > 2);
    const older = await client.taskLogs('123', job.id, task, { cursor: page.older_cursor, limit: 1000 });
    expect([...older.logs, ...page.logs]).toEqual(all);
    expect(older.logs.some((l) => l.level === 'debug')).toBe(false);
    await client.close();
  });

  it('answers 404 for an unknown job', async () => {
    const client = await loggedIn();
    const error = await failure(client.getJob('123', 4242));
    expect(error.kind).toBe('not-found');
    expect(error.message).toMatch(/job not found/);
    await client.close();
  });
});

describe('destinations', () => {
  it('tests, creates, and refuses a duplicate name', async () => {
    const client = await loggedIn();
    expect(await client.destinationVersions('123')).toContain('v0.9.4');
    const config = JSON.stringify({
      type: 'ICEBERG',
      writer: { catalog_type: 'rest', iceberg_s3_path: 's3://b' },
    });
    const failed = await client.testDestination('123', { type: 'iceberg', version: 'v0.9.4', config });
    expect(failed.connection_result.status).toBe('FAILED');
    expect(failed.connection_result.message).toContain(
      'rest_catalog_url is required when using REST catalog',
    );
    const broken = await client.testDestination('123', { type: 'iceberg', version: 'v0.9.4', config: '{' });
    expect(broken.connection_result).toEqual({
      status: 'FAILED',
      message: expect.stringContaining('connection test failed'),
    });
    expect(await client.isNameUnique('123', 'lake', 'destination')).toBe(true);
    expect(
      await client.createDestination('123', { name: 'lake', type: 'iceberg', version: 'v0.9.4', config }),
    ).toBe('destination lake created successfully');
    expect(ui.destinations.at(-1)?.config).toBe(config);
    expect(await client.isNameUnique('123', 'lake', 'destination')).toBe(false);
    const dup = await failure(
      client.createDestination('123', { name: 'lake', type: 'iceberg', version: 'v0.9.4', config }),
    );
    expect(dup.serverMessage).toBe("failed to create destination: destination name 'lake' is not unique");
    await client.close();
  });
});

describe('failures get a clear message', () => {
  const cases = [
    [{ kind: 'status500' }, 'server', /The OLake UI failed \(HTTP 500\): failed to list jobs/],
    [{ kind: 'html502' }, 'bad-response', /answered HTTP 502 with an HTML page .*proxy/],
    [{ kind: 'malformed-json' }, 'bad-response', /HTTP 200 with text that is not JSON/],
    [{ kind: 'huge-body' }, 'bad-response', /sent more than 1 MiB .*stopped reading/],
    [
      { kind: 'redirect' },
      'bad-response',
      /redirect \(HTTP 302 to http:\/\/127\.0\.0\.1:1\/sso\/login\); floe does not follow redirects/,
    ],
    [{ kind: 'slow', delayMs: 3000 }, 'network', /did not answer within 1 s/],
    [{ kind: 'hang' }, 'network', /did not answer within 1 s/],
  ] as const;
  for (const [fault, kind, message] of cases)
    it(`${fault.kind}`, async () => {
      const client = await loggedIn({ timeoutMs: 1000, maxBodyBytes: 1024 * 1024 });
      ui.setFault(fault, { path: /^\/api\// });
      const error = await failure(client.listJobs('123'));
      expect(error.kind).toBe(kind);
      expect(error.message).toMatch(message);
      expect(error.message).not.toMatch(/\n\s+at /);
      await client.close();
    });

  it('a JSON body that is not the envelope', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => res.end('{"jobs":[]}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const client = new ManagementClient({ url: `http://127.0.0.1:${port}` });
    expect((await failure(client.listJobs('123'))).message).toMatch(
      /not the OLake UI's \{success, message, data\} envelope/,
    );
    await client.close();
    server.close();
  });

  it('a refused connection and a cancelled request', async () => {
    const client = new ManagementClient({ url: 'http://127.0.0.1:1' });
    const refused = await failure(client.listJobs('123'));
    expect(refused.kind).toBe('network');
    expect(refused.message).toMatch(/connection refused\. Is the OLake UI running there\?/);
    await client.close();
    const live = await loggedIn();
    ui.setFault({ kind: 'hang' });
    const abort = new AbortController();
    const pending = live.listJobs('123', abort.signal);
    abort.abort();
    expect((await failure(pending)).kind).toBe('cancelled');
    await live.close();
  });

  it('rejects URLs that are not http(s) or carry credentials', () => {
    expect(() => new ManagementClient({ url: 'ftp://x' })).toThrow(/http:\/\/ or https:\/\//);
    expect(() => new ManagementClient({ url: 'http://a:b@localhost' })).toThrow(/no credentials in the URL/);
  });
});
