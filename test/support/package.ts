// The npm package as a user installs it, once per test run: `npm pack` (prepack builds dist/), then
// `npm i -g --prefix DIR` of the tarball into an empty prefix, from the registry's cache
// (--prefer-offline: npm ci filled it). npm 11 runs keytar's install script there (it warns that
// allowScripts will cover it), so keytar's addon is built. A lock folder makes the first test file
// that asks pack and install; the others wait for its result. Never imports src/.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForFile, writeWhole } from '../setup/background.js';
import { spawnFile } from './cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;

export interface InstalledPackage {
  tarball: string;
  /** The npm prefix it is installed in: bin/floe, lib/node_modules/@olake/floe. */
  prefix: string;
  /** The installed package's bin/floe.js. */
  bin: string;
}

/** The package installed from its tarball (packed and installed by the first caller), or why not. */
export async function installedPackage(): Promise<InstalledPackage | { missing: string }> {
  const base = join(process.env.FLOE_TEST_TMP ?? tmpdir(), 'floe-package');
  const lock = `${base}.lock`;
  const done = join(lock, 'result.json');
  try {
    mkdirSync(lock);
  } catch {
    if (!(await waitForFile(done, 400_000)))
      return { missing: 'another test file was still installing the package' };
    return JSON.parse(readFileSync(done, 'utf8'));
  }
  rmSync(base, { recursive: true, force: true });
  mkdirSync(base, { recursive: true });
  const result = await packAndInstall(base);
  writeWhole(done, result);
  return result;
}

/** A command's exit code and its output (stdout and stderr together), stopped after 5 minutes. */
async function run(file: string, args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  const { code, stdout, stderr } = await spawnFile(file, args, process.env, '', 300_000, cwd);
  return { code, out: stdout + stderr };
}

async function packAndInstall(base: string): Promise<InstalledPackage | { missing: string }> {
  const pack = await run('npm', ['pack', '--json', '--pack-destination', base], ROOT);
  if (pack.code !== 0) return { missing: `npm pack failed: ${pack.out}` };
  const filename = /"filename":\s*"([^"]+)"/.exec(pack.out)?.[1];
  if (!filename) return { missing: `npm pack named no tarball: ${pack.out}` };
  const tarball = join(base, filename);
  const prefix = join(base, 'prefix');
  const install = await run(
    'npm',
    ['i', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball],
    base,
  );
  if (install.code !== 0) return { missing: `npm i -g of the tarball failed: ${install.out}` };
  return { tarball, prefix, bin: join(prefix, 'lib', 'node_modules', '@olake', 'floe', 'bin', 'floe.js') };
}
