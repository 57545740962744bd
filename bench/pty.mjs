// A pseudo-terminal for the benchmarks: runs a program under node-pty, feeds its output into an
// @xterm/headless terminal of the same size, and resolves `waitFor` on the first parsed write after
// which the screen matches, so a timing covers spawn/keystroke → frame on screen. It exposes the
// child's pid, for its peak RSS in /proc.
import xterm from '@xterm/headless';
import pty from 'node-pty';

export const KEYS = { enter: '\r', esc: '\u001B', backspace: '\u007F' };

/**
 * @param {string[]} command the program and its arguments
 * @param {{ env?: Record<string, string>, cwd?: string, cols?: number, rows?: number }} [options]
 */
export function startPty(command, { env = {}, cwd = process.cwd(), cols = 80, rows = 24 } = {}) {
  const [file, ...args] = command;
  if (file === undefined) throw new Error('startPty: empty command');
  /** @type {Record<string, string>} */
  const base = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !['CI', 'NO_COLOR', 'NODE_ENV'].includes(key) && !key.startsWith('FLOE_'))
      base[key] = value;
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  const child = pty.spawn(file, args, {
    name: 'xterm-256color',
    cols,
    rows,
    cwd,
    env: { ...base, TERM: 'xterm-256color', FORCE_COLOR: '3', ...env },
  });
  /** @type {Set<() => void>} */
  const listeners = new Set();
  let running = true;
  child.onData((data) =>
    term.write(data, () => {
      for (const listener of [...listeners]) listener();
    }),
  );
  const exited = new Promise((resolve) =>
    child.onExit(({ exitCode }) =>
      // After the output already received is parsed, so a last frame still counts.
      term.write('', () => {
        running = false;
        for (const listener of [...listeners]) listener();
        resolve(exitCode);
      }),
    ),
  );

  const screen = () => {
    const buffer = term.buffer.active;
    return Array.from({ length: term.rows }, (_, y) =>
      (buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '').trimEnd(),
    ).join('\n');
  };

  return {
    pid: child.pid,
    screen,
    /**
     * Resolves once the screen matches (a pattern, or a test of the screen's text); rejects with the
     * screen after `timeoutMs` or at exit.
     * @param {RegExp | ((screen: string) => boolean)} pattern
     */
    waitFor(pattern, timeoutMs = 15_000) {
      const matches =
        typeof pattern === 'function' ? pattern : (/** @type {string} */ text) => pattern.test(text);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (matches(screen())) finish();
          else if (!running) finish(new Error(`exited before showing ${pattern}:\n${screen()}`));
        };
        const finish = (/** @type {Error | undefined} */ error) => {
          listeners.delete(check);
          clearTimeout(timer);
          if (error) reject(error);
          else resolve(undefined);
        };
        const timer = setTimeout(
          () => finish(new Error(`no ${pattern} after ${timeoutMs} ms; the screen shows:\n${screen()}`)),
          timeoutMs,
        );
        listeners.add(check);
        check();
      });
    },
    /** @param {string} data */
    write: (data) => child.write(data),
    /** Ends the program (SIGKILL) and resolves when it has exited. */
    stop() {
      if (running) child.kill('SIGKILL');
      return exited;
    },
  };
}
