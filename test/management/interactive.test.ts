// The interactive paths in a real pseudo-terminal: the masked password prompt, the storage choice when
// the keychain is unusable, the remember-password question, and `floe jobs` opening the browser.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { tempConfigDir } from './support.js';

const BIN = resolve(import.meta.dirname, '../../bin/floe.js');
const PASSWORD = 'pw-Typed-3390';
let ui: OlakeUiEmulator;

beforeAll(async () => {
  ui = await startOlakeUiEmulator({ jobs: seedJobs(6, 2), users: { admin: PASSWORD } });
});
afterAll(() => ui.close());

/** A CLI run in a pty; `waitFor` resolves when the output matches (no sleeps). */
function terminal(args: string[], configDir: string) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  delete env.CI;
  delete env.FLOE_PASSWORD;
  Object.assign(env, {
    FLOE_CONFIG_DIR: configDir,
    TERM: 'xterm-256color',
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-test-bus',
  });
  const term = pty.spawn(process.execPath, [BIN, ...args], { cols: 100, rows: 30, env });
  let output = '';
  const waiters: { re: RegExp; done: () => void }[] = [];
  term.onData((data) => {
    output += data;
    for (const w of [...waiters])
      if (w.re.test(output)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.done();
      }
  });
  const exit = new Promise<number>((done) => term.onExit(({ exitCode }) => done(exitCode)));
  return {
    write: (text: string) => term.write(text),
    output: () => output,
    exit,
    waitFor: (re: RegExp) =>
      new Promise<void>((done) => {
        if (re.test(output)) done();
        else waiters.push({ re, done });
      }),
  };
}

describe('interactive login', () => {
  it('masks the password, offers file storage when the keychain fails, and remembers the password', async () => {
    const dir = tempConfigDir();
    const t = terminal(['login', '--url', ui.url], dir);
    await t.waitFor(/Password for admin at .*: $/);
    t.write(`${PASSWORD.slice(0, -1)}x\u007f${PASSWORD.slice(-1)}\r`);
    await t.waitFor(/Choose a number: /);
    expect(t.output()).toMatch(/The OS keychain cannot be used: .+/);
    expect(t.output()).toContain('In a plaintext file');
    t.write('1\r');
    await t.waitFor(/Keep the password too, .*\? \[y\/N\] /);
    t.write('y\r');
    expect(await t.exit).toBe(0);
    expect(t.output()).toContain('*'.repeat(PASSWORD.length));
    expect(t.output()).toContain('stored in plain text');
    expect(t.output()).not.toContain(PASSWORD);
    const secrets = JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(secrets[`password/${ui.url}/admin`]).toBe(PASSWORD);
    expect(Object.keys(secrets)).toContain(`session/${ui.url}`);
  });

  it('can keep the session for this run only', async () => {
    const dir = tempConfigDir();
    const t = terminal(['login', '--url', ui.url], dir);
    await t.waitFor(/Password for admin/);
    t.write(`${PASSWORD}\r`);
    await t.waitFor(/Choose a number: /);
    t.write('2\r');
    expect(await t.exit).toBe(0);
    expect(t.output()).toContain('Session not stored (this run only)');
    expect(t.output()).toContain('Later commands need FLOE_PASSWORD');
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config.management.secretStorage).toBe('env');
  });

  it('exits 130 on Ctrl+C at the password prompt', async () => {
    const t = terminal(['login', '--url', ui.url], tempConfigDir());
    await t.waitFor(/Password for admin/);
    t.write('abc\u0003');
    expect(await t.exit).toBe(130);
  });
});

describe('floe jobs on a terminal', () => {
  it('opens the jobs browser with the stored session', async () => {
    const dir = tempConfigDir();
    const login = terminal(['login', '--url', ui.url, '--insecure-storage'], dir);
    await login.waitFor(/Password for admin/);
    login.write(`${PASSWORD}\r`);
    await login.waitFor(/\[y\/N\] /);
    login.write('\r');
    expect(await login.exit).toBe(0);
    const t = terminal(['jobs'], dir);
    await t.waitFor(new RegExp(ui.jobs[0]?.name ?? 'no job'));
    t.write('q');
    expect(await t.exit).toBe(0);
  });
});
