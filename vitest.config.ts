import { defineConfig } from 'vitest/config';
import { PROCESS_TESTS } from './test/setup/process-tests.js';

const env = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

export default defineConfig({
  test: {
    globalSetup: ['test/setup/tmp.ts'],
    setupFiles: ['test/setup/react-act.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: PROCESS_TESTS,
          setupFiles: ['test/setup/no-process.ts'],
          // No service here: a test asking for one fails (under CI=true) or skips, naming the fast project.
          env: {
            ...env,
            FLOE_TEST_KEYRING: 'not started in the fast project (list the file in test/setup/process-tests.ts)',
            FLOE_TEST_CEPH: 'not started in the fast project (list the file in test/setup/process-tests.ts)',
            DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-fast-project',
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: PROCESS_TESTS,
          globalSetup: ['test/setup/keyring.ts', 'test/setup/ceph.ts'],
          env,
        },
      },
    ],
  },
});
