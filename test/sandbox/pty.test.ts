// `floe sandbox --open` on a real pseudo-terminal (built CLI, 80x24) without a usable keychain: the
// home screen lists the ready profile, its connection test passes with the secrets this process set,
// and leaving the home screen stops the sandbox, removes its data and exits 0.
import { existsSync } from 'node:fs';
import xterm from '@xterm/headless';
import { spawn } from 'node-pty';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { tempConfigDir } from '../support/cli.js';

const BIN = new URL('../../bin/floe.js', import.meta.url).pathname;
/** An address where no Secret Service answers, so the keychain is unusable. */
const NO_KEYCHAIN = 'unix:path=/nonexistent/floe-test-bus';

function startFloe(args: string[], configDir: string) {
  const term = new xterm.Terminal({ cols: 80, rows: 24, allowProposedApi: true });
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('FLOE_') && k !== 'CI'),
  ) as Record<string, string>;
  const pty = spawn(process.execPath, [BIN, ...args], {
    cols: 80,
    rows: 24,
    env: {
      ...env,
      TERM: 'xterm-256color',
      FLOE_CONFIG_DIR: configDir,
      DBUS_SESSION_BUS_ADDRESS: NO_KEYCHAIN,
    },
  });
  let raw = '';
  const waiters: { test: () => boolean; resolve: () => void }[] = [];
  const screen = () =>
    Array.from({ length: term.rows }, (_, i) =>
      (term.buffer.active.getLine(term.buffer.active.viewportY + i)?.translateToString(true) ?? '').trimEnd(),
    ).join('\n');
  pty.onData((data) => {
    raw += data;
    term.write(data, () => {
      for (const w of [...waiters]) if (w.test()) waiters.splice(waiters.indexOf(w), 1) && w.resolve();
    });
  });
  const exited = new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
  return {
    screen,
    raw: () => raw,
    exited,
    kill: () => pty.kill(),
    write: (data: string) => pty.write(data),
    /** Resolves once the screen contains `text` (the test's timeout fails it otherwise). */
    waitFor: (text: string) =>
      new Promise<void>((resolve) => {
        const test = () => screen().includes(text);
        if (test()) resolve();
        else waiters.push({ test, resolve });
      }),
  };
}

describe('floe sandbox --open on a terminal', () => {
  it('opens home with a ready profile whose test passes, and stops everything on quit', async () => {
    const configDir = tempConfigDir();
    const floe = startFloe(['sandbox', '--open', '--jobs', '5'], configDir);
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

      floe.write('t');
      await floe.waitFor('All checks passed');
      floe.write('q');
      await floe.waitFor('Profiles');
      floe.write('q');
      expect(await floe.exited).toBe(0);
      expect(existsSync(dir)).toBe(false);
    } finally {
      floe.kill();
    }
  });
});
