// npm pack / publish: the package ships the built dist/ and no build step. `prepack` builds, then takes
// the clone's `prepare` (which builds dist/ on `npm ci` in a git checkout) out of package.json, so the
// packed manifest has no install-time script of its own, and node-pty too: it is optional in the clone
// only so that `npm ci` survives its build failing (the pty tests need it, users never do). `postpack`
// puts package.json back as it was.
// (The same trick as pinst's for postinstall.)
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDist } from './build.mjs';

const PKG = fileURLToPath(new URL('../package.json', import.meta.url));
const SAVED = `${PKG}.before-pack`;

/** Replaces `file` atomically, so a floe or npm reading package.json meanwhile never sees half of it. */
function writeAtomic(file, text) {
  writeFileSync(`${file}.tmp-${process.pid}`, text);
  renameSync(`${file}.tmp-${process.pid}`, file);
}

if (process.argv[2] === 'prepack') {
  await buildDist();
  const text = readFileSync(PKG, 'utf8');
  // A leftover copy means an earlier pack stopped before postpack: that copy is the original.
  if (!existsSync(SAVED)) writeFileSync(SAVED, text);
  const pkg = JSON.parse(text);
  delete pkg.scripts.prepare;
  delete pkg.optionalDependencies['node-pty'];
  writeAtomic(PKG, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (process.argv[2] === 'postpack') {
  if (existsSync(SAVED)) renameSync(SAVED, PKG);
} else {
  process.stderr.write('usage: node scripts/pack.mjs prepack|postpack (npm pack runs both)\n');
  process.exitCode = 2;
}
