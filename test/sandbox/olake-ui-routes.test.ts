// The OLake UI emulator serves the client's route table (src/management/routes.ts) itself: its handlers
// are keyed by those routes, so a route added there without a handler fails here (and in tsc).
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, routePath } from '../../src/management/routes.js';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';

describe('the OLake UI emulator and the client route table', () => {
  let ui: OlakeUiEmulator;
  let cookie = '';

  async function call(method: string, path: string) {
    const res = await request(`${ui.url}${path}`, {
      method: method as 'GET',
      headers: { cookie, 'content-type': 'application/json' },
    });
    const text = await res.body.text();
    return { status: res.statusCode, text };
  }

  beforeAll(async () => {
    ui = await startOlakeUiEmulator({ jobs: seedJobs(3, 1, Date.now()) });
    const res = await request(`${ui.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'password' }),
    });
    await res.body.dump();
    cookie = String(res.headers['set-cookie']).split(';')[0] as string;
  });
  afterAll(() => ui.close());

  /** Gin's NoRoute answer (what an unserved route gets). */
  const NO_ROUTE = '{"message":"not found","success":false}';

  it('answers a route outside the table with the router’s not-found (the test below can fail)', async () => {
    const answer = await call('GET', '/api/v1/project/123/jobs/1/nothing');
    expect(answer).toEqual({ status: 404, text: NO_ROUTE });
  });

  it.each(Object.keys(ROUTES) as (keyof typeof ROUTES)[])('serves %s', async (name) => {
    const route = ROUTES[name];
    const job = ui.jobs.find((j) => j.tasks.length > 0);
    const params = { project: '123', id: job?.id ?? 1, file: job?.tasks[0]?.file_path ?? 'x' };
    const answer = await call(route.method, routePath(route, params));
    // Without a body a POST may be refused (400), never left unrouted or failing inside the emulator.
    expect(answer.text).not.toBe(NO_ROUTE);
    expect(answer.text).not.toMatch(/internal error/);
    expect(answer.status).not.toBe(500);
  });
});
