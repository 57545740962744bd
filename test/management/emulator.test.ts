// The OLake UI emulator's own quirks, seen on the wire.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalogEmulator } from '../../src/sandbox/catalog/index.js';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { startS3Server } from '../../src/sandbox/s3.js';

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
  it('exchanges the OAuth2 credential, then GET_OR_CREATEs test_olake.test_olake and writes one record, as OLake does', async () => {
    const { checkIcebergConfig } = await import('../../src/sandbox/olake-ui/index.js');
    const directory = mkdtempSync(join(tmpdir(), 'floe-check-s3-'));
    const s3 = await startS3Server({ port: 0, bucket: 'warehouse', directory });
    const catalog = await startCatalogEmulator({
      auth: 'bearer',
      clients: [{ id: 'id', secret: 's3cret' }],
      objectStore: {
        endpoint: s3.url,
        region: 'us-east-1',
        accessKeyId: s3.accessKey,
        secretAccessKey: s3.secretKey,
      },
    });
    const writer = {
      catalog_type: 'rest',
      iceberg_s3_path: 's3://warehouse',
      rest_catalog_url: catalog.url,
      credential: 'id:s3cret',
      aws_region: 'us-east-1',
      s3_endpoint: s3.url,
      aws_access_key: s3.accessKey,
      aws_secret_key: s3.secretKey,
    };
    const files = () => readdirSync(join(directory, 'warehouse'), { recursive: true }).map(String);
    try {
      expect(await checkIcebergConfig({ type: 'ICEBERG', writer })).toEqual({
        status: 'SUCCEEDED',
        message: '',
      });
      const paths = () => catalog.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`);
      expect(paths()).toEqual([
        'POST /v1/oauth/tokens',
        'GET /v1/config',
        'GET /v1/main/namespaces/test_olake/tables/test_olake',
        'POST /v1/main/namespaces',
        'POST /v1/main/namespaces/test_olake/tables',
      ]);
      expect(files().some((f) => /test_olake\/test_olake\/data\/.*\.parquet/.test(f))).toBe(true);
      // A second check loads the table it left; nothing is committed.
      catalog.requests.length = 0;
      expect((await checkIcebergConfig({ type: 'ICEBERG', writer })).status).toBe('SUCCEEDED');
      expect(paths().slice(2)).toEqual(['GET /v1/main/namespaces/test_olake/tables/test_olake']);

      catalog.setDeny(['read']);
      const forbidden = await checkIcebergConfig({ type: 'ICEBERG', writer });
      expect(forbidden.status).toBe('FAILED');
      expect(forbidden.message).toContain('failed to create or get table');
      expect(forbidden.message).toContain('org.apache.iceberg.exceptions.ForbiddenException: Forbidden:');
      catalog.setDeny([]);

      const refused = await checkIcebergConfig({
        type: 'ICEBERG',
        writer: { ...writer, credential: 'id:wrong' },
      });
      expect(refused.status).toBe('FAILED');
      expect(refused.message).toContain('NotAuthorizedException: Not authorized: invalid_client');
      const unwritable = await checkIcebergConfig({
        type: 'ICEBERG',
        writer: { ...writer, aws_access_key: 'UNKNOWN' },
      });
      expect(unwritable.message).toContain('failed to insert request');
      expect(unwritable.message).toContain('S3Exception');
      const remote = await checkIcebergConfig({
        type: 'ICEBERG',
        writer: { ...writer, rest_catalog_url: 'https://example.com' },
      });
      expect(remote.message).toContain('only reaches loopback catalogs');
    } finally {
      await catalog.close();
      await s3.close();
      rmSync(directory, { recursive: true, force: true });
    }
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
