// The one rule for where screens draw: full-screen views (home, setup wizard, connection test, jobs
// browser) take the terminal's alternate screen and give the shell's screen back as it was; one-shot
// output (--help, --json, plain command output, the sandbox banner) stays inline. Screens that follow
// each other (home → setup → test → home) share one alternate screen, cleared for each.
import { out, setMode, type Writer } from '../../cli/output.js';

let depth = 0;
const restore = () => setMode('mainScreen');

/** Whether a full-screen view is up (so a one-line note would be drawn over, not kept). */
export function onFullScreen(): boolean {
  return depth > 0;
}

/**
 * Runs `screen` on the alternate screen (cleared first) when stdout is a terminal, and leaves it however
 * `screen` ends, also when the process exits on the way (Ctrl-C, a signal).
 */
export async function fullScreen<T>(screen: () => Promise<T>, stdout: Writer = out): Promise<T> {
  if (!stdout.isTTY) return screen();
  if (depth++ === 0) {
    setMode('alternateScreen', stdout);
    process.once('exit', restore);
  }
  setMode('clearScreen', stdout);
  try {
    return await screen();
  } finally {
    if (--depth === 0) {
      process.off('exit', restore);
      setMode('mainScreen', stdout);
    }
  }
}
