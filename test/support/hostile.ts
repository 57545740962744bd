// Hostile text, as a compromised or malicious server (or a crafted destination.json) would send it,
// and the check that none of it can drive the terminal.
import { expect } from 'vitest';
import { HOSTILE_TEXT } from '../../src/sandbox/hostile.js';

/** A name or message as a hostile server sends it (see src/sandbox/hostile.ts). */
export const HOSTILE = `evil${HOSTILE_TEXT}`;

/** How HOSTILE shows once sanitized: every byte visible, nothing acting. */
export const HOSTILE_SHOWN = 'evil^[]0;pwned-title^G^[]52;c;';

/** The escape sequences floe and Ink write themselves: SGR styling, cursor moves, erases, modes. */
const OWN = /\u001b\[[0-9;?]*[mABCDGHJKhl]/g;

/** Fails if `raw` (what a terminal received) holds anything of HOSTILE that could act. */
export function expectInert(raw: string): void {
  for (const bad of ['\u001b]', '\u001b\\', '\u009b', '\u202e', '\u2066', '\u0007', '\rover', '\u001b[2J\r'])
    expect(raw, `terminal output holds ${JSON.stringify(bad)}`).not.toContain(bad);
  expect(raw.replace(OWN, '')).not.toContain('\u001b');
}
