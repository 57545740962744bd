// A save killed (SIGKILL) at any point leaves config.json and the secrets it names consistent. Each save
// path (test/support/saves.ts) runs once under fault-at.mjs's snap mode, which keeps what a kill before
// each of its changes of the config folder or the keychain would leave; real SIGKILLs at every 16th of
// those points, the last and one past it check that the kept points are what a kill leaves. At every
// point, floe runs again (it tidies what the dead run left) and must show the state before the save or
// the one after it, whole: the config and every secret it names old, or all new, never a mix; no secret
// value but that state's in the secrets file or the keychain; no temp file and no lock left; `floe
// profiles` works.
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type Servers, saves, startServers, sweep } from '../support/saves.js';
import { itWithService } from '../support/services.js';

const it = itWithService(process.env.FLOE_TEST_KEYRING, 'the Secret Service (gnome-keyring)');

let servers: Servers;
const SAVES = saves(() => servers);
beforeAll(async () => {
  servers = await startServers();
});
afterAll(async () => {
  await servers?.first.close();
  await servers?.second.close();
});

describe('a save killed at any point (SIGKILL) leaves the config and its secrets consistent', () => {
  for (const [name, scenario] of Object.entries(SAVES))
    it(name, async () => {
      const { states, problems } = await sweep(scenario(), 'kill');
      expect(problems).toEqual([]);
      // Killed before the commit point, the save never happened; after it, it is whole: both were seen.
      expect(states).toContain('before');
      expect(states).toContain('after');
    }, 600_000);
});
