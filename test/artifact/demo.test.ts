// Issue 28, item 2: the demo as a new user runs it, on every artifact (test/artifact/targets.ts: the
// built CLI, the npm package on each Node, the single file), in a real pseudo-terminal: `floe sandbox
// --open` → the connection test → `w` (the write check) passes → the sandbox's log (s) → jobs → a
// running job's logs → follow → quit: exit 0, and nothing printed but floe's own lines (leaving the demo
// used to print a 44,555 character minified source line and a stack trace, and exit 1). Never imports
// src/.
import { describe, expect } from 'vitest';
import { startTerminal } from '../../scripts/lib/terminal.mjs';
import { itWithService } from '../support/services.js';
import { expectOnlyFloeOutput, freePortBase, tempDir } from './support.js';
import { commandOf, type Target, targets, unavailable } from './targets.js';

/** What the terminal showed outside the full-screen views, without escape sequences. */
function inlineText(raw: string): string {
  return raw
    .replace(/\u001b\[\?1049h[\s\S]*?(?:\u001b\[\?1049l|$)/g, '\n')
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .replace(/\u001b[()][0-9A-Za-z]/g, '')
    .replace(/\r/g, '');
}

/**
 * The targets that seed the demo tables, as users start the demo: the built CLI and the single file
 * (Node 24 inside). The package runs the same dist/ as the built CLI, on Nodes those two cover, so it
 * starts with --no-tables: seeding costs each sandbox about 10 CPU-seconds.
 */
function seedsTables(target: Target): boolean {
  return target.kind !== 'package';
}

describe('the demo (floe sandbox --open) on a terminal', { timeout: 300_000 }, () => {
  for (const target of targets())
    itWithService(unavailable(target) ?? 'ready', target.name)(
      `${target.name}: test, write check, log, jobs, logs, follow, quit: exit 0, only floe's lines`,
      async () => {
        const command = await commandOf(target);
        const base = await freePortBase();
        const tables = seedsTables(target);
        const t = startTerminal({
          command: [
            ...command,
            'sandbox',
            '--open',
            '--jobs',
            '5',
            '--ports',
            String(base),
            ...(tables ? [] : ['--no-tables']),
          ],
          env: {
            FLOE_CONFIG_DIR: tempDir('floe-artifact-demo-'),
            DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-artifact-bus',
          },
          cols: 100,
          rows: 30,
        });
        try {
          await t.waitFor('Profiles', { timeoutMs: 60_000 });
          await t.waitFor('sandbox');

          await t.press('t');
          await t.waitFor('All checks passed', { timeoutMs: 60_000 });
          await t.press('w');
          const written = await t.waitFor(
            (screen) =>
              screen.includes('with write check') && /All checks passed|checks? failed/.test(screen),
            { timeoutMs: 90_000 },
          );
          const screen = written.join('\n');
          expect(screen).toMatch(/✓ Create a table/);
          expect(screen).toMatch(/✓ Commit an append/);
          expect(screen).toMatch(/✓ Read the record back/);
          expect(screen).toContain('✓ All checks passed');
          await t.press('q');
          await t.waitFor('Profiles');

          // The sandbox explains itself: its log is under its facts.
          await t.press('s');
          await t.waitFor('Its addresses and credentials');
          await t.press('\u001b[F'); // End: the newest lines
          // The newest lines: the catalog's requests, or the store's while the demo tables are being seeded.
          await t.waitFor(/(?:catalog|s3) +(?:POST|PUT|DELETE|GET) \/\S+ → \d{3}/);
          await t.press('esc');
          await t.waitFor('Profiles');

          await t.press('j');
          const list = await t.waitFor(/5 jobs · sort name/);
          const rows = list.filter((line) => /^[› ] \S/.test(line));
          const running = rows.findIndex((line) => line.includes('● running'));
          expect(running, list.join('\n')).toBeGreaterThanOrEqual(0);
          for (let i = 0; i < running; i++) await t.press('down');
          await t.press('enter');
          await t.waitFor(/Runs \(\d+\)/);
          await t.press('enter');
          await t.waitFor(/Run \S+ Running · \[ older/);
          await t.press('f');
          await t.waitFor('following (f stops)');
          await t.press('q');
          await t.waitFor('Profiles');
          await t.press('q');
          expect(await t.exit()).toBe(0);
        } finally {
          t.kill();
        }
        const inline = inlineText(t.raw());
        expectOnlyFloeOutput(inline, 'the demo');
        expect(inline).toContain(`REST catalog   http://127.0.0.1:${base}/api/catalog`);
        if (tables) expect(inline).toMatch(/^Tables +namespace public: the jobs' streams, written in the$/m);
        else expect(inline).not.toMatch(/^Tables /m);
        expect(inline).toContain('✓ All checks passed for profile "sandbox"');
        expect(inline.trimEnd()).toMatch(/Sandbox stopped; its temporary data was removed\.$/);
      },
    );
});
