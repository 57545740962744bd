#!/usr/bin/env node
// Tiny launcher: answers --version without loading the bundle, maps NO_COLOR for chalk/Ink
// (which only read FORCE_COLOR), then hands over to the bundled CLI in dist/.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`floe ${pkg.version}\n`);
} else {
  // Node ≥ 22.1 keeps compiled code between runs; a no-op on Node 20.
  (await import('node:module')).enableCompileCache?.();
  if (process.env.NO_COLOR || process.env.TERM === 'dumb') process.env.FORCE_COLOR = '0';
  const bundle = new URL('../dist/cli.js', import.meta.url);
  const { existsSync } = await import('node:fs');
  if (existsSync(bundle)) {
    const { main } = await import(bundle.href);
    await main(args);
  } else {
    // A clone installed with --ignore-scripts (npm ci runs "prepare", which builds).
    const root = new URL('..', import.meta.url).pathname;
    process.stderr.write(`floe: not built yet (no dist/cli.js): run "npm run build" in ${root}\n`);
    process.exitCode = 1;
  }
}
