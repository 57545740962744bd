// `floe sandbox --open` on a real pseudo-terminal (built CLI, 80x24): the home screen lists the ready
// profile, its connection test passes, and leaving the home screen stops the sandbox, removes its
// data and exits 0 — and the user's own config and keychain entries are exactly as before.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import keytar from 'keytar';
import { describe, expect, it } from 'vitest';
import { startTerminal } from '../../scripts/lib/terminal.mjs';
import { ConfigStore } from '../../src/config/store.js';
import { DEMO_KEYCHAIN_SERVICE } from '../../src/sandbox/demo.js';
import { keychainBackend } from '../../src/secrets/keychain.js';
import { folderKeychainService } from '../../src/secrets/namespace.js';
import { accounts } from '../../src/secrets/store.js';
import { sample } from '../fixtures/samples.js';
import { tempConfigDir } from '../support/cli.js';
import { itWithService } from '../support/services.js';

/** An address where no Secret Service answers, so the keychain is unusable. */
const NO_KEYCHAIN = 'unix:path=/nonexistent/floe-test-bus';

/** A user's own setup: a profile named like the sandbox's and an OLake UI login elsewhere. */
function usersOwnConfig(): { dir: string; before: string } {
  const dir = tempConfigDir();
  const store = new ConfigStore(dir);
  store.saveProfile('sandbox', sample('token'), 'keychain', ['token']);
  store.setManagement({
    url: 'http://127.0.0.1:8001',
    username: 'me',
    project: '7',
    secretStorage: 'keychain',
    rememberPassword: false,
  });
  return { dir, before: readFileSync(join(dir, 'config.json'), 'utf8') };
}

describe('floe sandbox --open on a terminal', () => {
  it('without a keychain: a ready profile whose test passes; on quit, the user config is as before', async () => {
    const user = usersOwnConfig();
    const floe = startTerminal({
      args: ['sandbox', '--open', '--jobs', '5', '--no-tables'],
      env: { FLOE_CONFIG_DIR: user.dir, DBUS_SESSION_BUS_ADDRESS: NO_KEYCHAIN },
    });
    try {
      await floe.waitFor('Profiles');
      await floe.waitFor('sandbox');
      const dir = /Data +removed when the sandbox stops, in\r?\n +(\S+)/.exec(floe.raw())?.[1] as string;
      expect(existsSync(dir)).toBe(true);
      expect(floe.raw()).toContain(
        'This run has its own config folder and keychain entries, removed when you quit',
      );
      expect(floe.raw()).toContain('! The OS keychain cannot be used: ');
      // Inline lines wrap between words at the terminal's width (cli/output.ts): read them as one text.
      expect(floe.raw().replace(/\s+/g, ' ')).toContain(
        "its secrets in this run's own file (mode 0600), removed on quit",
      );
      expect(floe.raw()).toContain('for this run only (FLOE_PASSWORD is');
      const store = new ConfigStore(join(dir, 'config'));
      expect(store.getProfile('sandbox')).toMatchObject({ secretStorage: 'file' });

      // Issue 19, item 8: the sandbox's facts are on the home screen (s), key by key and in one burst.
      await floe.press('s');
      await floe.waitFor('Its addresses and credentials');
      await floe.waitFor('REST catalog   http://127.0.0.1:');
      await floe.press('down', 'down', 'down', 'down', 'down', 'down', 'down', 'down', 'down', 'down');
      await floe.waitFor(/login +admin/);
      await floe.press('esc');
      await floe.waitFor('Profiles');
      floe.burst('s', 'x');
      await floe.waitFor('Profiles');
      expect(floe.screen().join('\n')).not.toContain('Its addresses and credentials');
      expect(store.getManagement()).toMatchObject({ secretStorage: 'env', username: 'admin' });

      await floe.press('t');
      await floe.waitFor('All checks passed');
      await floe.press('q');
      await floe.waitFor('Profiles');
      await floe.press('q');
      expect(await floe.exit()).toBe(0);
      expect(existsSync(dir)).toBe(false);
      expect(readFileSync(join(user.dir, 'config.json'), 'utf8')).toBe(user.before);
    } finally {
      floe.kill('SIGHUP');
    }
  });

  itWithService(process.env.FLOE_TEST_KEYRING, 'the Secret Service')(
    "with a keychain: entries under its own service, removed on quit; floe's own entries untouched",
    async () => {
      const user = usersOwnConfig();
      const own = keychainBackend(folderKeychainService(user.dir));
      const demo = keychainBackend(DEMO_KEYCHAIN_SERVICE);
      const token = accounts.profileSecret('sandbox', 'token');
      await own.set(token, 'users-own-token');
      /** Accounts of `service` for the sandbox profile's secret key or the OLake UI at `origin`. */
      const sandboxEntries = async (service: string, origin: string) =>
        (await keytar.findCredentials(service))
          .map((entry) => entry.account)
          .filter((account) => /^profile@\w+\/sandbox\/secretKey$/.test(account) || account.includes(origin))
          .sort();
      const floe = startTerminal({
        args: ['sandbox', '--open', '--jobs', '5', '--no-tables'],
        env: { FLOE_CONFIG_DIR: user.dir },
      });
      try {
        await floe.waitFor('Profiles');
        expect(floe.raw()).toContain('✓ Profile "sandbox" saved, its secrets in the OS keychain.');
        const olake = /OLake UI +(http:\/\/\S+)/.exec(floe.raw())?.[1] as string;
        const origin = new URL(olake).origin;
        const running = await sandboxEntries(DEMO_KEYCHAIN_SERVICE, origin);
        expect(running).toHaveLength(3);
        expect(running.filter((account) => account.startsWith('session@'))).toHaveLength(1);
        expect(await demo.get(running.find((a) => a.startsWith('session@'))!)).toContain('olake-session');
        await floe.press('q');
        expect(await floe.exit()).toBe(0);
        expect(await sandboxEntries(DEMO_KEYCHAIN_SERVICE, origin)).toEqual([]);
        expect(await sandboxEntries('floe', origin)).toEqual([]);
        expect(await own.get(token)).toBe('users-own-token');
        expect(readFileSync(join(user.dir, 'config.json'), 'utf8')).toBe(user.before);
      } finally {
        floe.kill('SIGHUP');
        await own.delete(token);
      }
    },
  );
});
