// TypeScript modules of src/ that dist/ does not export (the emulators, the config store, the
// connection-test orchestrator), for the scripts that run them in their own process (bench,
// screenshots): bundled with esbuild, packages left to node_modules, then imported.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT } from './terminal.mjs';

/**
 * Bundles `export { NAMES } from './PATH'` for each entry and imports the bundle. It is written below
 * node_modules/.cache, so that the packages it imports resolve, and removed when the process exits.
 * @param {Record<string, string[]>} modules the names to export, by path relative to the repository
 *   (`{ 'src/sandbox/index.ts': ['startSandbox', 'SANDBOX'] }`)
 * @returns {Promise<Record<string, any>>}
 */
export async function importSources(modules) {
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'floe-sources-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const outfile = join(dir, 'sources.mjs');
  await build({
    stdin: {
      contents: Object.entries(modules)
        .map(([path, names]) => `export { ${names.join(', ')} } from './${path}';`)
        .join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}
