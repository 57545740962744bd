// Issue 30, item 2: signing in from the TUI (built CLI, real pseudo-terminal, 80x24, NO_COLOR) against
// the OLake UI emulator. From the home screen, j without a session opens the sign-in form; a refused
// password says so and asks again; Esc goes back keeping the URL and user typed (not the password); l
// opens the form again, and signing in opens the jobs browser. The password is never on the screen,
// in the config or the secrets file; the session is stored as `floe login` stores it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { expectCleanOutput, floe, tempDir } from './support.js';

const PASSWORD = 'SENTINEL-tui-login-pw-30a';
let ui: OlakeUiEmulator;

beforeAll(async () => {
  ui = await startOlakeUiEmulator({ jobs: seedJobs(12, 3), users: { admin: PASSWORD } });
});
afterAll(() => ui?.close());

describe('signing in from the TUI', { timeout: 90_000 }, () => {
  it('home → j without a session → the form → jobs; Esc keeps what was typed but the password', async () => {
    const dir = tempDir('floe-e2e-login-');
    const t = floe(dir, { env: { FLOE_SECRETS: 'file' }, color: false });
    onTestFailed(() => console.error(`screen at failure:\n${t.screen().join('\n')}`));
    await t.waitFor(/No profiles yet[\s\S]*l sign in/);

    await t.press('j');
    await t.waitFor(/Not logged in to http:\/\/localhost:8000[\s\S]*› URL +http:\/\/localhost:8000/);
    // Keys in one burst, as over SSH: clear the URL, type the emulator's, go to the password, a wrong one.
    t.burst('\u0015', ui.url, 'tab', 'tab', 'wrong-password', 'enter');
    const refused = (await t.waitFor(/✗ Password: /)).join('\n');
    expect(refused).toMatch(new RegExp(`^  URL +${ui.url}$`, 'm'));
    expect(refused).toMatch(/^› Password +█?$/m);
    expect(refused).toContain('Check the user and the password.');

    // Esc goes back to the home screen; j again shows the URL and user typed, not the password.
    await t.press(PASSWORD.slice(0, 6));
    await t.waitFor(/Password +\*{6}/);
    await t.press('esc');
    await t.waitFor(/No profiles yet/);
    await t.press('l');
    const again = (await t.waitFor(/sign in to the OLake UI/)).join('\n');
    expect(again).toMatch(new RegExp(`^› URL +${ui.url}`, 'm'));
    expect(again).toMatch(/^ {2}Password$/m);
    expect(again).not.toContain('*');

    await t.press('tab', 'tab', PASSWORD);
    expect(t.screen().join('\n')).toContain('*'.repeat(PASSWORD.length));
    await t.press('enter');
    await t.waitFor(/12 jobs · sort name[\s\S]*q quit/);
    await t.press('q');
    await t.waitFor(/No profiles yet/);
    expect(t.screen().join('\n')).toContain(`OLake UI: ${ui.url} as admin`);
    await t.press('q');
    expect(await t.exit()).toBe(0);
    expectCleanOutput(t, [PASSWORD]);

    const config = readFileSync(join(dir, 'config.json'), 'utf8');
    const secrets = readFileSync(new ConfigStore(dir).secretsPath, 'utf8');
    expect(config).not.toContain(PASSWORD);
    expect(secrets).not.toContain(PASSWORD);
    expect(new ConfigStore(dir).getManagement()).toMatchObject({
      url: ui.url,
      username: 'admin',
      secretStorage: 'file',
      rememberPassword: false,
    });
    expect(secrets).toMatch(/session/);

    // The stored session is the one `floe login --status` checks.
    const status = floe(dir, { args: ['login', '--status'] });
    await status.waitFor(`✓ Logged in to ${ui.url} as admin`);
    expect(await status.exit()).toBe(0);
  });

  it('floe jobs without a session opens the form; a plain-http URL to another host is warned about', async () => {
    const dir = tempDir('floe-e2e-login-');
    const t = floe(dir, { args: ['jobs'], env: { FLOE_SECRETS: 'file' } });
    onTestFailed(() => console.error(`screen at failure:\n${t.screen().join('\n')}`));
    await t.waitFor(/Not logged in to/);
    t.burst('\u0015', 'http://olake.example.com:8000');
    await t.waitFor(
      /! The password \(and then the session cookie\) is sent to\s+http:\/\/olake\.example\.com:8000 over plain http:\/\//,
    );
    t.burst('\u0015', 'ftp://x');
    await t.press('tab', 'tab', PASSWORD, 'enter');
    await t.waitFor(/✗ URL: "ftp:\/\/x" must start with http:\/\/ or https:\/\//);
    // The password typed stays through a URL problem: Ctrl-U clears it before it is typed again.
    t.burst('\u0015', ui.url, 'enter', 'enter', '\u0015', PASSWORD, 'enter');
    await t.waitFor(/12 jobs · sort name/);
    await t.press('q');
    expect(await t.exit()).toBe(0);
    expectCleanOutput(t, [PASSWORD]);
  });
});
