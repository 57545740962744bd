// Bundles the CLI into dist/ with esbuild. Code splitting keeps lazily imported modules
// (the AWS SDK, Ink screens, emulators) in their own chunks, loaded only when used.
//
// A build never deletes or rewrites a file a running floe may still load (a floe started before a
// rebuild imports its chunks later, when a command or screen needs them). Each build goes to its own
// folder, dist/b/<id>/ (cli.js + chunks/; <id> is a hash of the output, so an unchanged source is not
// built twice), written under a temporary name and renamed into place; then dist/cli.js, a one-line
// entry re-exporting the current build, is replaced atomically (temp file + rename). A superseded build
// stays; it is removed by a later build once it has been superseded for PRUNE_AFTER_MS, since a floe
// still running from it by then would have had to start before it was superseded.
// dist/b/.npmignore lists every build but the current one, so `npm pack` ships just that one.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleOptions } from './lib/bundle.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PRUNE_AFTER_MS = 24 * 60 * 60 * 1000;
const ID = /^[0-9a-f]{12}$/;

/** The build dist/cli.js points at, or undefined. */
export function currentBuild(entry) {
  if (!existsSync(entry)) return undefined;
  return /\.\/b\/([0-9a-f]{12})\/cli\.js/.exec(readFileSync(entry, 'utf8'))?.[1];
}

/** Writes `text` to `file` atomically: a temporary file beside it, renamed over it. */
function writeAtomic(file, text) {
  const temp = `${file}.tmp-${process.pid}`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

/**
 * Builds into `dist` (default: the repository's dist/) and switches dist/cli.js to the new build.
 * `define` adds esbuild defines (tests build two different outputs with it).
 */
export async function buildDist({ dist = join(ROOT, 'dist'), define = {} } = {}) {
  const BUILDS = join(dist, 'b');
  const ENTRY = join(dist, 'cli.js');
  mkdirSync(BUILDS, { recursive: true });
  const staging = join(BUILDS, `.tmp-${process.pid}-${Date.now()}`);
  // Loaded here, so that a build skipped by --if-changed costs no esbuild start-up.
  const { build } = await import('esbuild');
  const options = bundleOptions();
  const result = await build({
    ...options,
    define: { ...options.define, ...define },
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: staging,
    splitting: true,
    format: 'esm',
    chunkNames: 'chunks/[name]-[hash]',
    external: ['keytar', 'react-devtools-core', 'node-pty', 's3rver'],
    banner: {
      js: "import { createRequire as __floeCreateRequire } from 'node:module'; const require = __floeCreateRequire(import.meta.url);",
    },
    absWorkingDir: ROOT,
    write: false,
  });
  const files = result.outputFiles
    .map((f) => ({ path: relative(staging, f.path), contents: f.contents }))
    .sort((a, b) => a.path.localeCompare(b.path));
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f.path}\0${f.contents.length}\0`).update(f.contents);
  const id = hash.digest('hex').slice(0, 12);
  const target = join(BUILDS, id);

  const previous = currentBuild(ENTRY);
  // The layout before builds had their own folders: loose chunks/ beside cli.js, superseded now.
  const legacy = join(dist, 'chunks');
  if (!previous && existsSync(ENTRY) && existsSync(legacy)) touch(legacy);
  if (!existsSync(target)) {
    for (const f of files) {
      mkdirSync(dirname(join(staging, f.path)), { recursive: true });
      writeFileSync(join(staging, f.path), f.contents);
    }
    renameSync(staging, target);
  }
  writeAtomic(
    ENTRY,
    `// The current build (scripts/build.mjs): each build has its own folder, so a running floe keeps its chunks.\nexport * from './b/${id}/cli.js';\n`,
  );
  // Mark when the previous build was superseded: the prune below counts from then.
  if (previous && previous !== id && existsSync(join(BUILDS, previous))) touch(join(BUILDS, previous));
  prune(BUILDS, id);
  if (existsSync(legacy) && isStale(legacy)) rmSync(legacy, { recursive: true, force: true });
  writeFileSync(
    join(BUILDS, '.npmignore'),
    `# Written by scripts/build.mjs: npm pack ships only the current build (${id}).\n/*\n!/${id}/\n`,
  );
  return { id, dir: target };
}

function touch(path) {
  const now = new Date();
  utimesSync(path, now, now);
}

function isStale(path) {
  return Date.now() - statSync(path).mtimeMs > PRUNE_AFTER_MS;
}

/** Removes builds superseded more than PRUNE_AFTER_MS ago, and staging folders of crashed builds. */
function prune(builds, current) {
  for (const name of readdirSync(builds)) {
    const path = join(builds, name);
    if (name !== current && (ID.test(name) || name.startsWith('.tmp-')) && isStale(path))
      rmSync(path, { recursive: true, force: true });
  }
}

/** What a build reads besides node_modules: a change to any of them makes dist/ out of date. */
const INPUTS = ['src', 'scripts/build.mjs', 'scripts/lib/bundle.mjs', 'package.json', 'package-lock.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Whether dist/cli.js was written after every input last changed (`npm run demo` then skips the build). */
/** When the newest of the build's inputs last changed (ms since the epoch). */
export function newestInput() {
  return Math.max(...INPUTS.map((input) => newest(join(ROOT, input))));
}

export function upToDate(dist = join(ROOT, 'dist')) {
  const entry = join(dist, 'cli.js');
  if (!existsSync(entry) || currentBuild(entry) === undefined) return false;
  return newestInput() < statSync(entry).mtimeMs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // --if-changed (npm run demo, npm start): nothing to do when no source changed since the last build.
  // A dist/ from before builds had their own folder keeps its loose chunks/ for a floe running from it.
  if (!(process.argv.includes('--if-changed') && upToDate())) await buildDist();
}
