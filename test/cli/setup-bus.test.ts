// Issue 31, item 1: `floe setup`'s wizard is told the keychain is unreachable (no D-Bus session bus) from
// the Io's env, not the process's. The wizard is replaced by a stand-in that records what it was given
// (a module mock: this file runs in the fast-isolated project).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SetupWizardOptions } from '../../src/ui/setup/index.js';
import { testIo } from '../support/io.js';

const given: SetupWizardOptions[] = [];
vi.mock('../../src/ui/setup/index.js', () => ({
  runSetupWizard: async (options: SetupWizardOptions) => {
    given.push(options);
    return { left: true };
  },
}));

const { dispatch } = await import('../../src/cli/main.js');

const NOTE = 'unreachable here (no D-Bus): saving asks where';

/** `floe setup` on a terminal with `env` as the Io's environment; what the wizard was given. */
async function wizardOptions(env: NodeJS.ProcessEnv): Promise<SetupWizardOptions> {
  given.length = 0;
  const io = testIo({ tty: true, env });
  expect(await dispatch(['setup', '--profile', 'bus'], io), io.stderr()).toBe(0);
  expect(io.stderr()).toContain('Setup left: nothing was saved');
  expect(given).toHaveLength(1);
  return given[0]!;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

// noSessionBus is Linux's question: elsewhere the keychain needs no D-Bus.
describe.runIf(process.platform === 'linux')('the wizard keychain note', () => {
  it('says the keychain is unreachable when the Io env has no D-Bus address (the process has one)', async () => {
    vi.stubEnv('DBUS_SESSION_BUS_ADDRESS', 'unix:path=/nonexistent/floe-process-bus');
    expect((await wizardOptions({})).keychainNote).toBe(NOTE);
  });

  it('says nothing when the Io env has a D-Bus address (the process has none)', async () => {
    vi.stubEnv('DBUS_SESSION_BUS_ADDRESS', '');
    const options = await wizardOptions({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-io-bus' });
    expect(options.keychainNote).toBeUndefined();
    expect(options.storage).toBe('keychain');
  });
});
