// Text from the OLake UI (job and run names, log lines, messages, configs) is untrusted: everything floe
// prints or renders of it goes through the one sanitizer (src/text/sanitize.ts), keeping line breaks
// and tabs, so a log line cannot move the cursor, retitle the terminal or hide what follows.
import { sanitize } from '../text/sanitize.js';

export function serverText(text: string): string {
  return sanitize(text, { multiline: true });
}
