// Text from the OLake UI (job and run names, log lines, messages, configs) is untrusted: everything floe
// prints or renders of it goes through serverText, which drops terminal control characters (ESC, CSI,
// BEL, …) so a log line cannot move the cursor, retitle the terminal or hide what follows.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function serverText(text: string): string {
  return text.replace(CONTROL, '');
}
