// What users run, as the artifact suite runs it (never src/): the built CLI (bin/floe.js → dist/) on the
// Node running the tests, the npm package installed from its `npm pack` tarball into an empty prefix on
// every Node of artifactNodes(), and the single file (dist/bin/floe-linux-x64, built by
// test/setup/single-file.ts). The built CLI runs on one Node only: on another it would run nothing the
// package does not (the package ships the same dist/, with its own installed dependencies).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ready } from '../setup/background.js';
import { artifactNodes } from '../support/nodes.js';
import { installedPackage } from '../support/package.js';

// The single executable is built while the fast projects run (test/setup/single-file.ts).
await ready('single-file');

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

/** Every artifact: the built CLI, the npm package on every Node, the single file. */
export function targets(): Target[] {
  return [
    { name: `built CLI on node ${process.version}`, kind: 'cli', node: process.execPath },
    ...artifactNodes().map((node) => ({
      name: `npm package on node ${nodeVersion(node)}`,
      kind: 'package' as const,
      node,
    })),
    { name: 'single file', kind: 'single-file' },
  ];
}

/** Why `target` cannot run here, or undefined: the tests then fail under CI=true, else skip saying why. */
export function unavailable(target: Target): string | undefined {
  if (target.kind === 'single-file' && process.env.FLOE_TEST_SINGLE_FILE !== 'ready')
    return (
      process.env.FLOE_TEST_SINGLE_FILE ?? 'the single executable was not built (test/setup/single-file.ts)'
    );
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
