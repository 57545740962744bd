// What users run, as the artifact suite runs it (never src/): the built CLI (bin/floe.js → dist/) and
// the npm package installed from its `npm pack` tarball into an empty prefix, each on every Node of
// artifactNodes(), and the single file (dist/bin/floe-linux-x64, `npm run build:binary`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifactNodes } from '../support/nodes.js';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const BUILT_CLI = join(ROOT, 'bin', 'floe.js');
export const SINGLE_FILE = join(ROOT, 'dist', 'bin', `floe-${process.platform}-${process.arch}`);

export interface Target {
  /** e.g. "built CLI on node v20.20.2". */
  name: string;
  kind: 'cli' | 'package' | 'single-file';
  /** The Node it runs on (the single file has its own). */
  node?: string;
}

function nodeVersion(node: string): string {
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim() || node;
}

/**
 * The package installed from its tarball, once per test run (a lock folder: the first file to ask
 * packs and installs, the others wait for it). Returns the installed bin/floe.js, or why it failed.
 */
async function installedPackage(): Promise<{ bin: string } | { missing: string }> {
  const base = join(process.env.FLOE_TEST_TMP ?? tmpdir(), 'floe-artifact-package');
  const lock = `${base}.lock`;
  const done = join(lock, 'result.json');
  try {
    mkdirSync(lock);
  } catch {
    for (let waited = 0; !existsSync(done); waited += 500) {
      if (waited > 400_000) return { missing: 'another test file was still installing the package' };
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return JSON.parse(readFileSync(done, 'utf8'));
  }
  rmSync(base, { recursive: true, force: true });
  mkdirSync(base, { recursive: true });
  const result = await packAndInstall(base);
  writeFileSync(done, JSON.stringify(result));
  return result;
}

function run(file: string, args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

async function packAndInstall(base: string): Promise<{ bin: string } | { missing: string }> {
  const pack = await run('npm', ['pack', '--json', '--pack-destination', base], ROOT);
  if (pack.code !== 0) return { missing: `npm pack failed: ${pack.out}` };
  const filename = /"filename":\s*"([^"]+)"/.exec(pack.out)?.[1];
  if (!filename) return { missing: `npm pack named no tarball: ${pack.out}` };
  const prefix = join(base, 'prefix');
  const install = await run(
    'npm',
    ['i', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(base, filename)],
    base,
  );
  if (install.code !== 0) return { missing: `npm i -g of the tarball failed: ${install.out}` };
  return { bin: join(prefix, 'lib', 'node_modules', '@olake', 'floe', 'bin', 'floe.js') };
}

/** Every artifact on every Node (the npm package only with `pkg`: it costs an npm pack and install). */
export function targets({ pkg = true } = {}): Target[] {
  const nodes = artifactNodes().map((node) => ({ node, version: nodeVersion(node) }));
  return [
    ...nodes.map(({ node, version }) => ({
      name: `built CLI on node ${version}`,
      kind: 'cli' as const,
      node,
    })),
    ...(pkg
      ? nodes.map(({ node, version }) => ({
          name: `npm package on node ${version}`,
          kind: 'package' as const,
          node,
        }))
      : []),
    { name: 'single file', kind: 'single-file' },
  ];
}

/** Why `target` cannot run here, or undefined: the tests then fail under CI=true, else skip saying why. */
export function unavailable(target: Target): string | undefined {
  if (target.kind === 'single-file' && !existsSync(SINGLE_FILE))
    return `${SINGLE_FILE} is missing (run npm run build:binary)`;
  if (target.kind === 'cli' && !existsSync(join(ROOT, 'dist', 'cli.js')))
    return 'dist/ is missing (run npm run build)';
  return undefined;
}

/** The program and the arguments before floe's own (packing and installing the package on first use). */
export async function commandOf(target: Target): Promise<string[]> {
  if (target.kind === 'single-file') return [SINGLE_FILE];
  const node = target.node ?? process.execPath;
  if (target.kind === 'cli') return [node, BUILT_CLI];
  const installed = await installedPackage();
  if ('missing' in installed) throw new Error(installed.missing);
  return [node, installed.bin];
}
