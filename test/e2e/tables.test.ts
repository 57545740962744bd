// The tables screen on a real pseudo-terminal (built CLI, 80x24) over `floe sandbox --open`: home → b →
// the sandbox profile's tables as the background seeding writes them (R reads the list again) → a
// table's detail → its maintenance, whole lines to copy; then jobs → a job's detail → b → the tables
// of the job's streams.
import { describe, expect, it } from 'vitest';
import { startTerminal } from '../../scripts/lib/terminal.mjs';
import { tempConfigDir } from '../support/cli.js';

/** An address where no Secret Service answers: the sandbox's secrets go to its own 0600 file. */
const NO_KEYCHAIN = 'unix:path=/nonexistent/floe-test-bus';
const joined = (screen: string) => screen.replace(/\n/g, '');

describe('tables screen on a terminal', () => {
  it('home → tables → detail → maintenance, and jobs → a job’s tables', async () => {
    const floe = startTerminal({
      args: ['sandbox', '--open', '--jobs', '5'],
      env: { FLOE_CONFIG_DIR: tempConfigDir(), DBUS_SESSION_BUS_ADDRESS: NO_KEYCHAIN },
    });
    try {
      await floe.waitFor('Profiles');
      await floe.waitFor('b tables');
      await floe.press('b');
      await floe.waitFor('Tables of profile "sandbox"');
      await floe.waitFor('R reload');
      // The demo tables are written in the background (the 110-snapshot one takes a while): R reads
      // the list again until it has all six. (Looking right after R sees the list being read again.)
      for (let i = 0; i < 60; i++) {
        const all = await floe.waitFor('6 of 6 tables', { timeoutMs: 2000 }).then(
          () => true,
          () => false,
        );
        if (all) break;
        await floe.press('R');
      }
      await floe.waitFor('6 of 6 tables, by name');
      await floe.waitFor(/public\.sessions +\d+ h ago +330 +110 .* SMALL_FILES \+2$/m);
      await floe.press('/', 's', 'e', 's', 's', 'enter');
      await floe.waitFor('1 of 6 tables, by name, filter "sess"');
      await floe.press('enter');
      await floe.waitFor('Exact, from the manifests');
      await floe.waitFor(/Snapshots +110/);
      await floe.waitFor('m maintenance');
      await floe.press('m');
      await floe.waitFor('Maintenance to paste');
      await floe.waitFor((screen) =>
        joined(screen).includes("system.expire_snapshots(table => 'public.sessions'"),
      );
      // Wrapped at 80 columns, never cut: the statement copies whole.
      expect(floe.screen().join('\n')).not.toContain('…');
      await floe.press('esc');
      await floe.waitFor('Exact, from the manifests');
      await floe.press('esc');
      await floe.waitFor('1 of 6 tables');
      await floe.press('esc');
      await floe.waitFor('Profiles');

      await floe.press('j');
      await floe.waitFor(/floe jobs · project \S+ · 5 jobs/);
      await floe.press('enter');
      await floe.waitFor('b tables');
      await floe.press('b');
      await floe.waitFor('Tables of job');
      await floe.waitFor(/\d+ streams, (last run \d+ h ago|never ran); secrets of profile "sandbox"/);
      // Every sandbox job's first stream is public.orders, a seeded table; products is a stream
      // with no table yet: listed, never committed.
      await floe.waitFor(/public\.orders +\d+ h ago .* 2 problems$/m);
      await floe.waitFor(/public\.products +never/);
      await floe.press('esc');
      await floe.waitFor('Back from the tables of');
      await floe.press('q');
      await floe.waitFor('Profiles');
      await floe.press('q');
      expect(await floe.exit()).toBe(0);
      // No frame of these screens was wider than 80 columns (the sandbox's own lines before the home
      // screen are printed inline and may wrap).
      expect(floe.wrappedLines().filter((line) => /public\.|Tables of|CALL |ALTER TABLE/.test(line))).toEqual(
        [],
      );
    } finally {
      floe.kill('SIGHUP');
    }
  }, 240_000);
});
