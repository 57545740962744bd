// A hostile OLake UI and a hostile catalog on a real terminal: with the emulators' `hostile-text` fault,
// every text field they return carries OSC 0 (title), OSC 52 (clipboard), OSC 8, CSI 2J, \r, C1 and
// bidi controls. The raw byte stream of every screen and plain command must hold no escape other than
// floe's own styling, and never the title or clipboard sequences; plain output without a terminal too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { SANDBOX, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { spawnCli } from '../support/cli.js';
import { expectInert, HOSTILE } from '../support/hostile.js';
import { floe, type Terminal, tempDir } from './support.js';

const SHOWN = '^[]0;pwn';
let sandbox: Sandbox;
let configDir: string;
let jobId: number;
let jobName: string;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 3 });
  configDir = tempDir('floe-e2e-hostile-');
  const profile = (catalogUrl: string) => ({
    preset: 'rest' as const,
    authType: 'token' as const,
    storage: 's3-compatible' as const,
    targetVersion: 'latest',
    fields: {
      catalogUrl,
      warehouse: `s3://${SANDBOX.bucket}`,
      region: 'us-east-1',
      s3Endpoint: sandbox.s3.url,
    },
  });
  const config = new ConfigStore(configDir);
  config.saveProfile('sandbox', profile(sandbox.catalog.url), 'env', []);
  // A value as a crafted destination.json or a hand-edited config file could hold it.
  config.saveProfile('crafted', profile(`http://127.0.0.1:1/${HOSTILE}`), 'env', []);
  const job = sandbox.olake.emulator.jobs.find((j) => j.tasks.length > 0)!;
  jobId = job.id;
  jobName = job.name;
}, 60_000);
afterAll(() => sandbox?.stop());

const env = () => ({
  FLOE_CONFIG_DIR: configDir,
  FLOE_TOKEN: SANDBOX.token,
  FLOE_ACCESS_KEY: sandbox.s3.accessKey,
  FLOE_SECRET_KEY: sandbox.s3.secretKey,
});

async function finished(t: Terminal): Promise<string> {
  await t.exit();
  expectInert(t.raw());
  return t.screen().join('\n');
}

describe('a hostile server cannot drive the terminal', { timeout: 120_000 }, () => {
  it('logs in to the OLake UI (no fault yet)', async () => {
    const login = floe(configDir, { args: ['login', '--url', sandbox.olake.url, '--insecure-storage'] });
    await login.waitFor(/Password for admin at .*:$/m);
    login.burst(SANDBOX.olake.password, 'enter');
    await login.waitFor('[y/N]');
    login.burst('n', 'enter');
    expect(await login.exit()).toBe(0);
    sandbox.olake.emulator.setFault({ kind: 'hostile-text' });
  });

  it('the jobs browser: list, detail, logs and an action message', async () => {
    const t = floe(configDir, { args: ['jobs'] });
    await t.waitFor(SHOWN);
    await t.press('/');
    await t.press(jobName);
    await t.press('enter');
    await t.waitFor(/1\/3 jobs/);
    await t.press('enter');
    await t.waitFor(/Runs \([1-9]\d*\)/);
    await t.press('enter');
    // The logs (or, as the hostile file path is sent back, the server's error) of the latest run.
    await t.waitFor(/^Run \S+/m);
    await t.press('n');
    await t.waitFor(' y/N');
    await t.press('y');
    // floe's message, or already the new run it selects and follows, or (its log path being hostile too)
    // why following it stopped.
    await t.waitFor(/^[✓✗] |following \(f stops\)/m);
    await t.press('q');
    await finished(t);
  });

  it.each([
    [['jobs', 'list']],
    [['jobs', 'tasks', '%ID%']],
    [['jobs', 'logs', '%ID%']],
    [['jobs', 'sync', '%ID%']],
  ])('floe %j on a terminal and piped', async (args) => {
    const argv = args.map((a) => a.replace('%ID%', String(jobId)));
    const t = floe(configDir, { args: argv });
    const screen = await finished(t);
    // sync prints floe's own verdict (started, skipped, requested) from the runs it re-reads; the others
    // show server text, made inert.
    if (args[1] !== 'sync') expect(screen).toContain('^[');
    const piped = await spawnCli(argv, { ...process.env, ...env() });
    expectInert(piped.stdout + piped.stderr);
  });

  it('the connection test screen and its plain output, against a hostile catalog', async () => {
    sandbox.catalog.bearer.setFault({ kind: 'hostile-text' }, 'any');
    try {
      const t = floe(configDir, { args: ['test', '--profile', 'sandbox'], env: env() });
      await t.waitFor(/checks failed|All checks passed/);
      await t.press('v');
      await t.press('q');
      await finished(t);
      const piped = await spawnCli(['test', '--profile', 'sandbox'], { ...process.env, ...env() });
      expect(piped.stdout).toContain('^[');
      expectInert(piped.stdout + piped.stderr);
    } finally {
      sandbox.catalog.bearer.setFault(null);
    }
  });

  it('the home screen and floe profiles show a crafted catalog URL inert', async () => {
    const t = floe(configDir, { args: [] });
    await t.waitFor('crafted');
    await t.press('q');
    await finished(t);
    const piped = await spawnCli(['profiles'], { ...process.env, ...env() });
    expect(piped.stdout).toContain('^[]0;pwned');
    expectInert(piped.stdout + piped.stderr);
  });
});
