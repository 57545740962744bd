// The npm package as a user installs it (test/support/package.ts: `npm pack`, where prepack builds dist/
// and leaves the clone's `prepare` out of the manifest, then `npm i -g --prefix DIR` of the tarball into
// an empty prefix), then the installed `floe`: --version and a sandbox round trip (setup --yes, test
// --json). It runs here as when keytar's addon is missing: npm ran no install script (what allowScripts
// will make the default for a global install unless told --allow-scripts=keytar), or keytar's build
// failed (no libsecret-1-dev, no compiler, no way to Node's headers). Keytar is there without its
// addon, and floe says so in one line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReportSchema } from '../../src/check/types.js';
import { sandboxSecretEnv, setupArgs } from '../../src/sandbox/demo.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { spawnFile } from '../support/cli.js';
import { installedPackage } from '../support/package.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

let sandbox: Sandbox;
let dir: string;
let tarball: string;
let prefix: string;

beforeAll(async () => {
  const installed = await installedPackage();
  if ('missing' in installed) throw new Error(installed.missing);
  tarball = installed.tarball;
  dir = mkdtempSync(join(tmpdir(), 'floe-pack-'));
  // The shared install (keytar built) copied as hard links, keytar's build removed from the copy only.
  prefix = join(dir, 'prefix');
  const copy = spawnSync('cp', ['-al', installed.prefix, prefix], { encoding: 'utf8' });
  if (copy.status !== 0) throw new Error(`cp -al ${installed.prefix} failed: ${copy.stderr}`);
  rmSync(join(prefix, 'lib', 'node_modules', '@olake', 'floe', 'node_modules', 'keytar', 'build'), {
    recursive: true,
    force: true,
  });
  sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 3 });
}, 300_000);

afterAll(async () => {
  await sandbox?.stop();
});

/** The installed floe, with a PATH of the prefix's bin and node's folder only, and no FLOE_*. */
function floe(args: string[], env: Record<string, string> = {}, input = '') {
  const base = { HOME: process.env.HOME ?? dir, TMPDIR: tmpdir(), NO_COLOR: '1' };
  const PATH = `${join(prefix, 'bin')}:${dirname(process.execPath)}`;
  return spawnFile(join(prefix, 'bin', 'floe'), args, { ...base, PATH, ...env }, input, 60_000, dir);
}

describe('the npm package', () => {
  it('holds what runs and nothing else: the launcher, dist/cli.js and the current build', () => {
    const list = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.trim().split('\n');
    const builds = new Set(list.filter((f) => f.startsWith('package/dist/b/')).map((f) => f.split('/')[3]));
    expect(builds.size).toBe(1);
    const [id] = builds;
    expect(readFileSync(join(ROOT, 'dist', 'cli.js'), 'utf8')).toContain(`./b/${id}/cli.js`);
    for (const file of list)
      expect(file).toMatch(
        /^package\/(package\.json|README\.md|LICENSE|bin\/floe\.js|dist\/cli\.js|dist\/b\/[0-9a-f]{12}\/.+\.js)$/,
      );
    const manifest = JSON.parse(
      spawnSync('tar', ['xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout,
    );
    expect(manifest.name).toBe('@olake/floe');
    expect(manifest.bin).toEqual({ floe: 'bin/floe.js' });
    expect(manifest.scripts.prepare).toBeUndefined();
    expect(list).toContain('package/LICENSE');
    expect(manifest.optionalDependencies).toEqual({ keytar: expect.any(String) });
    // The clone's package.json is back as it was.
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.prepare).toBeTypeOf('string');
    expect(readdirSync(ROOT)).not.toContain('package.json.before-pack');
  });

  it('installed globally from the tarball, floe answers --version and passes a sandbox round trip', async () => {
    const version = await floe(['--version']);
    expect(version.stdout).toBe(`floe ${PKG.version}\n`);
    const config = join(dir, 'config');
    const setup = await floe(['setup', ...setupArgs(sandbox), '--insecure-storage'], {
      FLOE_CONFIG_DIR: config,
      ...sandboxSecretEnv(sandbox),
    });
    expect(setup.code, setup.stderr).toBe(0);
    const test = await floe(['test', '--json', '--profile', 'sandbox'], { FLOE_CONFIG_DIR: config });
    expect(test.code, test.stderr).toBe(0);
    const report = checkReportSchema.parse(JSON.parse(test.stdout));
    expect(report.ok).toBe(true);
    expect(new Set(report.steps.map((s) => s.chain))).toEqual(new Set(['catalog', 'storage']));
  });

  it('installed without keytar’s addon, a save to the keychain says so in one line, never a chunk path', async () => {
    const keychain = await floe(['setup', ...setupArgs(sandbox)], {
      FLOE_CONFIG_DIR: join(dir, 'keychain'),
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      ...sandboxSecretEnv(sandbox),
    });
    expect(keychain.code).not.toBe(0);
    const lines = keychain.stderr.split('\n').filter((l) => l.includes('keychain module'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      'floe was installed without its keychain module; reinstall it letting keytar build',
    );
    expect(keychain.stderr).not.toMatch(/chunk-|dist\/b\/|Cannot find/);
  });
});
