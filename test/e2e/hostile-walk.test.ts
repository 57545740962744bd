// The hostile walk: every command of the command table (piped: stdout and stderr, run in process) and
// every screen (the built CLI on a pty: the raw byte stream) against servers whose every string field
// carries terminal control payloads (test/support/hostile.ts), generated from the response schemas (the
// OLake UI's routes, src/management/routes.ts, through zod's toJSONSchema; the Iceberg REST catalog's
// OpenAPI spec), so a new route or field is covered without a change here. Local inputs are hostile too: a hand-edited
// config.json, an imported destination.json, FLOE_* values, argv. Nothing that could act on a terminal
// may come out: no C0 but \n (and \t), no DEL, no C1, no bidi controls or U+2028/2029, no escape other
// than floe's and Ink's own SGR, cursor, erase and mode sequences, no row forged by a raw newline;
// --json included (JSON.stringify leaves C1, DEL, bidi and U+2028 raw).
//
// HOSTILE_WALK_REPORT=FILE appends every problem found, one JSON line each, to FILE.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { ConfigStore } from '../../src/config/store.js';
import { FIELDS } from '../../src/destination/fields.js';
import { PRESET_IDS } from '../../src/destination/presets.js';
import { ROUTES } from '../../src/management/routes.js';
import type { Run } from '../support/cli.js';
import { controlProblems } from '../support/hostile.js';
import { HostileGenerator } from '../support/hostile-schema.js';
import {
  type HostileCatalog,
  type HostileGcs,
  type HostileOlake,
  type Listening,
  loadIcebergSpec,
  type Mode,
  startHostileCatalog,
  startHostileGcs,
  startHostileOlake,
  startHostileS3,
} from '../support/hostile-servers.js';
import { floeInProcess } from '../support/in-process.js';
import { floe, type Terminal, tempDir } from './support.js';

const gen = new HostileGenerator();
/** A hostile string a process can take as an argument or an environment value (no NUL there). */
const argText = () => gen.string().replaceAll('\u0000', '');

let olake: HostileOlake;
let catalog: HostileCatalog;
let s3: Listening;
let gcs: HostileGcs;
/** Profiles on the hostile servers, logged in to the hostile OLake UI. */
let serversDir: string;
/** A hand-edited config.json: every value hostile, valid profile names. */
let craftedDir: string;
/** A hand-edited config.json whose profile names are hostile too. */
let craftedNamesDir: string;
let destinationFile: string;
let work: string;
const JOB = '7';

/** OLake's destination.json with every writer key of the field registry, each string hostile. */
function hostileDestinationJson(fixed: Record<string, string> = {}): unknown {
  const writer: Record<string, unknown> = { catalog_type: 'rest' };
  for (const f of FIELDS)
    if (f.writerKey) writer[f.writerKey] = f.type === 'boolean' ? false : (fixed[f.id] ?? gen.string());
  writer[gen.string()] = gen.string();
  return { type: 'ICEBERG', writer };
}

function hostileProfile(): Record<string, unknown> {
  const fields: Record<string, string | boolean> = {};
  for (const f of FIELDS) fields[f.id] = f.type === 'boolean' ? false : gen.string();
  fields[gen.string()] = gen.string();
  return {
    preset: PRESET_IDS[0],
    authType: 'token',
    storage: 's3-compatible',
    targetVersion: gen.string(),
    fields,
    secretStorage: 'env',
    storedSecrets: [gen.string()],
    updatedAt: gen.string(),
  };
}

function writeCraftedConfig(dir: string, names: string[]): void {
  const profiles = Object.fromEntries(names.map((n) => [n, hostileProfile()]));
  const file = {
    schemaVersion: 1,
    profiles,
    management: { url: gen.string(), username: gen.string(), project: gen.string() },
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(file, undefined, '\t'), { mode: 0o600 });
}

/** The environment of a piped floe: no FLOE_* of the runner's, CI set, no terminal. */
function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('FLOE_') && k !== 'STORAGE_EMULATOR_HOST'),
  );
  return { ...env, CI: 'true', NO_COLOR: '1', ...extra };
}

/** Secrets of the server profiles: plain (the hostile FLOE_* values have a walk case of their own). */
function serverEnv(): Record<string, string> {
  return {
    FLOE_CONFIG_DIR: serversDir,
    FLOE_TOKEN: 'walk-token',
    FLOE_CREDENTIAL: 'walk-client:walk-secret',
    FLOE_ACCESS_KEY: 'AKIAWALK',
    FLOE_SECRET_KEY: 'walk-secret-key',
    FLOE_GCP_SERVICE_ACCOUNT_JSON: gcs.serviceAccountJson(),
    STORAGE_EMULATOR_HOST: gcs.url,
    FLOE_PASSWORD: 'walk-password',
  };
}

/**
 * A piped floe (stdout and stderr no terminal), in this process: test/support/in-process.ts (what a
 * command writes past its Io fails the run); the screens below run the built CLI on a pty.
 */
function piped(args: string[], env: NodeJS.ProcessEnv, input: string): Promise<Run> {
  return floeInProcess(args, { env, stdin: input, keychain: 'real' });
}

/** Every FLOE_* value hostile. */
function hostileEnv(): Record<string, string> {
  return {
    FLOE_TOKEN: argText(),
    FLOE_CREDENTIAL: `${argText()}:${argText()}`,
    FLOE_ACCESS_KEY: argText(),
    FLOE_SECRET_KEY: argText(),
    FLOE_GCP_SERVICE_ACCOUNT_JSON: argText(),
    FLOE_PASSWORD: argText(),
  };
}

function report(what: string, problems: string[]): void {
  const file = process.env.HOSTILE_WALK_REPORT;
  if (file && problems.length > 0) appendFileSync(file, `${JSON.stringify({ what, problems })}\n`);
}

function expectInertRun(what: string, run: Run): void {
  const problems = [
    ...controlProblems(run.stdout).map((p) => `stdout: ${p}`),
    ...controlProblems(run.stderr).map((p) => `stderr: ${p}`),
  ];
  report(what, problems);
  expect(problems, `${what} (exit ${run.code})`).toEqual([]);
}

function expectInertTerminal(what: string, t: Terminal, { reached = true, columns = 80 } = {}): void {
  if (process.env.HOSTILE_WALK_RAW)
    appendFileSync(process.env.HOSTILE_WALK_RAW, `\n===== ${what}\n${t.raw()}`);
  const problems = controlProblems(t.raw(), { terminal: true, columns });
  // The walk reached hostile text: floe showed some of it (made visible) on this screen.
  if (reached && !t.raw().includes('^['))
    problems.push(
      `no hostile text was shown (the walk did not reach it); the screen: ${t.screen().join('\n')}`,
    );
  const screen = t.screen().join('\n');
  if (/\u001b|[\u0080-\u009f]/.test(screen))
    problems.push(`the screen shows a raw control: ${JSON.stringify(screen)}`);
  report(what, problems);
  expect(problems, what).toEqual([]);
}

// ------------------------------------------------------------------------------------------------
// The walk list: every command of COMMANDS, each with the runs that feed it hostile text.

interface Case {
  /** argv; `%FILE%`, `%OLAKE%`, `%WORK%` filled in. */
  args: string[];
  /** What to set before the run. */
  olake?: Mode;
  olakeStatus?: number;
  catalog?: Mode;
  gcsFailAt?: 'token' | 'api';
  /** Which config directory (default: the servers'). */
  dir?: 'servers' | 'crafted' | 'crafted-names';
  /** FLOE_* values hostile. */
  hostileEnv?: boolean;
  input?: string;
}

const argvHostile = () => [`--${argText()}`];

/** Every command's walk. The test below fails when COMMANDS has a command this list lacks. */
const WALK: Record<string, Case[]> = {
  setup: [
    {
      args: [
        'setup',
        '--profile',
        'walk-setup',
        '--yes',
        '--preset',
        'rest',
        '--catalog-url',
        '%CATALOG%',
        '--warehouse',
        '%HOSTILE%',
        '--region',
        '%HOSTILE%',
        '--storage',
        's3-compatible',
        '--s3-endpoint',
        '%HOSTILE%',
        '--env-secrets',
      ],
    },
    {
      args: [
        'setup',
        '--profile',
        'walk-setup2',
        '--yes',
        '--catalog-url',
        '%HOSTILE%',
        '--warehouse',
        '%HOSTILE%',
        '--env-secrets',
      ],
    },
    { args: ['setup', '--profile', 'evil', '--yes', '--env-secrets'], dir: 'crafted', hostileEnv: true },
    { args: ['setup', '--profile', '%HOSTILE%', '--yes'] },
  ],
  test: [
    { args: ['test', '--profile', 'cat'], catalog: 'data' },
    { args: ['test', '--profile', 'cat', '--json'], catalog: 'data' },
    { args: ['test', '--profile', 'cat', '--write'], catalog: 'data' },
    { args: ['test', '--profile', 'cat', '--write', '--json'], catalog: 'data' },
    { args: ['test', '--profile', 'cat'], catalog: 'error' },
    { args: ['test', '--profile', 'cat', '--write'], catalog: 'error' },
    { args: ['test', '--profile', 'cat', '--json'], catalog: 'error' },
    { args: ['test', '--profile', 'oauth'], catalog: 'data' },
    { args: ['test', '--profile', 'oauth'], catalog: 'error' },
    { args: ['test', '--profile', 'oauth', '--json'], catalog: 'error' },
    { args: ['test', '--profile', 'gcs'], catalog: 'data', gcsFailAt: 'api' },
    { args: ['test', '--profile', 'gcs'], catalog: 'data', gcsFailAt: 'token' },
    { args: ['test', '--profile', 'gcs', '--json'], catalog: 'data', gcsFailAt: 'token' },
    { args: ['test', '--profile', 'cat'], catalog: 'data', hostileEnv: true },
    { args: ['test', '--profile', 'evil'], dir: 'crafted' },
    { args: ['test', '--profile', 'evil', '--json'], dir: 'crafted' },
    { args: ['test', '--profile', 'evil'], dir: 'crafted', hostileEnv: true },
    { args: ['test', '--profile', '%HOSTILE%'] },
    { args: ['test', '--namespace', '%HOSTILE%', '--write', '--profile', 'cat'] },
  ],
  tables: [
    { args: ['tables', '--profile', 'cat'], catalog: 'data' },
    { args: ['tables', '--profile', 'cat', '--json'], catalog: 'data' },
    { args: ['tables', '--profile', 'cat'], catalog: 'error' },
    { args: ['tables', '--profile', 'cat', '--json'], catalog: 'error' },
    { args: ['tables', 'show', 'test_olake.orders', '--profile', 'cat'], catalog: 'data' },
    { args: ['tables', '--profile', 'evil'], dir: 'crafted' },
    { args: ['tables', '--profile', '%HOSTILE%'] },
    { args: ['tables', '--namespace', '%HOSTILE%', '--profile', 'cat'] },
    { args: ['tables', '--threshold', '%HOSTILE%', '--profile', 'cat'] },
    { args: ['tables', 'show', '%HOSTILE%', '--profile', 'cat'] },
  ],
  export: [
    ...['olake', 'pyiceberg', 'spark', 'trino', 'duckdb'].flatMap((format): Case[] => [
      { args: ['export', '--profile', 'evil', '--format', format], dir: 'crafted' },
      {
        args: ['export', '--profile', 'evil', '--format', format, '--include-secrets'],
        dir: 'crafted',
        hostileEnv: true,
      },
    ]),
    { args: ['export', '--profile', 'cat', '--format', '%HOSTILE%'] },
    { args: ['export', '--profile', 'cat', '--engine-version', '%HOSTILE%', '--format', 'spark'] },
  ],
  import: [
    { args: ['import', '%FILE%', '--profile', 'imported', '--env-secrets'] },
    { args: ['import', '%FILE%', '--profile', 'imported', '--env-secrets'] },
    { args: ['import', '%FILE%', '--profile', 'imported', '--env-secrets', '--force'] },
    { args: ['import', '%WORK%/%HOSTILE%', '--profile', 'imported2', '--env-secrets'] },
  ],
  profiles: [
    ...(['servers', 'crafted', 'crafted-names'] as const).flatMap((dir): Case[] => [
      { args: ['profiles'], dir },
      { args: ['profiles', 'list', '--json'], dir },
      { args: ['profiles', 'names'], dir },
    ]),
    { args: ['profiles', 'show', 'evil'], dir: 'crafted' },
    { args: ['profiles', 'show', 'evil', '--json'], dir: 'crafted' },
    { args: ['profiles', 'show', 'evil'], dir: 'crafted', hostileEnv: true },
    { args: ['profiles', 'show', '%HOSTILE%'], dir: 'crafted' },
    { args: ['profiles', 'show', 'imported'] },
    { args: ['profiles', 'delete', '%HOSTILE%'], dir: 'crafted' },
  ],
  login: [
    {
      args: [
        'login',
        '--url',
        '%OLAKE%',
        '--username',
        '%HOSTILE%',
        '--password-stdin',
        '--insecure-storage',
      ],
      input: 'pw\n',
      olake: 'error',
    },
    {
      args: ['login', '--url', '%OLAKE%', '--password-stdin', '--insecure-storage'],
      input: 'pw\n',
      olake: 'data',
    },
    // The username as given and as saved in config.json, in the success line and in --status.
    {
      args: [
        'login',
        '--url',
        '%OLAKE%',
        '--username',
        '%HOSTILE%',
        '--password-stdin',
        '--insecure-storage',
      ],
      input: 'pw\n',
      olake: 'data',
    },
    { args: ['login', '--status'], olake: 'data' },
    { args: ['login', '--status'], olake: 'error', olakeStatus: 500 },
    { args: ['login', '--status'], dir: 'crafted' },
    { args: ['login', '--url', '%HOSTILE%', '--password-stdin'], input: 'pw\n' },
  ],
  jobs: [
    ...(['data', 'error'] as const).flatMap((olakeMode): Case[] =>
      [
        ['jobs'],
        ['jobs', 'list'],
        ['jobs', '--json'],
        ['jobs', 'show', JOB],
        ['jobs', 'show', JOB, '--json'],
        ['jobs', 'tasks', JOB],
        ['jobs', 'tasks', JOB, '--json'],
        ['jobs', 'logs', JOB],
        ['jobs', 'logs', JOB, '--json'],
        ['jobs', 'logs', JOB, '--task', '1'],
        ['jobs', 'logs', JOB, '--diagnose'],
        ['jobs', 'logs', JOB, '--diagnose', '--json'],
        ['jobs', 'sync', JOB],
        ['jobs', 'pause', JOB],
        ['jobs', 'resume', JOB],
        ['jobs', 'cancel', JOB],
        ['jobs', 'test', JOB, '--profile', 'cat'],
        ['jobs', 'test', JOB, '--profile', 'cat', '--json'],
      ].map((args) => ({ args, olake: olakeMode, catalog: 'data', needsSpec: args[1] === 'test' })),
    ),
    { args: ['jobs', 'list'], olake: 'error', olakeStatus: 500 },
    { args: ['jobs', 'show', JOB], olake: 'error', olakeStatus: 404 },
    { args: ['jobs', 'sync', JOB], olake: 'error', olakeStatus: 409 },
    { args: ['jobs', 'test', JOB], olake: 'data', catalog: 'error' },
    { args: ['jobs', 'list'], dir: 'crafted' },
    { args: ['jobs', 'logs', JOB, '--task', '%HOSTILE%'], olake: 'data' },
    { args: ['jobs', '%HOSTILE%'], olake: 'data' },
  ],
  push: [
    { args: ['push', '--profile', 'cat', '--name', 'walk-dest'], olake: 'data' },
    { args: ['push', '--profile', 'cat', '--name', 'walk-dest', '--force'], olake: 'data' },
    { args: ['push', '--profile', 'cat', '--name', 'walk-dest'], olake: 'error' },
    { args: ['push', '--profile', 'cat', '--name', 'walk-dest'], olake: 'error', olakeStatus: 500 },
    { args: ['push', '--profile', 'cat', '--name', '%HOSTILE%', '--version', '%HOSTILE%'], olake: 'data' },
    { args: ['push', '--profile', 'evil'], dir: 'crafted' },
  ],
  destinations: [
    { args: ['destinations'], olake: 'data' },
    { args: ['destinations', '--json'], olake: 'data' },
    { args: ['destinations'], olake: 'error' },
    { args: ['destinations', '--project', '%HOSTILE%'], olake: 'error', olakeStatus: 404 },
  ],
  pull: [
    { args: ['pull', JOB, '--profile', 'pulled', '--env-secrets'], olake: 'data' },
    { args: ['pull', JOB, '--profile', 'pulled', '--env-secrets', '--force'], olake: 'data' },
    { args: ['pull', JOB, '--profile', 'pulled2', '--env-secrets'], olake: 'error' },
    { args: ['pull', '%HOSTILE%', '--profile', 'pulled3'], olake: 'data' },
  ],
  sandbox: [
    { args: ['sandbox', '--catalog', '%HOSTILE%'] },
    { args: ['sandbox', '--deny', '%HOSTILE%'] },
    { args: ['sandbox', '--jobs', '%HOSTILE%'] },
  ],
  stack: [
    { args: ['stack', '--profile', 'evil', '--output', '%WORK%/stack-evil'], dir: 'crafted' },
    { args: ['stack', '--profile', 'cat', '--output', '%WORK%/%HOSTILE%'] },
  ],
  completion: [{ args: ['completion', 'bash'] }, { args: ['completion', '%HOSTILE%'] }],
  secrets: [{ args: ['secrets'] }, { args: ['secrets', 'use', '%HOSTILE%'] }],
  // Last: logs out, then in again for the screens.
  logout: [
    { args: ['logout'], olake: 'error' },
    { args: ['login', '--url', '%OLAKE%', '--password-stdin', '--insecure-storage'], input: 'pw\n' },
  ],
};

/** Routes of src/management/routes.ts no command reaches on an answering server, and why. */
const ROUTES_NOT_WALKED: Record<string, string> = {
  telemetry:
    'read only when the destination test is cut by a write timeout (client/destinations.ts writeTimeout)',
};

function fill(args: string[]): string[] {
  return args.map((a) =>
    a
      .replaceAll('%FILE%', destinationFile)
      .replaceAll('%OLAKE%', olake.url)
      .replaceAll('%CATALOG%', catalog.url)
      .replaceAll('%WORK%', work)
      .replaceAll('%HOSTILE%', argText()),
  );
}

function apply(c: Case): NodeJS.ProcessEnv {
  olake.mode = c.olake ?? 'data';
  olake.errorStatus = c.olakeStatus ?? 400;
  catalog.mode = c.catalog ?? 'data';
  gcs.failAt = c.gcsFailAt ?? 'api';
  const dir = { servers: serversDir, crafted: craftedDir, 'crafted-names': craftedNamesDir }[
    c.dir ?? 'servers'
  ];
  return baseEnv({ ...serverEnv(), FLOE_CONFIG_DIR: dir, ...(c.hostileEnv ? hostileEnv() : {}) });
}

beforeAll(async () => {
  work = tempDir('floe-hostile-walk-');
  const spec = loadIcebergSpec();
  catalog = await startHostileCatalog(spec);
  s3 = await startHostileS3();
  gcs = await startHostileGcs();
  olake = await startHostileOlake({
    config: () => JSON.stringify(hostileDestinationJson({ catalogUrl: catalog.url, s3Endpoint: s3.url })),
  });
  serversDir = join(work, 'servers');
  craftedDir = join(work, 'crafted');
  craftedNamesDir = join(work, 'crafted-names');
  for (const d of [serversDir, craftedDir, craftedNamesDir]) mkdirSync(d, { mode: 0o700 });
  const config = new ConfigStore(serversDir);
  const base = { preset: 'rest' as const, targetVersion: 'latest' };
  const s3Fields = { warehouse: 's3://walk-bucket', region: 'us-east-1', s3Endpoint: s3.url };
  config.saveProfile(
    'cat',
    {
      ...base,
      authType: 'token',
      storage: 's3-compatible',
      fields: { catalogUrl: catalog.url, ...s3Fields },
    },
    'env',
    [],
  );
  config.saveProfile(
    'oauth',
    {
      ...base,
      authType: 'oauth2',
      storage: 's3-compatible',
      fields: { catalogUrl: catalog.url, oauth2Uri: `${catalog.url}/v1/oauth/tokens`, ...s3Fields },
    },
    'env',
    [],
  );
  config.saveProfile(
    'gcs',
    {
      ...base,
      authType: 'token',
      storage: 'gcs',
      fields: { catalogUrl: catalog.url, warehouse: 'gs://walk-bucket' },
    },
    'env',
    [],
  );
  writeCraftedConfig(craftedDir, ['evil', 'plain']);
  writeCraftedConfig(craftedNamesDir, ['evil', gen.string(), gen.string()]);
  destinationFile = join(work, 'destination.json');
  writeFileSync(destinationFile, JSON.stringify(hostileDestinationJson()));
  // Logged in to the hostile OLake UI (its login answer is hostile, but it sets the session cookie).
  const login = await piped(
    ['login', '--url', olake.url, '--password-stdin', '--insecure-storage'],
    baseEnv({ FLOE_CONFIG_DIR: serversDir }),
    'walk-password\n',
  );
  if (login.code !== 0) throw new Error(`login failed: ${JSON.stringify(login)}`);
}, 120_000);

afterAll(async () => {
  await Promise.all([olake?.close(), catalog?.close(), s3?.close(), gcs?.close()]);
});

describe('the hostile walk', { timeout: 180_000 }, () => {
  it('walks every command of the command table', () => {
    expect(Object.keys(COMMANDS).filter((name) => !WALK[name]?.length)).toEqual([]);
  });

  const cases = Object.entries(WALK).flatMap(([command, list]) =>
    [...list, { args: [command, ...argvHostile()] }, { args: [command, argText()] }].map((c, i) => ({
      name: `${command} #${i + 1}: ${JSON.stringify(c.args)}${c.olake ? ` olake=${c.olake}${c.olakeStatus ? `/${c.olakeStatus}` : ''}` : ''}${c.catalog ? ` catalog=${c.catalog}` : ''}${c.gcsFailAt ? ` gcs=${c.gcsFailAt}` : ''}${c.dir ? ` dir=${c.dir}` : ''}${c.hostileEnv ? ' env=hostile' : ''}`,
      c: c as Case,
    })),
  );

  for (const { name, c } of cases)
    it(`piped: ${name}`, async () => {
      const run = await piped(fill(c.args), apply(c), c.input ?? '');
      expectInertRun(`piped ${name}`, run);
    });

  it('answered every route of the OLake UI table', () => {
    expect(Object.keys(ROUTES).filter((r) => !olake.answered.has(r) && !ROUTES_NOT_WALKED[r])).toEqual([]);
  });

  it('reached the catalog routes of the read and write checks', () => {
    for (const endpoint of [
      'GET /v1/config',
      'POST /v1/oauth/tokens',
      'GET /v1/{prefix}/namespaces',
      'POST /v1/{prefix}/namespaces/{namespace}/tables',
    ])
      expect([...catalog.answered], endpoint).toContain(endpoint);
  });
});

// ------------------------------------------------------------------------------------------------
// The screens, on a pty.

/** A terminal on which a screen shows its diagnoses and trace whole. */
const BIG = { cols: 220, rows: 150 };

/** Pages down through a scrolling view (diagnoses, the HTTP trace) to its end, at most `pages`. */
async function scroll(t: Terminal, pages = 8): Promise<void> {
  for (let i = 0; i < pages; i++) {
    const before = t.screen().join('\n');
    await t.press('pgdn');
    if (t.screen().join('\n') === before) return;
  }
}

function screenEnv(c: Case): Record<string, string> {
  const env = apply(c);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env))
    if (v !== undefined && (k.startsWith('FLOE_') || k === 'STORAGE_EMULATOR_HOST')) out[k] = v;
  return out;
}

describe('the hostile walk on a terminal', { timeout: 180_000 }, () => {
  it('home: the crafted profiles and the server profiles', async () => {
    for (const dir of ['crafted', 'crafted-names', 'servers'] as const) {
      const t = floe(craftedDir, { args: [], env: screenEnv({ args: [], dir }) });
      await t.settle(1500);
      await t.press('down');
      await t.press('down');
      await t.settle(600);
      t.write('q');
      await t.exit();
      expectInertTerminal(`home (${dir})`, t, { reached: dir !== 'servers' });
    }
  });

  it('setup wizard: a crafted profile with hostile FLOE_* values, through to the review', async () => {
    const t = floe(craftedDir, {
      args: ['setup', '--profile', 'evil'],
      env: screenEnv({ args: [], dir: 'crafted', hostileEnv: true }),
    });
    await t.settle(1500);
    for (let i = 0; i < 12 && !t.screen().join('\n').includes('Review'); i++) {
      await t.press('enter');
      await t.settle(300);
    }
    await t.settle(600);
    t.kill('SIGTERM');
    await t.exit();
    expectInertTerminal('setup wizard (crafted, hostile env)', t);
  });

  it('setup wizard: a crafted profile (config.json values only), through to the review', async () => {
    const t = floe(craftedDir, {
      args: ['setup', '--profile', 'plain'],
      env: screenEnv({ args: [], dir: 'crafted' }),
    });
    await t.settle(1500);
    for (let i = 0; i < 12 && !t.screen().join('\n').includes('Review'); i++) {
      await t.press('enter');
      await t.settle(300);
    }
    await t.press('pgdn');
    t.kill('SIGTERM');
    await t.exit();
    expectInertTerminal('setup wizard (crafted config.json)', t);
  });

  for (const catalogMode of ['data', 'error'] as const)
    it(`connection test screen (catalog ${catalogMode}): result, detail view v, write check w`, async () => {
      // A large terminal: the diagnoses and the trace are shown whole, not only their first rows.
      const t = floe(serversDir, {
        args: ['test', '--profile', 'cat'],
        env: screenEnv({ args: [], catalog: catalogMode }),
        ...BIG,
      });
      const done = /checks? failed|All checks passed|passed|failed/;
      await t.waitFor(done, { timeoutMs: 60_000 });
      await t.settle(1000);
      await t.press('v');
      await t.settle(1000);
      await t.press('pgdn');
      await t.press('v');
      await t.settle(600);
      await t.press('w');
      await t.settle(1500);
      await t.waitFor(done, { timeoutMs: 60_000 });
      await t.settle(3000);
      await t.press('v');
      await t.settle(1000);
      t.write('\u0003');
      await t.exit();
      expectInertTerminal(`connection test screen (catalog ${catalogMode})`, t, { columns: BIG.cols });
    });

  it('connection test screen: oauth (hostile token answer) and gcs (hostile errors)', async () => {
    for (const c of [
      { args: ['test', '--profile', 'oauth'], catalog: 'error' as Mode },
      { args: ['test', '--profile', 'gcs'], gcsFailAt: 'token' as const },
    ]) {
      const t = floe(serversDir, { args: c.args, env: screenEnv(c), ...BIG });
      await t.waitFor(/failed|passed/, { timeoutMs: 60_000 });
      await t.settle(1000);
      await scroll(t);
      await t.press('v');
      await t.settle(1000);
      await scroll(t);
      t.write('\u0003');
      await t.exit();
      expectInertTerminal(`connection test screen ${JSON.stringify(c)}`, t, { columns: BIG.cols });
    }
  });

  for (const olakeMode of ['data', 'error'] as const)
    it(`jobs browser (OLake UI ${olakeMode}): list, filter, detail, runs, logs, action message`, async () => {
      const t = floe(serversDir, { args: ['jobs'], env: screenEnv({ args: [], olake: olakeMode }) });
      await t.settle(2500);
      await t.press('/');
      await t.press('h');
      await t.press('enter'); // the filter applied
      await t.settle(600);
      await t.press('s'); // sort
      await t.press('enter'); // the detail and its runs
      await t.settle(1500);
      await t.press('down');
      await t.press('enter'); // a run's logs
      await t.settle(1500);
      await t.press('w'); // wrap
      await t.press('[', ']');
      await t.press('/');
      await t.press('h');
      await t.press('enter');
      await t.press('esc');
      await t.settle(600);
      await t.press('n'); // sync now → the confirmation, then the server's message
      await t.settle(600);
      await t.press('y');
      await t.settle(1500);
      await t.press('p'); // pause or resume
      await t.press('y');
      await t.settle(1500);
      await t.press('c'); // cancel
      await t.press('y');
      await t.settle(1500);
      await t.press('esc');
      await t.settle(600);
      await t.press('?');
      await t.press('?');
      await t.press('q');
      await t.settle(600);
      t.write('\u0003');
      await t.exit();
      expectInertTerminal(`jobs browser (OLake UI ${olakeMode})`, t);
    });
});
