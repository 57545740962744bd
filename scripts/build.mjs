// Bundles the CLI into dist/ with esbuild. Code splitting keeps lazily imported modules
// (the AWS SDK, Ink screens, emulators) in their own chunks, loaded only when used.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
await build({
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  jsx: 'automatic',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  define: {
    __FLOE_VERSION__: JSON.stringify(pkg.version),
    'process.env.DEV': '"false"',
    // React's production build: a third of the bundle, and faster renders.
    'process.env.NODE_ENV': '"production"',
  },
  external: ['keytar', 'react-devtools-core', 'node-pty', 's3rver'],
  banner: {
    js: "import { createRequire as __floeCreateRequire } from 'node:module'; const require = __floeCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
