import { defineConfig } from 'vitest/config';
import { ISOLATED_TESTS, PROCESS_TESTS } from './test/setup/process-tests.js';
import { LongestFirst } from './test/setup/sequencer.js';

const env = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

/** The fast projects start no process and no service (test/setup/no-process.ts makes it throw). */
const fast = {
  setupFiles: ['test/setup/no-process.ts'],
  // No service here: a test asking for one fails (under CI=true) or skips, naming the fast project.
  env: {
    ...env,
    FLOE_TEST_KEYRING: 'not started in the fast project (list the file in test/setup/process-tests.ts)',
    FLOE_TEST_CEPH: 'not started in the fast project (list the file in test/setup/process-tests.ts)',
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-fast-project',
  },
  // In-process tests are CPU-bound: one worker per core. They run first (group 0), the process project after.
  maxWorkers: '100%',
  sequence: { groupOrder: 0 },
};

export default defineConfig({
  test: {
    globalSetup: ['test/setup/tmp.ts'],
    setupFiles: ['test/setup/react-act.ts'],
    pool: 'forks',
    sequence: { sequencer: LongestFirst },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: [...PROCESS_TESTS, ...ISOLATED_TESTS],
          // A worker keeps its module graph from file to file (no re-import per file): each file leaves
          // the process as it found it, shared-graph.ts empties what a module keeps for the process, and
          // files that mock modules or check what is loaded run isolated.
          isolate: false,
          ...fast,
          setupFiles: [...fast.setupFiles, 'test/setup/shared-graph.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'fast-isolated', include: ISOLATED_TESTS, ...fast },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: PROCESS_TESTS,
          // As the fast project: one module graph per worker, what a module keeps emptied per file.
          isolate: false,
          setupFiles: ['test/setup/services.ts', 'test/setup/react-act.ts', 'test/setup/shared-graph.ts'],
          // Ceph and the single executable start in the background, while the fast projects run.
          globalSetup: ['test/setup/keyring.ts', 'test/setup/ceph.ts', 'test/setup/single-file.ts'],
          env,
          // Three files at a time on two cores: their processes often wait (on a terminal, a sync run,
          // each other); two left the cores idle a third of the time; four gained nothing.
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
