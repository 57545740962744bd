// Vitest global setup: the single executable (scripts/build-binary.mjs, `npm run build:binary`), built
// in the background (test/setup/background.ts) while the fast projects run; test/binary and the
// artifact suite run it. Tests read FLOE_TEST_SINGLE_FILE: "ready", or why it is missing.
import { spawn } from 'node:child_process';
import { publish } from './background.js';

const ROOT = new URL('../../', import.meta.url).pathname;

export default function setup(): () => Promise<void> {
  const built = new Promise<void>((resolve) => {
    const child = spawn(process.execPath, ['scripts/build-binary.mjs'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) => {
      publish('single-file', {
        FLOE_TEST_SINGLE_FILE: `npm run build:binary did not start: ${error.message}`,
      });
      resolve();
    });
    child.on('close', (code) => {
      publish('single-file', {
        FLOE_TEST_SINGLE_FILE:
          code === 0 ? 'ready' : `npm run build:binary failed (exit ${code}):\n${output.trim()}`,
      });
      resolve();
    });
  });
  return () => built;
}
