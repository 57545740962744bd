// The save paths of floe (every command that writes config.json or secrets) as scenarios for the crash
// and disk-full sweeps (test/config/crash.test.ts, disk-full.test.ts): the state before the save, the
// command, and what the next run of floe shows. `sweep` puts a fault (fault-at.mjs) at each change of
// the config folder or the keychain a save makes (a full disk: one run per change, in process; a kill:
// one run of the built CLI that keeps what a kill at each change leaves, checked by real kills) and
// checks after each fault that the next run (in process) shows the state before the save or the one
// after it, whole.
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import keytar from 'keytar';
import { expect } from 'vitest';
import { type OlakeUiEmulator, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { LEGACY_SERVICE, NAMESPACE_FILE } from '../../src/secrets/namespace.js';
import { tempConfigDir } from './cli.js';
import { armFullDisk, disarm } from './fault-at.mjs';
import {
  cliEnv,
  copyFolder,
  type Fault,
  type FaultRun,
  leftovers,
  runFloe,
  type Snapshots,
} from './faults.js';
import { floeInProcess, type InProcessRun, keychainOf } from './in-process.js';

const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe' };

/** One save path: the state before it, the command, and what a later run sees. */
export interface Scenario {
  /** Whether it uses the keychain: each trial then reuses its lane's folder (with its own keychain service). */
  keychain: boolean;
  prepare(dir: string): Promise<void>;
  act: { args: string[]; input?: string; env?: Record<string, string> };
  /** The next run(s) of floe and what they show, as one text to compare. */
  observe(dir: string): Promise<string>;
}

type Entry = { account: string; password: string };
/** A keychain change fault-at.mjs saw done: the call, service, account and (setPassword) password. */
type KeychainChange = [
  call: 'setPassword' | 'deletePassword',
  service: string,
  account: string,
  password?: string,
];

/** The keychain service of config folder `dir` (src/secrets/namespace.ts), if it has one yet. */
function serviceOf(dir: string): string | undefined {
  const file = join(dir, NAMESPACE_FILE);
  if (!existsSync(file)) return undefined;
  return `${LEGACY_SERVICE}/${(JSON.parse(readFileSync(file, 'utf8')) as { id: string }).id}`;
}

async function entriesOf(service: string | undefined): Promise<Entry[]> {
  if (!service) return [];
  const all = await keytar.findCredentials(service);
  return all.sort((a, b) => a.account.localeCompare(b.account));
}

/** The secret values a folder's secrets file and its keychain service hold, sorted. */
async function storedValues(dir: string, describe: (value: string) => string) {
  const file = join(dir, 'secrets.json');
  const inFile = existsSync(file) ? Object.values(JSON.parse(readFileSync(file, 'utf8')) as object) : [];
  const inKeychain = (await entriesOf(serviceOf(dir))).map((e) => e.password);
  return {
    file: inFile.map((v) => describe(String(v))).sort(),
    keychain: inKeychain.map(describe).sort(),
  };
}

/**
 * A config folder as it was after `prepare`, files and keychain entries, to put it back before each trial.
 * The folder itself is reused: a copy would get a keychain service of its own (namespace.ts).
 */
class Snapshot {
  readonly services = new Set<string>();
  private constructor(
    readonly dir: string,
    private readonly files: Map<string, Buffer>,
    private readonly service: string | undefined,
    private readonly entries: Entry[],
  ) {
    if (service) this.services.add(service);
  }

  static async take(dir: string): Promise<Snapshot> {
    const files = new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));
    const service = serviceOf(dir);
    return new Snapshot(dir, files, service, await entriesOf(service));
  }

  /** Notes the service a run may have made (a folder's first keychain use names one). */
  seen(): void {
    const service = serviceOf(this.dir);
    if (service) this.services.add(service);
  }

  async restore(): Promise<void> {
    this.seen();
    for (const name of readdirSync(this.dir)) rmSync(join(this.dir, name), { recursive: true, force: true });
    for (const [name, data] of this.files) writeFileSync(join(this.dir, name), data, { mode: 0o600 });
    for (const service of this.services)
      for (const e of await entriesOf(service)) await keytar.deletePassword(service, e.account);
    if (this.service)
      for (const e of this.entries) await keytar.setPassword(this.service, e.account, e.password);
  }

  /**
   * Puts the folder as a kill before call N left it (fault-at.mjs's snap mode): its files from `files`,
   * its keychain as before the save with the changes `done` made until then.
   */
  async restoreKept(files: string, done: KeychainChange[]): Promise<void> {
    await this.restore();
    for (const name of readdirSync(this.dir)) rmSync(join(this.dir, name), { recursive: true, force: true });
    cpSync(files, this.dir, { recursive: true });
    for (const [call, service, account, password] of done) {
      this.services.add(service);
      if (call === 'setPassword') await keytar.setPassword(service, account, password ?? '');
      else await keytar.deletePassword(service, account);
    }
  }

  /** Removes every keychain entry the runs made. */
  async forget(): Promise<void> {
    this.seen();
    for (const service of this.services)
      for (const e of await entriesOf(service)) await keytar.deletePassword(service, e.account);
  }
}

interface Outcome {
  at: number;
  /** The call the fault hit ("kill at call 3: renameSync …"). */
  hit?: string;
  state?: 'before' | 'after';
  problems: string[];
  /** The run ended without reaching call `at`: the sweep is over. */
  untouched?: boolean;
}

/** Runs the save with the fault at call `at`, then the next run; says what it found. */
async function trial(
  scenario: Scenario,
  template: Snapshot,
  views: { before: string; after: string },
  fault: Fault,
): Promise<Outcome> {
  let dir: string;
  if (scenario.keychain) {
    await template.restore();
    dir = template.dir;
  } else dir = copyFolder(template.dir);
  const run =
    fault.mode === 'kill'
      ? await runFloe(scenario.act.args, cliEnv(dir, scenario.act.env), scenario.act.input, fault)
      : await fullDiskRun(scenario, dir, fault.at);
  if (scenario.keychain) template.seen();
  const outcome: Outcome = { at: fault.at, hit: run.hit, problems: [] };
  const problem = (text: string) =>
    outcome.problems.push(`${run.hit ?? `call ${fault.at} not reached`}: ${text}`);
  if (run.hit === undefined) {
    outcome.untouched = true;
    if (run.code !== 0) problem(`exit ${run.code}: ${run.stderr.trim()}`);
  } else if (fault.mode === 'kill' && run.signal !== 'SIGKILL') problem(`not killed (${run.stderr.trim()})`);
  else if (fault.mode === 'enospc' && run.code !== 0 && !/is full \(ENOSPC\)/.test(run.stderr))
    problem(`exit ${run.code} without naming the full disk: ${run.stderr.trim()}`);
  return judge(scenario, dir, views, outcome, problem);
}

/**
 * The save on `dir` in this process with a full disk at its `at`th call that may need space (fault-at.mjs,
 * armed here; floe's modules call fs through the module, so its wrappers see every call).
 */
async function fullDiskRun(scenario: Scenario, dir: string, at: number): Promise<FaultRun> {
  const env = cliEnv(dir, scenario.act.env);
  armFullDisk({ at, folder: dir });
  let run: InProcessRun;
  let hit: string | undefined;
  try {
    run = await floeInProcess(scenario.act.args, {
      env,
      stdin: scenario.act.input,
      keychain: keychainOf(env),
    });
  } finally {
    hit = disarm();
  }
  return { ...run, signal: null, hit };
}

/** The next run on `dir` after a fault: its view must be the one before or after the save, nothing left. */
async function judge(
  scenario: Scenario,
  dir: string,
  views: { before: string; after: string },
  outcome: Outcome,
  problem: (text: string) => void,
): Promise<Outcome> {
  const seen = await scenario.observe(dir);
  const left = leftovers(dir);
  if (left.length > 0) problem(`left ${left.join(', ')} after the next run`);
  if (seen === views.before && !outcome.untouched) outcome.state = 'before';
  else if (seen === views.after) outcome.state = 'after';
  else problem(`neither the state before nor the one after the save: ${seen}`);
  return outcome;
}

/** A folder after the scenario's `prepare`, as a snapshot to put back. */
async function prepared(scenario: Scenario): Promise<Snapshot> {
  const dir = tempConfigDir();
  await scenario.prepare(dir);
  return Snapshot.take(dir);
}

/**
 * The sweep of a save: the view before it, then each fault (kills: killSweep; a full disk: fullDiskSweep).
 * After each fault, the next run's view must be the view before or after the save, with nothing left
 * behind. Returns which it was, in order, and every problem found (all of them, so a failing sweep shows
 * its whole pattern).
 */
export async function sweep(scenario: Scenario, mode: Fault['mode'], parallel = 4) {
  const lanes = await Promise.all(
    Array.from({ length: scenario.keychain && mode === 'kill' ? parallel : 1 }, () => prepared(scenario)),
  );
  const before = await scenario.observe(lanes[0]!.dir);
  try {
    return mode === 'kill'
      ? await killSweep(scenario, lanes, before, parallel)
      : await fullDiskSweep(scenario, lanes[0]!, before);
  } finally {
    for (const lane of scenario.keychain ? lanes : []) await lane.forget();
  }
}

/**
 * The save run to its end from `template` (in its folder put back as it was when it uses the keychain,
 * else in a copy), under `fault` when given; the folder it ran in and the view after it.
 */
async function completeRun(scenario: Scenario, template: Snapshot, before: string, fault?: Snapshots) {
  const dir = scenario.keychain ? template.dir : copyFolder(template.dir);
  if (scenario.keychain) await template.restore();
  const run = await runFloe(scenario.act.args, cliEnv(dir, scenario.act.env), scenario.act.input, fault);
  expect(run.code, run.stderr).toBe(0);
  if (scenario.keychain) template.seen();
  const after = await scenario.observe(dir);
  expect(after).not.toBe(before);
  return after;
}

/** A full disk at call 1, 2, … until a run ends untouched, one run at a time in this process (fullDiskRun). */
async function fullDiskSweep(scenario: Scenario, template: Snapshot, before: string) {
  const views = { before, after: await completeRun(scenario, template, before) };
  const outcomes: Outcome[] = [];
  for (let at = 1; at < 400; at++) {
    const outcome = await trial(scenario, template, views, { mode: 'enospc', at });
    outcomes.push(outcome);
    if (outcome.untouched) break;
  }
  const last = outcomes.findIndex((o) => o.untouched);
  expect(last, 'the save never ended').toBeGreaterThan(0);
  return {
    states: outcomes.slice(0, last).map((o) => o.state),
    problems: outcomes.slice(0, last + 1).flatMap((o) => o.problems),
  };
}

/**
 * Real kills are checked at every KILL_STRIDE-th kept point (1, 1 + KILL_STRIDE, …), the last and past it:
 * 4 to 6 a save (every 8th point was twice as many processes; in every run so far they agreed with the
 * kept points).
 */
const KILL_STRIDE = 16;

/**
 * The kill sweep: one run of the save under fault-at.mjs's snap mode keeps what a SIGKILL before each of
 * its counted calls would leave (the folder as it was then, and the keychain changes done until then);
 * the next run is judged on every one of those points. Real SIGKILLs at every KILL_STRIDE-th point, the
 * last one and one past it check that the kept points are what a kill leaves: the kill lands on the same
 * call, and the next run is judged the same way; past the last point, the run ends untouched.
 */
async function killSweep(scenario: Scenario, lanes: Snapshot[], before: string, parallel: number) {
  const first = lanes[0]!;
  const kept = mkdtempSync(join(tmpdir(), 'floe-kept-'));
  const outcomes: Outcome[] = [];
  try {
    const views = { before, after: await completeRun(scenario, first, before, { mode: 'snap', dir: kept }) };
    const points = readdirSync(kept).filter((name) => name.endsWith('.json')).length;
    expect(points, 'the save changed nothing').toBeGreaterThan(0);
    for (let at = 1; at <= points; at++) {
      const point = JSON.parse(readFileSync(join(kept, `${at}.json`), 'utf8')) as {
        what: string;
        keychain: KeychainChange[];
      };
      let folder: string;
      if (scenario.keychain) {
        await first.restoreKept(join(kept, String(at)), point.keychain);
        folder = first.dir;
      } else folder = copyFolder(join(kept, String(at)));
      const outcome: Outcome = { at, hit: `kept at call ${at}: ${point.what}`, problems: [] };
      outcomes.push(
        await judge(scenario, folder, views, outcome, (text) =>
          outcome.problems.push(`${outcome.hit}: ${text}`),
        ),
      );
    }
    const checked = [
      ...Array.from({ length: points }, (_, i) => i + 1).filter((at) => (at - 1) % KILL_STRIDE === 0),
      ...((points - 1) % KILL_STRIDE === 0 ? [] : [points]),
      points + 1,
    ];
    const killed: Outcome[] = [];
    for (let i = 0; i < checked.length; i += parallel)
      killed.push(
        ...(await Promise.all(
          checked
            .slice(i, i + parallel)
            .map((at, lane) => trial(scenario, lanes[lane % lanes.length]!, views, { mode: 'kill', at })),
        )),
      );
    for (const outcome of killed) {
      const point = outcomes[outcome.at - 1];
      const call = (text: string | undefined) => text?.replace(/^\w+ at call \d+: /, '').split(' ')[0];
      if (outcome.at > points) {
        if (!outcome.untouched)
          outcome.problems.push(
            `a kill at call ${outcome.at} hit ${outcome.hit}: the save has more calls than the kept points`,
          );
      } else if (call(outcome.hit) !== call(point?.hit))
        outcome.problems.push(`the kill hit ${outcome.hit}, the kept point was ${point?.hit}`);
      else if (outcome.state !== point?.state)
        outcome.problems.push(
          `after a real kill the next run saw "${outcome.state}", at the kept point "${point?.state}"`,
        );
    }
    return {
      states: outcomes.map((o) => o.state),
      problems: [...outcomes, ...killed].flatMap((o) => o.problems),
    };
  } finally {
    rmSync(kept, { recursive: true, force: true });
  }
}

const CATALOG = ['--catalog-url', 'http://127.0.0.1:8181/api/catalog', '--warehouse', 's3://warehouse'];

/** A token profile on S3-compatible storage: three secrets (token, access key, secret key). */
function profileValues(tag: string, version: 'OLD1' | 'NEW2') {
  return {
    token: `token-${tag}-${version}`,
    accessKey: `AK${tag}${version}`,
    secretKey: `secret-${tag}-${version}`,
    region: version === 'OLD1' ? 'us-east-1' : 'eu-west-1',
  };
}

function setupCommand(tag: string, version: 'OLD1' | 'NEW2', storage: 'file' | 'keychain') {
  const v = profileValues(tag, version);
  return {
    args: [
      'setup',
      '--yes',
      '--profile',
      'p',
      ...CATALOG,
      '--region',
      v.region,
      '--storage',
      's3-compatible',
      '--s3-endpoint',
      'http://127.0.0.1:9000',
      '--access-key',
      v.accessKey,
      '--auth-type',
      'token',
      '--token-stdin',
      ...(storage === 'file' ? ['--insecure-storage'] : []),
    ],
    input: v.token,
    env: { FLOE_SECRET_KEY: v.secretKey, ...(storage === 'file' ? NO_KEYCHAIN : {}) },
  };
}

async function run(dir: string, command: { args: string[]; input?: string; env?: Record<string, string> }) {
  const result = await runFloe(command.args, cliEnv(dir, command.env), command.input);
  expect(result.code, result.stderr).toBe(0);
  return result;
}

/**
 * The next floe to start, in this process (test/support/in-process.ts): a fresh context each call, so it
 * tidies what the faulted run left as a new process would; the keychain is the real one.
 */
const next = (args: string[], dir: string) => floeInProcess(args, { env: cliEnv(dir), keychain: 'real' });

/** What `floe profiles` and `floe profiles show p --json` say, and which secret values are stored. */
async function observeProfile(dir: string): Promise<string> {
  const show = await next(['profiles', 'show', 'p', '--json'], dir);
  // Without the profile, `floe profiles` must still work (and not list it).
  const list = show.code === 0 ? undefined : await next(['profiles'], dir);
  if (list) expect(list.code, list.stderr).toBe(0);
  const config = join(dir, 'config.json');
  if (existsSync(config)) expect(() => JSON.parse(readFileSync(config, 'utf8'))).not.toThrow();
  const stored = await storedValues(dir, (value) => value);
  return JSON.stringify({
    show: show.code === 0 ? JSON.parse(show.stdout) : show.stderr,
    list: list?.stdout,
    stored,
  });
}

type Storage = 'file' | 'keychain';

/** A save of profile "p": the profile before it (stored in `before`, or none) and the command. */
function profileScenario(
  before: Storage | 'none',
  act: (tag: string) => Scenario['act'],
  keychain: boolean,
): Scenario {
  const tag = `s${randomBytes(4).toString('hex')}`;
  return {
    keychain,
    prepare: async (dir) => {
      if (before !== 'none') await run(dir, setupCommand(tag, 'OLD1', before));
    },
    act: act(tag),
    observe: observeProfile,
  };
}

function importCommand(tag: string): Scenario['act'] {
  const v = profileValues(tag, 'NEW2');
  const file = join(tempConfigDir(), 'destination.json');
  writeFileSync(
    file,
    JSON.stringify({
      type: 'ICEBERG',
      writer: {
        catalog_type: 'rest',
        rest_catalog_url: 'http://127.0.0.1:8181/api/catalog',
        iceberg_s3_path: 's3://warehouse',
        aws_region: v.region,
        s3_endpoint: 'http://127.0.0.1:9000',
        token: v.token,
        aws_access_key: v.accessKey,
        aws_secret_key: v.secretKey,
      },
    }),
  );
  return { args: ['import', file, '--profile', 'p', '--force', '--insecure-storage'], env: NO_KEYCHAIN };
}

const deleteCommand = (storage: Storage): Scenario['act'] => ({
  args: ['profiles', 'delete', 'p'],
  env: storage === 'file' ? NO_KEYCHAIN : {},
});

const PASSWORDS = { first: 'first-password-OLD1', second: 'second-password-NEW2' };

/** The OLake UIs logged in to: the first before the save, the second by it (another host: 127.0.0.2). */
export interface Servers {
  first: OlakeUiEmulator;
  second: OlakeUiEmulator;
}

export async function startServers(): Promise<Servers> {
  return {
    first: await startOlakeUiEmulator({ host: '127.0.0.1', users: { admin: PASSWORDS.first } }),
    second: await startOlakeUiEmulator({ host: '127.0.0.2', users: { admin: PASSWORDS.second } }),
  };
}

/** A stored value as the test compares it: a cookie jar by the host its cookie is for. */
function describeSessionValue(value: string): string {
  if (!value.startsWith('{')) return value;
  const jar = JSON.parse(value) as { cookies: { key: string; domain: string }[] };
  return jar.cookies.map((c) => `${c.key}@${c.domain}`).join(',');
}

function loginCommand(server: OlakeUiEmulator, password: string, storage: Storage): Scenario['act'] {
  return {
    args: [
      'login',
      '--url',
      server.url,
      '--password-stdin',
      '--remember-password',
      ...(storage === 'file' ? ['--insecure-storage'] : []),
    ],
    input: password,
    env: storage === 'file' ? NO_KEYCHAIN : {},
  };
}

/**
 * A change of the OLake UI session: logged in to the first server (session and remembered password in
 * `storage`) before it. The view: `floe login --status`, the settings, the stored sessions and passwords.
 */
function sessionScenario({ first }: Servers, storage: Storage, act: () => Scenario['act']): Scenario {
  return {
    keychain: storage === 'keychain',
    prepare: async (dir) => {
      await run(dir, loginCommand(first, PASSWORDS.first, storage));
    },
    act: act(),
    observe: async (dir) => {
      const status = await next(['login', '--status'], dir);
      const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
      const { url, username, secretStorage, rememberPassword } = config.management ?? {};
      return JSON.stringify({
        status: [status.code, status.stdout.replaceAll(dir, '<config folder>')],
        settings: { url, username, secretStorage, rememberPassword },
        stored: await storedValues(dir, describeSessionValue),
      });
    },
  };
}

/** Every save path, with the state before it (`servers` is asked for when a scenario is made). */
export function saves(started: () => Servers): Record<string, () => Scenario> {
  const session = (storage: Storage, act: (servers: Servers) => Scenario['act']) => () => {
    const servers = started();
    return sessionScenario(servers, storage, () => act(servers));
  };
  return {
    'floe setup over a profile, secrets in the file': () =>
      profileScenario('file', (tag) => setupCommand(tag, 'NEW2', 'file'), false),
    'floe setup over a profile, secrets in the keychain': () =>
      profileScenario('keychain', (tag) => setupCommand(tag, 'NEW2', 'keychain'), true),
    'floe setup of a new profile': () =>
      profileScenario('none', (tag) => setupCommand(tag, 'NEW2', 'file'), false),
    'floe setup moving the secrets from the file to the keychain': () =>
      profileScenario('file', (tag) => setupCommand(tag, 'NEW2', 'keychain'), true),
    'floe import --force over a profile': () => profileScenario('file', importCommand, false),
    'floe profiles delete, secrets in the file': () =>
      profileScenario('file', () => deleteCommand('file'), false),
    'floe profiles delete, secrets in the keychain': () =>
      profileScenario('keychain', () => deleteCommand('keychain'), true),
    'floe login to another server, session in the file': session('file', ({ second }) =>
      loginCommand(second, PASSWORDS.second, 'file'),
    ),
    'floe login to another server, session in the keychain': session('keychain', ({ second }) =>
      loginCommand(second, PASSWORDS.second, 'keychain'),
    ),
    'floe logout, session in the keychain': session('keychain', () => ({ args: ['logout'] })),
    'floe logout, session in the file': session('file', () => ({ args: ['logout'], env: NO_KEYCHAIN })),
  };
}
