// `npx floe` runs the clone's own bin, and the lines floe prints to paste use the command that
// runs it here: `floe` only when the floe on PATH is this launcher.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { floeCommand } from '../../src/cli/invocation.js';

const ROOT = resolve(import.meta.dirname, '../..');
const LAUNCHER = join(ROOT, 'bin', 'floe.js');
const dir = mkdtempSync(join(tmpdir(), 'floe-invocation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function binDir(name: string, target?: string): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  if (target) symlinkSync(target, join(path, 'floe'));
  else {
    writeFileSync(join(path, 'floe'), '#!/bin/sh\n');
    chmodSync(join(path, 'floe'), 0o755);
  }
  return path;
}

describe('floeCommand', () => {
  it('is "npx floe" when no floe is on PATH (a clone)', () => {
    expect(floeCommand({ PATH: '/nonexistent' }, LAUNCHER)).toBe('npx floe');
  });

  // Issue 30, item 7: outside the clone, npx floe would fetch an unrelated package.
  it('is "node <path>/bin/floe.js" outside the clone when no floe on PATH is this one', () => {
    expect(floeCommand({ PATH: '/nonexistent' }, LAUNCHER, undefined, dir)).toBe(`node ${LAUNCHER}`);
    expect(floeCommand({ PATH: '/nonexistent' }, LAUNCHER, undefined, join(ROOT, 'src'))).toBe('npx floe');
    const global = binDir('global-outside', LAUNCHER);
    expect(floeCommand({ PATH: global }, LAUNCHER, undefined, dir)).toBe('floe');
  });

  it('is "floe" when the floe on PATH links to this launcher (npm install -g, npm link)', () => {
    const global = binDir('global', LAUNCHER);
    expect(floeCommand({ PATH: `/nonexistent:${global}` }, LAUNCHER)).toBe('floe');
  });

  it('is "npx floe" when the first floe on PATH is another program', () => {
    const other = binDir('other');
    const global = binDir('global2', LAUNCHER);
    expect(floeCommand({ PATH: `${other}:${global}` }, LAUNCHER)).toBe('npx floe');
  });

  it('the single executable: "floe" when it is the floe on PATH, else its own path, quoted for the shell', () => {
    const exe = join(dir, 'exe dir', 'floe-linux-x64');
    mkdirSync(join(dir, 'exe dir'), { recursive: true });
    writeFileSync(exe, '');
    expect(floeCommand({ PATH: '/nonexistent' }, exe, exe)).toBe(`'${exe}'`);
    const onPath = binDir('sea-path', exe);
    expect(floeCommand({ PATH: onPath }, exe, exe)).toBe('floe');
    expect(floeCommand({ PATH: binDir('sea-other') }, exe, exe)).toBe(`'${exe}'`);
    const plain = join(dir, 'floe-linux-x64');
    writeFileSync(plain, '');
    expect(floeCommand({ PATH: '/nonexistent' }, plain, plain)).toBe(plain);
  });

  it('ignores node_modules/.bin, which npm puts on PATH only while it runs a script', () => {
    const local = binDir(join('project', 'node_modules', '.bin'), LAUNCHER);
    expect(floeCommand({ PATH: local }, LAUNCHER)).toBe('npx floe');
  });
});

describe('npx floe in the clone', () => {
  it('runs the package bin (the README first lines), without asking the registry', () => {
    const run = spawnSync('npx', ['--offline', 'floe', '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: floe [command] [flags]');
  });

  it('says how to build when dist/ is missing (installed with --ignore-scripts)', () => {
    const clone = join(dir, 'unbuilt');
    mkdirSync(join(clone, 'bin'), { recursive: true });
    writeFileSync(join(clone, 'bin', 'floe.js'), readFileSync(LAUNCHER));
    writeFileSync(join(clone, 'package.json'), '{"type":"module","version":"0.0.0"}');
    const run = spawnSync(process.execPath, [join(clone, 'bin', 'floe.js'), 'profiles'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`floe: not built yet (no dist/cli.js): run "npm run build" in ${clone}/\n`);
  });
});
