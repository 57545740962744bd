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
  const { main } = await import('../dist/cli.js');
  await main(args);
}
