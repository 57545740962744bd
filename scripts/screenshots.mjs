// `npm run screenshots`: drives the built CLI on an 80x24 pseudo-terminal against the sandbox (catalog
// emulator, s3rver, OLake UI emulator with seeded jobs) and writes screenshots/<name>.svg and .png
// (rsvg-convert, Debian librsvg2-bin). Each screen is reached with keys, as a user would.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSources } from './lib/sources.mjs';
import { ROOT, startTerminal } from './lib/terminal.mjs';

const OUT = join(ROOT, 'screenshots');
/** Job seeds are fixed by the sandbox; a fixed count keeps the list the same from run to run. */
const JOBS = 24;

/**
 * @param {import('./lib/terminal.mjs').Terminal} terminal
 * @param {string} name
 * @param {string} title
 */
function shot(terminal, name, title) {
  const svg = join(OUT, `${name}.svg`);
  writeFileSync(svg, terminal.toSvg({ title, crop: true }));
  execFileSync('rsvg-convert', ['-z', '1.5', svg, '-o', join(OUT, `${name}.png`)]);
  process.stdout.write(`screenshots/${name}.svg, .png\n`);
}

/**
 * Types `value` into the focused form row `label` and moves on with Enter.
 * @param {import('./lib/terminal.mjs').Terminal} t
 * @param {string} label
 * @param {string} value
 */
async function fill(t, label, value) {
  await t.waitFor(new RegExp(`^› ${label}\\*?( |$)`, 'm'));
  await t.press(value, 'enter');
}

const { startSandbox, SANDBOX, ConfigStore, sandboxProfile } = await importSources({
  'src/sandbox/index.ts': ['startSandbox', 'SANDBOX'],
  'src/sandbox/profile.ts': ['sandboxProfile'],
  'src/config/store.ts': ['ConfigStore'],
});
// The tables are seeded in the background (floe's own write path): the tables shots wait for them.
const sandbox = await startSandbox({ jobs: JOBS, ports: { s3: 9000 }, tables: true });
const configDir = mkdtempSync(join(tmpdir(), 'floe-screenshots-'));
/** @type {import('./lib/terminal.mjs').Terminal[]} */
const terminals = [];
/** @param {import('./lib/terminal.mjs').TerminalOptions} options */
const floe = (options) => {
  const terminal = startTerminal({ ...options, env: { FLOE_CONFIG_DIR: configDir, ...options.env } });
  terminals.push(terminal);
  return terminal;
};

try {
  mkdirSync(OUT, { recursive: true });
  for (const note of sandbox.notices) process.stdout.write(`sandbox: ${note}\n`);
  const config = new ConfigStore(configDir);
  const storageFields = {
    warehouse: SANDBOX.dataLocation,
    region: SANDBOX.region,
    s3Endpoint: sandbox.s3.url,
  };
  config.saveProfile(
    'sandbox',
    {
      preset: 'rest',
      authType: 'token',
      storage: 's3-compatible',
      targetVersion: 'latest',
      fields: { catalogUrl: sandbox.catalog.url, ...storageFields },
    },
    'env',
    [],
  );
  config.saveProfile(
    'lakekeeper-dev',
    {
      preset: 'lakekeeper',
      authType: 'oauth2',
      storage: 's3-compatible',
      targetVersion: 'latest',
      fields: {
        catalogUrl: sandbox.catalog.url,
        oauth2Uri: `${sandbox.catalog.url.replace(/\/api\/catalog$/, '')}/token`,
        scope: SANDBOX.oauth.scope,
        ...storageFields,
      },
    },
    'env',
    [],
  );
  const secrets = {
    FLOE_TOKEN: SANDBOX.token,
    FLOE_ACCESS_KEY: sandbox.s3.accessKey,
    FLOE_SECRET_KEY: sandbox.s3.secretKey,
  };

  // Log in to the OLake UI first, so that the home screen shows it and `floe jobs` works.
  const login = floe({ args: ['login', '--url', sandbox.olake.url, '--insecure-storage'] });
  await login.waitFor(/Password for admin/);
  await login.press(SANDBOX.olake.password, 'enter');
  await login.waitFor('[y/N]');
  await login.press('n', 'enter');
  await login.waitFor('Logged in');
  await login.exit();

  const home = floe({ args: [], env: secrets });
  await home.waitFor('lakekeeper-dev');
  shot(home, 'home', 'floe: the home screen');
  home.kill();

  // Signing in from the home screen (l): the form, the password masked.
  const signIn = floe({ args: [], env: secrets });
  await signIn.waitFor('l sign in');
  await signIn.press('l');
  await signIn.waitFor('sign in to the OLake UI');
  shot(signIn, 'login', 'floe: signing in to the OLake UI from the home screen');
  signIn.kill();

  // The sandbox profile's tables (home → b): the list, then a table's detail.
  await sandbox.tables?.done;
  const tables = floe({ args: [], env: secrets });
  await tables.waitFor('lakekeeper-dev');
  await tables.press('down');
  await tables.waitFor(/› sandbox/);
  await tables.press('b');
  await tables.waitFor(/^[1-9]\d* of [1-9]\d* tables, by name/m);
  shot(tables, 'tables', 'floe tables: the tables of a profile, with their health');
  await tables.press('/', 's', 'e', 's', 's', 'enter');
  await tables.waitFor('filter "sess"');
  await tables.press('enter');
  await tables.waitFor(/Snapshots +\d+/);
  shot(tables, 'table-detail', 'floe tables: a table, exactly from its manifests');
  tables.kill();

  const wizard = floe({ args: ['setup', '--profile', 'analytics', '--env-secrets', '--skip-test'] });
  await wizard.waitFor('› ● Generic REST catalog');
  await wizard.press('down');
  await wizard.waitFor('› ● Apache Polaris');
  shot(wizard, 'catalog', 'floe setup: choosing the catalog');
  await wizard.press('up');
  await wizard.waitFor('› ● Generic REST catalog');
  await wizard.press('enter');
  await wizard.waitFor('Authentication type');
  await wizard.press('down', 'down');
  await wizard.waitFor('› ● OAuth2');
  shot(wizard, 'auth-type', 'floe setup: choosing the authentication type');
  await wizard.press('up');
  await wizard.waitFor('› ● Bearer token');
  await wizard.press('enter');
  await wizard.waitFor('Catalog and authentication: Bearer token');
  await fill(wizard, 'REST Catalog URL', 'localhost:8181/api/catalog');
  await fill(wizard, 'Warehouse', 's3://ab');
  await wizard.waitFor(/✗ Warehouse/);
  shot(wizard, 'fields-error', 'floe setup: a field that needs a fix');
  await wizard.press('up', 'up');
  await wizard.waitFor(/^› REST Catalog URL/m);
  await wizard.press(...Array(30).fill('backspace'));
  await fill(wizard, 'REST Catalog URL', sandbox.catalog.url);
  await wizard.press(...Array(12).fill('backspace'));
  await fill(wizard, 'Warehouse', SANDBOX.dataLocation);
  await fill(wizard, 'Region', SANDBOX.region);
  await fill(wizard, 'Token', SANDBOX.token);
  await wizard.waitFor('step 4 of 7');
  await wizard.press('down', 'enter');
  await fill(wizard, 'S3 Endpoint', sandbox.s3.url);
  await wizard.waitFor(/^› Data Location/m);
  await wizard.press('enter');
  await fill(wizard, 'Access Key', sandbox.s3.accessKey);
  await fill(wizard, 'Secret Key', sandbox.s3.secretKey);
  await wizard.waitFor('step 6 of 7');
  for (let i = 0; i < 5 && !wizard.screen().join('\n').includes('Review:'); i++) await wizard.press('enter');
  await wizard.waitFor('Review: check the values');
  shot(wizard, 'review', 'floe setup: the review, secrets masked');
  wizard.kill();

  // The catalog answers its namespaces slowly, so the test is caught with spinners running.
  sandbox.catalog.bearer.setFault({ kind: 'slow', delayMs: 60_000 }, 'namespaces');
  const progress = floe({ args: ['test', '--profile', 'sandbox', '--timeout', '90'], env: secrets });
  await progress.waitFor(/✓ Read the catalog config[\s\S]*✓ Delete the probe/);
  shot(progress, 'test-progress', 'floe test: a connection test in progress');
  progress.kill();
  sandbox.catalog.bearer.setFault(null, 'namespaces');

  const failing = floe({
    args: ['test', '--profile', 'sandbox'],
    env: { ...secrets, FLOE_TOKEN: 'expired-token-0000' },
  });
  await failing.waitFor(/checks failed[\s\S]*Remedy/);
  shot(failing, 'diagnosis', 'floe test: a failed check and its diagnosis');
  failing.kill();

  const writing = floe({ args: ['test', '--profile', 'sandbox', '--write'], env: secrets });
  await writing.waitFor(/with write check[\s\S]*All checks passed/);
  shot(writing, 'write-check', 'floe test --write: created, written, committed, read back, removed');
  writing.kill();

  // A Polaris whose principal may read the catalog but not create tables.
  const polaris = await startSandbox({ catalog: 'polaris', jobs: 0, ports: { catalog: 0, olake: 0, s3: 0 } });
  try {
    config.saveProfile(
      'polaris-prod',
      sandboxProfile({
        flavour: 'polaris',
        facts: polaris.catalog.facts,
        catalogUrl: polaris.catalog.url,
        tokenUrl: polaris.catalog.tokenUrl,
        s3: polaris.s3,
      }),
      'env',
      ['credential', 'accessKey', 'secretKey'],
    );
    polaris.catalog.bearer.setDeny(['create-table']);
    const denied = floe({
      args: ['test', '--profile', 'polaris-prod', '--write'],
      env: {
        FLOE_CREDENTIAL: `${SANDBOX.oauth.clientId}:${SANDBOX.oauth.clientSecret}`,
        FLOE_ACCESS_KEY: polaris.s3.accessKey,
        FLOE_SECRET_KEY: polaris.s3.secretKey,
      },
    });
    await denied.waitFor(/checks failed[\s\S]*WRITE_PRIVILEGE_DENIED[\s\S]*Remedy/);
    shot(denied, 'write-denied', 'floe test --write: Polaris refuses CREATE_TABLE_DIRECT');
    denied.kill();
  } finally {
    await polaris.stop();
  }

  const jobs = floe({ args: ['jobs'], env: { FLOE_PASSWORD: SANDBOX.olake.password } });
  await jobs.waitFor(new RegExp(`${JOBS} jobs · sort name[\\s\\S]*q quit`));
  await jobs.press('down', 'down', 'down');
  shot(jobs, 'jobs', 'floe jobs: the jobs of a project');
  await jobs.press('enter');
  await jobs.waitFor(/Runs \(\d+\)/);
  await jobs.press('enter');
  await jobs.waitFor(/Run \S+ \S+ · \[ older/);
  shot(jobs, 'job-detail', 'floe jobs: a job, its runs and a run’s logs');
  jobs.kill();

  /** Opens the latest run of `job` in a new browser, on the log pane. */
  const openRun = async (job) => {
    const t = floe({ args: ['jobs'], env: { FLOE_PASSWORD: SANDBOX.olake.password } });
    await t.waitFor(new RegExp(`${JOBS} jobs · sort name[\\s\\S]*q quit`));
    await t.press('/');
    await t.waitFor(/^\/$/m);
    await t.press(job.name);
    await t.waitFor(new RegExp(`^/${job.name}$`, 'm'));
    await t.press('enter', 'enter');
    await t.waitFor(/Runs \(\d+\)/);
    await t.press('enter');
    await t.waitFor(/Run \S+ \S+ · /);
    return t;
  };
  const seeded = sandbox.olake.emulator.jobs;
  const failed = await openRun(seeded.find((j) => j.tasks[0]?.status === 'Failed'));
  await failed.waitFor(/^✗ [A-Z0-9_]+: [\s\S]*Remedy:/m);
  shot(failed, 'log-diagnosis', 'floe jobs: a failed run, its diagnosis on top of the log');
  await failed.press('enter');
  await failed.waitFor(/line in full/);
  shot(failed, 'log-line', 'floe jobs: one log line in full');
  failed.kill();

  const runningJob = seeded.find((j) => j.tasks[0]?.status === 'Running');
  const running = await openRun(runningJob);
  await running.press('f');
  await running.waitFor(/following \(f stops\)/);
  const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (const message of [
    'Stream public.orders: wrote 48210 records to Iceberg',
    'Stream public.payments: running full refresh in 4 chunks',
  ])
    sandbox.olake.emulator.appendLog(
      runningJob.tasks[0].file_path,
      `${JSON.stringify({ level: 'info', time: at, message })}\n`,
    );
  await running.waitFor(/running full refresh in 4/, { timeoutMs: 10_000 });
  shot(running, 'log-follow', 'floe jobs: following a running run’s log');
  running.kill();
} finally {
  for (const terminal of terminals) terminal.kill();
  await sandbox.stop();
  rmSync(configDir, { recursive: true, force: true });
}
