// The single executable (npm run build:binary; the test run builds it: test/setup/single-file.ts) as a
// user runs it on a server: copied alone into an empty folder and run with a PATH that has no node and
// no npm. Against the sandbox's servers (started here): setup --yes + test --json, login + jobs --json,
// the home screen in a pseudo-terminal; once with the test run's keychain (gnome-keyring on a private
// D-Bus), once without one, where it must behave exactly as the npm CLI does. It runs on the pinned
// Node 24, takes no Node options from the environment, and unpacks its keychain module only where no
// other user can swap it.
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  type FSWatcher,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startTerminal } from '../../scripts/lib/terminal.mjs';
import { NODE24 } from '../../scripts/node24.mjs';
import { checkReportSchema } from '../../src/check/types.js';
import { sandboxSecretEnv, setupArgs } from '../../src/sandbox/demo.js';
import { SANDBOX, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { SEA_KEYTAR_ERROR } from '../../src/secrets/sea-keytar.js';
import { keychainAccounts } from '../management/support.js';
import { ready } from '../setup/background.js';
import { spawnCli, spawnFile } from '../support/cli.js';
import { itWithService } from '../support/services.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const BUILT = join(ROOT, 'dist', 'bin', `floe-${process.platform}-${process.arch}`);
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
await ready('single-file');
/** "ready" once test/setup/single-file.ts built it, else why it is missing. */
const SINGLE_FILE = process.env.FLOE_TEST_SINGLE_FILE;
const it = itWithService(SINGLE_FILE, 'the single executable');
const withKeyring = itWithService(
  SINGLE_FILE === 'ready' ? process.env.FLOE_TEST_KEYRING : SINGLE_FILE,
  'a keychain (gnome-keyring) and the single executable',
);

let sandbox: Sandbox;
let folder: string;
let binary: string;
/** A PATH with no node and no npm: an empty folder. */
let PATH: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'floe-binary-'));
  PATH = join(folder, 'empty-bin');
  mkdirSync(PATH);
  if (existsSync(BUILT)) {
    binary = join(folder, 'floe');
    copyFileSync(BUILT, binary);
  }
  sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 3 });
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

/** What a login shell on a server would have: HOME, TMPDIR, no node on PATH, no FLOE_*. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { HOME: process.env.HOME, TMPDIR: tmpdir(), PATH, NO_COLOR: '1', ...extra };
  for (const key of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_RUNTIME_DIR'])
    if (process.env[key]) env[key] = process.env[key];
  return env;
}
const keyring = () => ({ DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS ?? '' });
const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };

function floe(args: string[], env: NodeJS.ProcessEnv, input = '') {
  return spawnFile(binary, args, env, input, 60_000, folder);
}

async function roundTrip(config: string, env: Record<string, string>, storage: string[]) {
  const setup = await floe(
    ['setup', ...setupArgs(sandbox), ...storage],
    userEnv({ FLOE_CONFIG_DIR: config, ...env, ...sandboxSecretEnv(sandbox) }),
  );
  expect(setup.code, setup.stderr).toBe(0);
  // The secrets now come from where setup stored them, not from the environment.
  const test = await floe(
    ['test', '--json', '--profile', 'sandbox'],
    userEnv({ FLOE_CONFIG_DIR: config, ...env }),
  );
  expect(test.code, test.stderr).toBe(0);
  const report = checkReportSchema.parse(JSON.parse(test.stdout));
  expect(report.ok).toBe(true);
  expect(new Set(report.steps.map((s) => s.chain))).toEqual(new Set(['catalog', 'storage']));

  const login = await floe(
    ['login', '--url', sandbox.olake.url, '--password-stdin', ...storage],
    userEnv({ FLOE_CONFIG_DIR: config, ...env }),
    SANDBOX.olake.password,
  );
  expect(login.code, login.stderr).toBe(0);
  const jobs = await floe(['jobs', '--json'], userEnv({ FLOE_CONFIG_DIR: config, ...env }));
  expect(jobs.code, jobs.stderr).toBe(0);
  expect((JSON.parse(jobs.stdout) as unknown[]).length).toBe(3);
  return setup;
}

describe('the single executable, alone in a folder, no node on PATH', () => {
  it("--version names the single-file build and its Node; --help is the npm CLI's", async () => {
    const version = await floe(['--version'], userEnv());
    expect(version.stdout).toBe(
      `floe ${VERSION} (single-file build, Node v${NODE24.version}, ${process.platform}-${process.arch})\n`,
    );
    const help = await floe(['--help'], userEnv());
    expect(help.code).toBe(0);
    expect(help.stdout).toBe((await spawnCli(['--help'], { ...process.env, NO_COLOR: '1' })).stdout);
  });

  withKeyring(
    'with a keychain: setup keeps the secrets there; test --json passes; login and jobs --json',
    async () => {
      const config = join(folder, 'with-keychain');
      const setup = await roundTrip(config, keyring(), []);
      expect(setup.stderr).toContain('secrets in the OS keychain');
      // The line to paste names this very file: it is not on PATH.
      expect(setup.stderr).toContain(`Next: ${binary} test --profile sandbox`);
      expect(
        keychainAccounts(config).some((a) => a.startsWith('profile/sandbox') || a.includes('sandbox')),
      ).toBe(true);

      // The home screen, in a terminal.
      const t = startTerminal({
        command: [binary],
        cwd: folder,
        env: { ...userEnv({ FLOE_CONFIG_DIR: config, ...keyring() }) } as Record<string, string>,
      });
      try {
        await t.waitFor(/sandbox/);
        await t.press('q');
        expect(await t.exit()).toBe(0);
      } finally {
        t.kill();
        // The keyring is shared by the whole run: leave no "sandbox" entries for other files to find.
        const env = userEnv({ FLOE_CONFIG_DIR: config, ...keyring() });
        await floe(['profiles', 'delete', 'sandbox'], env);
        await floe(['logout', '--url', sandbox.olake.url], env);
      }
      expect(keychainAccounts(config).filter((a) => a.includes('sandbox'))).toEqual([]);
    },
  );

  it('without a keychain: the same answer as the npm CLI, then the secrets file or the environment', async () => {
    const config = join(folder, 'no-keychain');
    const args = ['setup', ...setupArgs(sandbox)];
    const env = { ...NO_BUS, ...sandboxSecretEnv(sandbox) };
    const single = await floe(args, userEnv({ FLOE_CONFIG_DIR: join(config, 'a'), ...env }));
    const npm = await spawnCli(args, {
      ...userEnv({ FLOE_CONFIG_DIR: join(config, 'b'), ...env }),
      PATH: process.env.PATH,
    });
    expect(single.code).not.toBe(0);
    expect({
      code: single.code,
      stdout: single.stdout,
      stderr: single.stderr.replaceAll(binary, 'npx floe'),
    }).toEqual({
      code: npm.code,
      stdout: npm.stdout,
      stderr: npm.stderr,
    });
    await roundTrip(join(config, 'file'), NO_BUS, ['--insecure-storage']);
    // The write check (Parquet, Avro manifests, the commit) from the one file too.
    const write = await floe(
      ['test', '--write', '--json', '--profile', 'sandbox'],
      userEnv({ FLOE_CONFIG_DIR: join(config, 'file'), ...NO_BUS }),
    );
    expect(write.code, write.stderr).toBe(0);
    expect(
      checkReportSchema.parse(JSON.parse(write.stdout)).steps.filter((s) => s.chain === 'write').length,
    ).toBeGreaterThan(0);
  });

  it('takes no Node options from the environment: NODE_OPTIONS --require runs nothing, --inspect-brk opens nothing', async () => {
    const marker = join(folder, 'required-ran');
    const hook = join(folder, 'hook.cjs');
    writeFileSync(hook, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`);
    const run = await spawnFile(
      binary,
      ['--help'],
      userEnv({ NODE_OPTIONS: `--require ${hook} --inspect-brk=127.0.0.1:0` }),
      '',
      20_000,
      folder,
    );
    // Honoured, --inspect-brk would wait for a debugger until the timeout kills the run.
    expect(run.signal).toBeNull();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('Debugger listening');
    expect(existsSync(marker)).toBe(false);
  });

  /** Names created in `dir` while `fn` runs (inotify: even what is removed at once). */
  async function createdIn<T>(
    dirs: string[],
    fn: () => Promise<T>,
  ): Promise<{ result: T; seen: string[][] }> {
    const seen = dirs.map(() => [] as string[]);
    const watchers: FSWatcher[] = dirs.map((dir, i) =>
      watch(dir, (_event, name) => {
        if (name) seen[i]?.push(String(name));
      }),
    );
    try {
      const result = await fn();
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { result, seen };
    } finally {
      for (const w of watchers) w.close();
    }
  }

  /** setup through the keychain with no Secret Service: it fails on D-Bus once keytar has loaded. */
  async function setupLoadingKeytar(name: string, tmp: string, extra: Record<string, string> = {}) {
    const config = join(folder, name);
    mkdirSync(config, { mode: 0o700 });
    const env = userEnv({
      FLOE_CONFIG_DIR: config,
      TMPDIR: tmp,
      ...NO_BUS,
      ...sandboxSecretEnv(sandbox),
      ...extra,
    });
    delete env.XDG_RUNTIME_DIR;
    Object.assign(env, extra);
    const { result, seen } = await createdIn([tmp, config], () =>
      floe(['setup', ...setupArgs(sandbox)], env),
    );
    expect(result.code).not.toBe(0);
    // The module loaded (keytar itself answered: no D-Bus), not "could not load its keychain module".
    expect(result.stderr).not.toContain(SEA_KEYTAR_ERROR);
    expect(result.stderr).toContain('D-Bus session bus');
    const [inTmp = [], inConfig = []] = seen;
    return { inTmp: inTmp.filter((n) => n.startsWith('floe-keytar-')), inConfig, config };
  }

  it('TMPDIR writable by everyone, not sticky: the keychain module never goes there (the config folder instead)', async () => {
    const tmp = join(folder, 'open-tmp');
    mkdirSync(tmp);
    chmodSync(tmp, 0o777);
    const { inTmp, inConfig } = await setupLoadingKeytar('open-tmp-config', tmp);
    expect(inTmp).toEqual([]);
    expect(inConfig.some((n) => n.startsWith('floe-keytar-'))).toBe(true);
  });

  it('a sticky TMPDIR of its own is used; else $XDG_RUNTIME_DIR before the config folder', async () => {
    const sticky = join(folder, 'sticky-tmp');
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    expect((await setupLoadingKeytar('sticky-config', sticky)).inTmp.length).toBeGreaterThan(0);

    const open = join(folder, 'open-tmp-2');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const runtime = mkdtempSync(join(folder, 'runtime-'));
    const { result, seen } = await createdIn([runtime], () =>
      setupLoadingKeytar('runtime-config', open, { XDG_RUNTIME_DIR: runtime }),
    );
    expect(result.inTmp).toEqual([]);
    expect(result.inConfig.filter((n) => n.startsWith('floe-keytar-'))).toEqual([]);
    expect(seen[0]?.some((n) => n.startsWith('floe-keytar-'))).toBe(true);
  });

  const asRoot = itWithService(
    SINGLE_FILE !== 'ready'
      ? SINGLE_FILE
      : process.getuid?.() === 0
        ? 'ready'
        : 'root, to give folders to another user (chown)',
    'the single executable run as root',
  );

  asRoot('TMPDIR another user owns, or a symlink to one: the keychain module never goes there', async () => {
    const NOBODY = 65534;
    const theirs = join(folder, 'their-tmp');
    mkdirSync(theirs);
    chmodSync(theirs, 0o755);
    chownSync(theirs, NOBODY, NOBODY);
    const direct = await setupLoadingKeytar('their-tmp-config', theirs);
    expect(direct.inTmp).toEqual([]);
    expect(direct.inConfig.some((n) => n.startsWith('floe-keytar-'))).toBe(true);

    const link = join(folder, 'link-tmp');
    symlinkSync(theirs, link);
    const { result, seen } = await createdIn([theirs], () => setupLoadingKeytar('link-tmp-config', link));
    expect(seen[0]?.filter((n) => n.startsWith('floe-keytar-'))).toEqual([]);
    expect(result.inConfig.some((n) => n.startsWith('floe-keytar-'))).toBe(true);
  });
});
