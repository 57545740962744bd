/**
 * Vitest's process project (vitest.config.ts): the test files that start a process (the built CLI, a
 * pty, git, npm, python3) or need a real service (Ceph RGW, the Secret Service). Every other file is in
 * the fast project (`npm run test:fast`), where test/setup/no-process.ts makes starting a process throw
 * and no service is started.
 */
export const PROCESS_TESTS = [
  'test/artifact/demo.test.ts',
  'test/artifact/flavours.test.ts',
  'test/artifact/flows.test.ts',
  'test/audit/secrets.test.ts',
  'test/binary/binary.test.ts',
  'test/build/build.test.ts',
  'test/catalog/diagnoses.test.ts',
  'test/catalog/transport.test.ts',
  'test/cli/completion.test.ts',
  'test/cli/files.test.ts',
  'test/cli/import-input.test.ts',
  'test/cli/imports.test.ts',
  'test/cli/invocation.test.ts',
  'test/cli/keychain-folders.test.ts',
  'test/cli/pipe.test.ts',
  'test/cli/secrets-choice.test.ts',
  'test/cli/setup.test.ts',
  'test/config/concurrent.test.ts',
  'test/config/crash.test.ts',
  'test/config/disk-full.test.ts',
  'test/config/key-files.test.ts',
  'test/config/write-crash.test.ts',
  'test/e2e/bursts.test.ts',
  'test/e2e/connection.test.ts',
  'test/e2e/ctrl-c.test.ts',
  'test/e2e/defaults.test.ts',
  'test/e2e/export-terminal.test.ts',
  'test/e2e/flavours.test.ts',
  'test/e2e/gcs-storage.test.ts',
  'test/e2e/home.test.ts',
  'test/e2e/hostile-walk.test.ts',
  'test/e2e/hostile.test.ts',
  'test/e2e/import.test.ts',
  'test/e2e/jobs.test.ts',
  'test/e2e/login-screen.test.ts',
  'test/e2e/no-keychain.test.ts',
  'test/e2e/own-text.test.ts',
  'test/e2e/setup.test.ts',
  'test/e2e/ssh-walk.test.ts',
  'test/e2e/svg.test.ts',
  'test/e2e/tables.test.ts',
  'test/e2e/test-screen.test.ts',
  'test/e2e/values.test.ts',
  'test/e2e/write-screen.test.ts',
  'test/e2e/write.test.ts',
  'test/export/command.test.ts',
  'test/export/engines.test.ts',
  'test/management/cleartext.test.ts',
  'test/management/interactive.test.ts',
  'test/management/jobs-follow.test.ts',
  'test/management/session-keychain.test.ts',
  'test/net/proxy.test.ts',
  'test/package/pack.test.ts',
  'test/readme/lines.test.ts',
  'test/sandbox/command.test.ts',
  'test/sandbox/open.test.ts',
  'test/sandbox/pty.test.ts',
  'test/sandbox/sandbox.test.ts',
  'test/secrets/keychain.test.ts',
  'test/secrets/namespace.test.ts',
  'test/secrets/shadow.test.ts',
  'test/stack/cli.test.ts',
  'test/storage/ceph-rgw.test.ts',
  'test/storage/cli-ceph.test.ts',
  'test/tables/ceph.test.ts',
  'test/tables/gcs.test.ts',
  'test/tables/tables.test.ts',
  'test/ui/jobs/pty.test.ts',
  'test/ui/test/pty.test.ts',
  'test/write/files.test.ts',
];

/**
 * Fast tests that need a module graph of their own (vi.mock, or an assertion on what is loaded): the
 * fast-isolated project. The fast project reuses one module graph per worker across its files.
 */
export const ISOLATED_TESTS = [
  'test/cli/setup-bus.test.ts',
  'test/sandbox/log.test.ts',
  'test/storage/lazy-sdk.test.ts',
];

/**
 * The process files that take 20 s or more (a quiet run's durations, 2026-11-28), longest first: they
 * start first (test/setup/sequencer.ts), so none of them holds up the end of the run.
 */
export const LONGEST_FIRST = [
  'test/artifact/flows.test.ts',
  'test/e2e/hostile-walk.test.ts',
  'test/config/crash.test.ts',
  'test/artifact/flavours.test.ts',
  'test/audit/secrets.test.ts',
  'test/artifact/demo.test.ts',
  'test/config/write-crash.test.ts',
  'test/tables/ceph.test.ts',
  'test/ui/jobs/pty.test.ts',
  'test/binary/binary.test.ts',
  'test/package/pack.test.ts',
  'test/config/concurrent.test.ts',
  'test/management/jobs-follow.test.ts',
  'test/e2e/ssh-walk.test.ts',
  'test/tables/tables.test.ts',
  'test/e2e/flavours.test.ts',
];
