// Issue 30's walk over SSH-like conditions (no D-Bus session, TERM=xterm-256color, NO_COLOR, 80×24), on
// the built CLI against the sandbox: `floe setup` (the secrets file chosen once) → its connection test →
// w, the write check, on the same screen → q; then `floe` → l, sign in → the jobs → a job → n, sync →
// the new run followed to its end → q, q. No flag is repeated, and no frame is wider than 80 columns.
// (The password never shown is test/e2e/login-screen.test.ts's, with a password no screen text holds.)
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTerminal, type Terminal } from '../../scripts/lib/terminal.mjs';
import { SANDBOX } from '../../src/sandbox/credentials.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { tempConfigDir } from '../support/cli.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ jobs: 3, ports: { catalog: 0, olake: 0, s3: 0 } });
}, 60_000);
afterAll(() => sandbox?.stop());

const ENV = {
  FLOE_CONFIG_DIR: tempConfigDir(),
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-ssh-walk',
  NO_COLOR: '1',
  TERM: 'xterm-256color',
};

/** Types `value` into the focused form row `label` and moves on with Enter. */
async function fill(t: Terminal, label: string, value: string): Promise<void> {
  await t.waitFor(new RegExp(`^› ${label}\\*?( |$)`, 'm'));
  await t.press(value, 'enter');
}

function fits(t: Terminal): void {
  for (const line of t.screen()) expect(line.length).toBeLessThanOrEqual(80);
}

it('setup → test → write check → sign in → jobs → sync and follow → quit', async () => {
  const setup = startTerminal({ args: ['setup'], env: ENV });
  await setup.waitFor('› ● Generic REST catalog');
  await setup.press('enter');
  await setup.waitFor('Authentication type');
  await setup.press('down');
  await setup.waitFor('› ● Bearer token');
  await setup.press('enter');
  await fill(setup, 'REST Catalog URL', sandbox.catalog.url);
  await fill(setup, 'Warehouse', SANDBOX.dataLocation);
  await fill(setup, 'Region', SANDBOX.region);
  await fill(setup, 'Token', SANDBOX.token);
  await setup.waitFor('step 4 of 7');
  await setup.press('down', 'enter');
  await fill(setup, 'S3 Endpoint', sandbox.s3.url);
  await setup.waitFor(/^› Data Location/m);
  await setup.press('enter');
  await fill(setup, 'Access Key', sandbox.s3.accessKey);
  await fill(setup, 'Secret Key', sandbox.s3.secretKey);
  await setup.waitFor('step 6 of 7');
  for (let i = 0; i < 5 && !setup.screen().join('\n').includes('Review:'); i++) await setup.press('enter');
  await setup.waitFor('Review: check the values');
  await setup.press('enter');
  // No keychain here: the file is chosen once, for this config folder.
  await setup.waitFor('Where should the secrets of "default" go?');
  await setup.press('enter');
  await setup.waitFor('✓ All checks passed');
  fits(setup);
  // Every step's detail is reachable whole: listed under the diagnoses.
  await setup.waitFor('Step details');
  await setup.press('w');
  await setup.waitFor(/with write check[\s\S]*✓ Drop the table and its files[\s\S]*✓ All checks passed/, {
    timeoutMs: 30_000,
  });
  fits(setup);
  await setup.press('q');
  expect(await setup.exit()).toBe(0);

  const home = startTerminal({ args: [], env: ENV });
  await home.waitFor('l sign in');
  await home.press('l');
  await home.waitFor('sign in to the OLake UI');
  await home.press(...Array(30).fill('backspace'));
  await fill(home, 'URL', sandbox.olake.url);
  // The user is offered (admin, as floe login's default): Enter keeps it.
  await home.waitFor(new RegExp(`^› User +${SANDBOX.olake.username}`, 'm'));
  await home.press('enter');
  await fill(home, 'Password', SANDBOX.olake.password);
  await home.waitFor(/floe jobs · project \S+ · 3 jobs/);
  fits(home);
  await home.press('enter');
  await home.waitFor(/Runs \(\d+\)/);
  await home.press('n');
  await home.waitFor(' y/N');
  await home.press('y');
  // The new run is selected and followed to its end (the sandbox's runs last 8 s).
  await home.waitFor('following (f stops)', { timeoutMs: 30_000 });
  await home.waitFor(/Run ended: (Completed|Failed)/, { timeoutMs: 30_000 });
  fits(home);
  expect(home.screen().join('\n')).not.toContain('✓ Run ended: Failed');
  await home.press('q');
  await home.waitFor('Profiles');
  await home.press('q');
  expect(await home.exit()).toBe(0);
}, 180_000);
