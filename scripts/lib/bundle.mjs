// esbuild options both builds share: dist/ (scripts/build.mjs, split ESM) and the single executable
// (scripts/build-binary.mjs, one CommonJS file).
import { readFileSync } from 'node:fs';

export function bundleOptions() {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return {
    bundle: true,
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    define: {
      __FLOE_VERSION__: JSON.stringify(pkg.version),
      'process.env.DEV': '"false"',
      // React's production build: a third of the bundle, and faster renders.
      'process.env.NODE_ENV': '"production"',
    },
    logLevel: 'warning',
  };
}
