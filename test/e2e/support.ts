// Shared pieces of the real-terminal tests: a floe on an 80x24 pseudo-terminal (the built CLI, from
// `npm run build`) with a temporary config directory, ended after each test, and frame checks.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { startTerminal, type Terminal, type TerminalOptions } from '../../scripts/lib/terminal.mjs';

export type { Terminal };

const started: Terminal[] = [];
afterEach(() => {
  for (const terminal of started.splice(0)) terminal.kill();
});

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** `floe ARGS` (or `command`) on an 80x24 terminal with FLOE_CONFIG_DIR set; killed after the test. */
export function floe(configDir: string, options: TerminalOptions = {}): Terminal {
  const terminal = startTerminal({ ...options, env: { FLOE_CONFIG_DIR: configDir, ...options.env } });
  started.push(terminal);
  return terminal;
}

/**
 * No secret reached the screen or the output, and (for full-screen apps, `frames`) no line of any
 * frame was wider than the terminal. Plain line output (prompts, messages) may wrap like any text.
 */
export function expectCleanOutput(terminal: Terminal, secrets: string[], { frames = true } = {}): void {
  if (frames) expect(terminal.wrappedLines()).toEqual([]);
  for (const secret of secrets) {
    expect(terminal.raw()).not.toContain(secret);
    expect(terminal.screen().join('\n')).not.toContain(secret);
  }
}
