// The OLake UI emulator's own quirks, seen on the wire.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';

let ui: OlakeUiEmulator;
let cookie = '';

async function call(method: string, path: string, body?: unknown, withCookie = true) {
  const res = await request(`${ui.url}${path}`, {
    method: method as 'GET',
    headers: { ...(withCookie && cookie ? { cookie } : {}), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
}

beforeAll(async () => {
  ui = await startOlakeUiEmulator({ sessionTtlMs: 60_000 });
});
afterAll(() => ui.close());

describe('OLake UI emulator', () => {
  it('logs in with the olake-session cookie attributes of the Gin backend', async () => {
    expect((await call('POST', '/login', { username: 'admin' })).json()).toEqual({
      success: false,
      message: 'Invalid request format',
    });
    const bad = await call('POST', '/login', { username: 'admin', password: 'x' });
    expect([bad.status, bad.json()]).toEqual([401, { success: false, message: 'Invalid credentials' }]);
    const res = await call('POST', '/login', { username: 'admin', password: 'password' });
    expect(res.json()).toEqual({ success: true, message: 'login successful', data: { username: 'admin' } });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(
      /^olake-session=[0-9A-Z]{26}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/,
    );
    cookie = setCookie.split(';')[0] as string;
    expect((await call('GET', '/auth/check')).json()).toEqual({
      success: true,
      message: 'authenticated successfully',
    });
  });

  it('answers 401 "Unauthorized, try login again" without a session, 404 JSON for unknown /api paths', async () => {
    const anon = await call('GET', '/api/v1/project/123/jobs', undefined, false);
    expect([anon.status, anon.json()]).toEqual([
      401,
      { success: false, message: 'Unauthorized, try login again' },
    ]);
    const unknown = await call('GET', '/api/v1/project/123/nothing-here');
    expect([unknown.status, unknown.text]).toEqual([404, '{"message":"not found","success":false}']);
    const spa = await call('GET', '/jobs/3');
    expect(spa.headers['content-type']).toContain('text/html');
  });

  it('lists jobs without last_run_* for jobs that never ran and without config strings', async () => {
    const { data } = (await call('GET', '/api/v1/project/123/jobs')).json();
    const never = data.filter((j: Record<string, unknown>) => !('last_run_state' in j));
    expect(never.length).toBeGreaterThan(0);
    for (const j of never) expect(Object.keys(j)).not.toContain('last_run_time');
    for (const j of data) expect(j.source.config).toBeUndefined();
    const tasks = (await call('GET', `/api/v1/project/123/jobs/${data[0].id}/tasks`)).json().data;
    expect(tasks[0]).not.toHaveProperty('logs');
  });

  it('cancels only with GET and serves logs only with POST', async () => {
    expect((await call('POST', '/api/v1/project/123/jobs/1/cancel')).status).toBe(404);
    expect((await call('GET', '/api/v1/project/123/jobs/1/cancel')).status).toBe(200);
    expect((await call('GET', '/api/v1/project/123/jobs/1/tasks/x/logs')).status).toBe(404);
  });

  it('keeps the destination config as a string and answers check-unique with 409', async () => {
    const config = JSON.stringify({ type: 'ICEBERG', writer: {} });
    const body = { name: 'd1', type: 'iceberg', version: 'v0.9.4', config };
    expect((await call('POST', '/api/v1/project/123/destinations', body)).json().data).toEqual(body);
    const listed: { name: string; config: string }[] = (
      await call('GET', '/api/v1/project/123/destinations')
    ).json().data;
    expect(listed.find((d) => d.name === 'd1')?.config).toBe(config);
    const dup = await call('POST', '/api/v1/project/123/check-unique', {
      name: 'd1',
      entity_type: 'destination',
    });
    expect([dup.status, dup.json().message]).toEqual([409, "destination name 'd1' is not unique"]);
    const bad = await call('POST', '/api/v1/project/123/destinations', { ...body, name: 'd2', type: 'glue' });
    expect(bad.json().message).toContain("invalid destination type 'glue'");
  });

  it('ends sessions on demand', async () => {
    ui.expireSessions();
    expect((await call('GET', '/auth/check')).status).toBe(401);
  });
});

describe('seedJobs', () => {
  it('is repeatable and mixes every state', () => {
    const now = Date.parse('2026-08-20T06:00:00Z');
    expect(seedJobs(12, 4, now)).toEqual(seedJobs(12, 4, now));
    const jobs = seedJobs(12, 4, now);
    const states = new Set(jobs.map((j) => j.last_run_state ?? 'never'));
    expect([...states].sort()).toEqual(['Canceled', 'Completed', 'Failed', 'Running', 'never']);
    expect(jobs.some((j) => !j.activate)).toBe(true);
    expect(jobs.filter((j) => j.last_run_state === 'Running').every((j) => j.activate)).toBe(true);
    expect(new Set(jobs.map((j) => j.frequency)).size).toBeGreaterThan(2);
    for (const job of jobs.filter((j) => j.tasks.length > 0)) {
      expect(job.last_run_time).toBe(job.tasks[0]?.start_time);
      for (const task of job.tasks) expect(task.logs.length).toBeGreaterThan(2);
    }
  });
});

describe('checkIcebergConfig (the olake check stand-in)', () => {
  it('exchanges an OAuth2 credential, then reads /v1/config with the token', async () => {
    const { createServer } = await import('node:http');
    const seen: string[] = [];
    const catalog = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        seen.push(`${req.method} ${req.url?.split('?')[0]} ${req.headers.authorization ?? ''}`);
        if (req.url === '/v1/oauth/tokens') {
          const form = new URLSearchParams(body);
          const ok = form.get('client_id') === 'id' && form.get('client_secret') === 's3cret';
          res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify(ok ? { access_token: 'tkn', token_type: 'bearer' } : { error: 'invalid_client' }),
          );
        }
        const ok = req.headers.authorization === 'Bearer tkn';
        res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        res.end(ok ? '{"defaults":{},"overrides":{}}' : '{}');
      });
    });
    await new Promise<void>((r) => catalog.listen(0, '127.0.0.1', r));
    const uri = `http://127.0.0.1:${(catalog.address() as { port: number }).port}`;
    const writer = {
      catalog_type: 'rest',
      iceberg_s3_path: 'wh',
      rest_catalog_url: uri,
      credential: 'id:s3cret',
    };
    const { checkIcebergConfig } = await import('../../src/sandbox/olake-ui/index.js');
    expect(await checkIcebergConfig({ type: 'ICEBERG', writer })).toEqual({
      status: 'SUCCEEDED',
      message: '',
    });
    expect(seen).toEqual(['POST /v1/oauth/tokens ', 'GET /v1/config Bearer tkn']);
    const refused = await checkIcebergConfig({
      type: 'ICEBERG',
      writer: { ...writer, credential: 'id:wrong' },
    });
    expect(refused.status).toBe('FAILED');
    expect(refused.message).toContain('NotAuthorizedException: Not authorized: invalid_client');
    const remote = await checkIcebergConfig({
      type: 'ICEBERG',
      writer: { ...writer, rest_catalog_url: 'https://example.com' },
    });
    expect(remote.message).toContain('only reaches loopback catalogs');
    catalog.close();
  });
});

describe('session lifetime', () => {
  it('ends sessions after sessionTtlMs on the server while the cookie still says 30 days', async () => {
    const short = await startOlakeUiEmulator({ sessionTtlMs: 0 });
    const login = await request(`${short.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'password' }),
    });
    await login.body.dump();
    const setCookie = String(login.headers['set-cookie']);
    expect(setCookie).toContain('Max-Age=2592000');
    const check = await request(`${short.url}/auth/check`, {
      headers: { cookie: setCookie.split(';')[0] as string },
    });
    expect([check.statusCode, await check.body.json()]).toEqual([
      401,
      { success: false, message: 'Not authenticated' },
    ]);
    await short.close();
  });
});
