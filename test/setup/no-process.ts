// Setup file of the fast project (vitest.config.ts): a test there may start no process and no real
// service. Every way to start one (child_process, node-pty's pseudo-terminal) throws, naming the fix,
// so a spawning test in the fast set fails the run instead of slowing the inner loop.
import childProcess from 'node:child_process';
import { createRequire, syncBuiltinESMExports } from 'node:module';

const refuse = (what: string) => () => {
  throw new Error(
    `${what}: the fast project starts no process; list this test file in PROCESS_TESTS (test/setup/process-tests.ts)`,
  );
};

const mutable = childProcess as unknown as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'])
  mutable[name] = refuse(`child_process.${name}`);
syncBuiltinESMExports();

try {
  const pty = createRequire(import.meta.url)('node-pty') as Record<string, unknown>;
  pty.spawn = refuse('node-pty spawn');
} catch {
  // node-pty not built: nothing here can start a pseudo-terminal anyway.
}
