// scripts/build.mjs never deletes or rewrites a file a running floe may still load: each build has its
// own folder, dist/cli.js switches atomically, and a superseded build is removed only a day later.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDist, currentBuild, newestInput, PRUNE_AFTER_MS, upToDate } from '../../scripts/build.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;

/** A folder laid out like a clone (bin/, package.json, dist/), so bin/floe.js runs from it. */
function clone(): { root: string; dist: string } {
  const root = mkdtempSync(join(tmpdir(), 'floe-build-'));
  cpSync(join(ROOT, 'bin'), join(root, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  return { root, dist: join(root, 'dist') };
}

function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out.set(path, readFileSync(path, 'utf8'));
    }
  }
  return out;
}

describe('scripts/build.mjs', () => {
  it('a rebuild keeps what a running floe loaded and switches dist/cli.js; the same source is not built twice; a build superseded a day ago goes', async () => {
    const { root, dist } = clone();
    const first = await buildDist({ dist, define: { __FLOE_VERSION__: '"1.0.0-first"' } });
    // A floe started from the first build: it has loaded the entry, and imports a command's chunk only later.
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { main } = await import(${JSON.stringify(join(dist, 'cli.js'))});
         process.stdout.write('loaded\\n');
         process.stdin.once('data', async () => { await main(['profiles', '--json']); process.stdin.destroy(); });`,
      ],
      { env: { ...process.env, FLOE_CONFIG_DIR: join(root, 'config') }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (stdout.includes('loaded')) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    const before = files(first.dir);
    const second = await buildDist({ dist, define: { __FLOE_VERSION__: '"1.0.0-second"' } });
    expect(second.id).not.toBe(first.id);
    expect(currentBuild(join(dist, 'cli.js'))).toBe(second.id);
    expect(files(first.dir)).toEqual(before);

    child.stdin.write('go\n');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout.slice(stdout.indexOf('\n') + 1))).toEqual([]);

    // A new floe runs the new build.
    const version = await new Promise<string>((resolve) => {
      const run = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `(await import(${JSON.stringify(join(dist, 'cli.js'))})).main(['--version'])`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      run.stdout.on('data', (c: Buffer) => {
        out += c.toString();
      });
      run.on('close', () => resolve(out));
    });
    expect(version).toBe('floe 1.0.0-second\n');
    // npm pack ships only the current build.
    expect(readFileSync(join(dist, 'b', '.npmignore'), 'utf8')).toContain(`/*\n!/${second.id}/\n`);

    // The same source is not built twice; the first build, superseded just now, is kept.
    expect((await buildDist({ dist, define: { __FLOE_VERSION__: '"1.0.0-second"' } })).id).toBe(second.id);
    expect(existsSync(first.dir)).toBe(true);
    // Superseded a day ago: the next build removes it.
    const old = new Date(Date.now() - PRUNE_AFTER_MS - 60_000);
    utimesSync(first.dir, old, old);
    await buildDist({ dist, define: { __FLOE_VERSION__: '"1.0.0-second"' } });
    expect(existsSync(first.dir)).toBe(false);
    expect(existsSync(second.dir)).toBe(true);
  });
});

// Issue 30, item 7: npm run demo (and npm start) build only when a source changed since the last build.
describe('upToDate (scripts/build.mjs --if-changed)', () => {
  it('is true for a dist/ written after every source, false once a source is newer', async () => {
    const { dist } = clone();
    expect(upToDate(dist)).toBe(false);
    await buildDist({ dist });
    expect(upToDate(dist)).toBe(true);
    const entry = join(dist, 'cli.js');
    // Built a second after the newest input changed: up to date; a second before it: not.
    const after = new Date(newestInput() + 1000);
    utimesSync(entry, after, after);
    expect(upToDate(dist)).toBe(true);
    const before = new Date(newestInput() - 1000);
    utimesSync(entry, before, before);
    expect(upToDate(dist)).toBe(false);
  });
});
