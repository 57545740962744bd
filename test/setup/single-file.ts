// Vitest global setup: the single executable (scripts/build-binary.mjs, `npm run build:binary`), built
// in the background (test/setup/background.ts) while the fast projects run; test/binary and the
// artifact suite run it. Tests read FLOE_TEST_SINGLE_FILE: "ready", or why it is missing.
import { spawnFile } from '../support/cli.js';
import { publish } from './background.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** "ready", or why the build failed (the end of its output). */
async function build(): Promise<string> {
  try {
    const { code, stdout, stderr } = await spawnFile(
      process.execPath,
      ['scripts/build-binary.mjs'],
      process.env,
      '',
      300_000,
      ROOT,
    );
    return code === 0
      ? 'ready'
      : `npm run build:binary failed (exit ${code}):\n${(stdout + stderr).trim().slice(-4000)}`;
  } catch (error) {
    return `npm run build:binary did not start: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export default function setup(): () => Promise<void> {
  const built = build().then((status) => publish('single-file', { FLOE_TEST_SINGLE_FILE: status }));
  return () => built;
}
