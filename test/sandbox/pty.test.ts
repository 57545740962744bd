// `floe sandbox --open` on a real pseudo-terminal (built CLI, 80x24) without a usable keychain: the
// home screen lists the ready profile, its connection test passes with the secrets this process set,
// and leaving the home screen stops the sandbox, removes its data and exits 0.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startTerminal } from '../../scripts/lib/terminal.mjs';
import { ConfigStore } from '../../src/config/store.js';
import { tempConfigDir } from '../support/cli.js';

/** An address where no Secret Service answers, so the keychain is unusable. */
const NO_KEYCHAIN = 'unix:path=/nonexistent/floe-test-bus';

describe('floe sandbox --open on a terminal', () => {
  it('opens home with a ready profile whose test passes, and stops everything on quit', async () => {
    const configDir = tempConfigDir();
    const floe = startTerminal({
      args: ['sandbox', '--open', '--jobs', '5'],
      env: { FLOE_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: NO_KEYCHAIN },
    });
    try {
      await floe.waitFor('Profiles');
      await floe.waitFor('sandbox');
      const dir = /Data +(\S+) \(removed when the sandbox stops\)/.exec(floe.raw())?.[1] as string;
      expect(existsSync(dir)).toBe(true);
      expect(floe.raw()).toContain('! The OS keychain cannot be used: ');
      expect(floe.raw()).toContain('FLOE_SECRET_KEY are set in this process only.');
      expect(floe.raw()).toContain('for this run only (FLOE_PASSWORD is');
      const store = new ConfigStore(configDir);
      expect(store.getProfile('sandbox')).toMatchObject({ secretStorage: 'env', storedSecrets: [] });
      expect(store.getManagement()).toMatchObject({ secretStorage: 'env', username: 'admin' });

      await floe.press('t');
      await floe.waitFor('All checks passed');
      await floe.press('q');
      await floe.waitFor('Profiles');
      await floe.press('q');
      expect(await floe.exit()).toBe(0);
      expect(existsSync(dir)).toBe(false);
    } finally {
      floe.kill('SIGHUP');
    }
  });
});
