// floe login → floe jobs in a second run → logout, with the session in the real Secret Service. Each run
// is in process (support.ts floe, a floe start of its own), on the process project's gnome-keyring.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { itWithService } from '../support/services.js';
import { loginAccounts } from '../support/stored.js';
import { floe, keychainAccounts, leaks, type Run, tempConfigDir } from './support.js';

const it = itWithService(process.env.FLOE_TEST_KEYRING, 'the Secret Service (gnome-keyring)');
const PASSWORD = 'pw-Keyring-7781';

let ui: OlakeUiEmulator;
let other: OlakeUiEmulator;
let configDir: string;
const runs: Run[] = [];

async function run(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const result = await floe(args, { configDir, ...options, keychain: 'real' });
  runs.push(result);
  return result;
}

/** The keychain entries of this test's OLake UI (whatever their generation). */
const ours = () => keychainAccounts(configDir).filter((account) => account.includes(ui.url));

const sessionCookies = (emu: OlakeUiEmulator) =>
  emu.requests.flatMap((r) =>
    [...(r.cookie ?? '').matchAll(/olake-session=([^;]+)/g)].map((m) => m[1] as string),
  );

beforeAll(async () => {
  ui = await startOlakeUiEmulator({ jobs: seedJobs(9, 3), users: { admin: PASSWORD } });
  other = await startOlakeUiEmulator({ users: { admin: 'another-password' } });
  configDir = tempConfigDir();
});

afterAll(async () => {
  await ui.close();
  await other.close();
  await floe(['logout', '--url', ui.url], { configDir, keychain: 'real' });
});

describe('the session in the OS keychain', () => {
  it('logs in with --password-stdin and a second run reuses the session', async () => {
    const login = await run(['login', '--url', ui.url, '--password-stdin'], { input: `${PASSWORD}\n` });
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`Logged in to ${ui.url} as admin. Session stored in the OS keychain`);
    expect(keychainAccounts(configDir)).toContain(loginAccounts(configDir).session);
    const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(config.management).toMatchObject({
      url: ui.url,
      username: 'admin',
      project: '123',
      secretStorage: 'keychain',
    });
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).not.toContain('olake-session');

    const logins = ui.requests.filter((r) => r.path === '/login').length;
    const jobs = await run(['jobs', '--json']);
    expect(jobs.code).toBe(0);
    const listed = JSON.parse(jobs.stdout) as { id: number }[];
    expect(listed.map((j) => j.id)).toEqual(ui.jobs.map((j) => j.id));
    expect(ui.requests.filter((r) => r.path === '/login').length).toBe(logins);
    const listing = [...ui.requests].reverse().find((r) => r.path === '/api/v1/project/123/jobs');
    expect(listing?.cookie).toMatch(/^olake-session=[0-9A-Z]{26}$/);

    const status = await run(['login', '--status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Session stored in the OS keychain');
  });

  it('never sends the cookie to another origin', async () => {
    const known = new Set(sessionCookies(ui));
    expect(known.size).toBeGreaterThan(0);
    // No session for that origin: floe jobs exits 4 without a request.
    const jobs = await run(['jobs', '--json', '--url', other.url]);
    expect(jobs.code).toBe(4);
    expect(other.requests).toEqual([]);
    const login = await run(['login', '--url', other.url, '--password-stdin'], { input: 'wrong' });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain('Invalid credentials');
    expect(other.requests.length).toBeGreaterThan(0);
    expect(other.requests.every((r) => r.cookie === undefined)).toBe(true);
  });

  it('logs in again with FLOE_PASSWORD when the session expired, else exits 4', async () => {
    const before = sessionCookies(ui).at(-1);
    ui.expireSessions();
    const renewed = await run(['jobs', '--json'], { env: { FLOE_PASSWORD: PASSWORD } });
    expect(renewed.code).toBe(0);
    expect(JSON.parse(renewed.stdout)).toHaveLength(9);
    const tail = ui.requests.slice(-3).map((r) => `${r.method} ${r.path}`);
    expect(tail).toEqual(['GET /api/v1/project/123/jobs', 'POST /login', 'GET /api/v1/project/123/jobs']);
    const after = sessionCookies(ui).at(-1);
    expect(after).not.toBe(before);
    // The renewed session went back into the keychain: the next run uses it without a login.
    const again = await run(['jobs', '--json']);
    expect(again.code).toBe(0);
    expect(sessionCookies(ui).at(-1)).toBe(after);

    ui.expireSessions();
    const expired = await run(['jobs', '--json']);
    expect(expired.code).toBe(4);
    expect(expired.stdout).toBe('');
    expect(expired.stderr).toContain('Run "floe login", or set FLOE_PASSWORD');
    expect(expired.stderr).not.toMatch(/\n\s+at /);
  });

  it('re-logs in silently with a remembered password', async () => {
    const login = await run(['login', '--password-stdin', '--remember-password'], { input: PASSWORD });
    expect(login.code).toBe(0);
    expect(keychainAccounts(configDir)).toContain(loginAccounts(configDir).password);
    // The login before it is gone: one session, one password.
    expect(ours()).toHaveLength(2);
    ui.expireSessions();
    const jobs = await run(['jobs', '--json']);
    expect(jobs.code).toBe(0);
  });

  it('logout forgets the session and the password', async () => {
    const logout = await run(['logout']);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain('Forgot the session and the remembered password');
    expect(ours()).toEqual([]);
    expect((await run(['jobs', '--json'])).code).toBe(4);
    expect((await run(['login', '--status'])).code).toBe(4);
  });

  it('moves the session out of the keychain when it is stored in the file instead', async () => {
    expect((await run(['login', '--password-stdin'], { input: PASSWORD })).code).toBe(0);
    expect(ours()).toEqual([loginAccounts(configDir).session]);
    const moved = await run(['login', '--password-stdin', '--insecure-storage'], { input: PASSWORD });
    expect(moved.code).toBe(0);
    expect(ours()).toEqual([]);
    const secrets = JSON.parse(readFileSync(join(configDir, 'secrets.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(Object.keys(secrets)).toEqual([loginAccounts(configDir).session]);
    expect((await run(['jobs', '--json'])).code).toBe(0);
    expect((await run(['logout'])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(configDir, 'secrets.json'), 'utf8'))).toEqual({});
  });

  it('printed neither the password nor a cookie', () => {
    expect(runs.length).toBeGreaterThan(8);
    for (const r of runs) expect(leaks(r, [PASSWORD, ...sessionCookies(ui)])).toEqual([]);
  });
});
