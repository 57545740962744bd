// The interactive paths in a real pseudo-terminal: the masked password prompt, the storage choice when
// the keychain is unusable, the remember-password question, and `floe jobs` opening the browser.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTerminal, type Terminal } from '../../scripts/lib/terminal.mjs';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { loginAccounts } from '../support/stored.js';
import { floe, tempConfigDir } from './support.js';

const PASSWORD = 'pw-Typed-3390';
let ui: OlakeUiEmulator;

beforeAll(async () => {
  ui = await startOlakeUiEmulator({ jobs: seedJobs(6, 2), users: { admin: PASSWORD } });
});
afterAll(() => ui.close());

/** `floe ARGS` on a 100x30 pty with an unusable keychain and FLOE_CONFIG_DIR set. */
function terminal(args: string[], configDir: string): Terminal {
  return startTerminal({
    args,
    cols: 100,
    rows: 30,
    env: { FLOE_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-test-bus' },
  });
}

describe('interactive login', () => {
  it('masks the password, offers file storage when the keychain fails, and remembers the password', async () => {
    const dir = tempConfigDir();
    const t = terminal(['login', '--url', ui.url], dir);
    await t.waitFor(/^Password for admin at .+:$/m);
    await t.press(`${PASSWORD.slice(0, -1)}x\u007f${PASSWORD.slice(-1)}\r`);
    await t.waitFor(/Choose a number:$/m);
    expect(t.raw()).toMatch(/The OS keychain cannot be used: .+/);
    expect(t.raw()).toContain('In a plaintext file');
    await t.press('1\r');
    await t.waitFor(/Keep the password too, .*\? \[y\/N\]$/m);
    await t.press('y\r');
    expect(await t.exit()).toBe(0);
    expect(t.raw()).toContain('*'.repeat(PASSWORD.length));
    expect(t.raw()).toContain('stored in plain text');
    expect(t.raw()).not.toContain(PASSWORD);
    const secrets = JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')) as Record<string, string>;
    const { session, password } = loginAccounts(dir);
    expect(secrets[password]).toBe(PASSWORD);
    expect(Object.keys(secrets).sort()).toEqual([password, session].sort());
  });

  it('can keep the session for this run only', async () => {
    const dir = tempConfigDir();
    const t = terminal(['login', '--url', ui.url], dir);
    await t.waitFor(/Password for admin/);
    await t.press(`${PASSWORD}\r`);
    await t.waitFor(/Choose a number:$/m);
    await t.press('2\r');
    expect(await t.exit()).toBe(0);
    expect(t.raw()).toContain('Session not stored (this run only)');
    expect(t.raw()).toContain('Later commands need FLOE_PASSWORD');
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config.management.secretStorage).toBe('env');
  });

  it('exits 130 on Ctrl+C at the password prompt', async () => {
    const t = terminal(['login', '--url', ui.url], tempConfigDir());
    await t.waitFor(/Password for admin/);
    await t.press('abc\u0003');
    expect(await t.exit()).toBe(130);
  });
});

describe('floe jobs on a terminal', () => {
  it('opens the jobs browser with the stored session', async () => {
    const dir = tempConfigDir();
    // The login's prompts are the tests above': here it runs in process, only the browser needs the pty.
    const login = await floe(['login', '--url', ui.url, '--password-stdin', '--insecure-storage'], {
      configDir: dir,
      input: PASSWORD,
      keychain: 'unavailable',
    });
    expect(login.code, login.stderr).toBe(0);
    const t = terminal(['jobs'], dir);
    await t.waitFor(ui.jobs[0]?.name ?? 'no job');
    await t.press('q');
    expect(await t.exit()).toBe(0);
  });
});
