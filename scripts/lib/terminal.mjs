// A real terminal for end-to-end tests and screenshots: runs the built CLI (bin/floe.js → dist/)
// in a pseudo-terminal (node-pty) and feeds its output into an @xterm/headless terminal of the same
// size, so tests read the screen a user would see, and the screen can be written out as SVG.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import xterm from '@xterm/headless';

/**
 * node-pty is optional (only these tests need it, and `npm ci` must not fail where its build cannot
 * reach Node's headers): when it is missing, PTY_MISSING says why, and a terminal test asking for one
 * is skipped with that reason, or fails under CI=true.
 */
let pty;
let missing;
try {
  pty = createRequire(import.meta.url)('node-pty');
} catch (error) {
  missing = String(error instanceof Error ? error.message : error).split('\n')[0];
}
export const PTY_MISSING =
  missing &&
  `node-pty is not installed or not built (${missing}); run npm ci where it can build: python3, make, g++ and Node's headers (npm_config_nodedir, e.g. /usr where /usr/include/node is)`;
/** Vitest's current test, to skip (only looked up when node-pty is missing and vitest runs this). */
const suite = PTY_MISSING && process.env.VITEST ? await import('vitest/suite') : undefined;
let told = false;

function requirePty() {
  if (pty) return pty;
  const inCI = ['1', 'true'].includes((process.env.CI ?? '').toLowerCase());
  const test = inCI ? undefined : suite?.getCurrentTest();
  if (test) {
    if (!told)
      process.stderr.write(`floe tests: skipping the tests that need a pseudo-terminal: ${PTY_MISSING}\n`);
    told = true;
    test.context.skip(PTY_MISSING);
  }
  throw new Error(PTY_MISSING);
}

export const BIN = fileURLToPath(new URL('../../bin/floe.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Named keys for `press`; anything else is typed as literal text. */
export const KEYS = {
  enter: '\r',
  esc: '\u001B',
  tab: '\t',
  shiftTab: '\u001B[Z',
  up: '\u001B[A',
  down: '\u001B[B',
  left: '\u001B[D',
  right: '\u001B[C',
  space: ' ',
  backspace: '\u007F',
  ctrlC: '\u0003',
  pgup: '\u001B[5~',
  pgdn: '\u001B[6~',
};

/** Synchronized-output marks (DEC mode 2026) that Ink writes around each frame on a terminal. */
const SYNC_START = '\u001B[?2026h';
const SYNC_END = '\u001B[?2026l';

/**
 * How long `press` waits at most for the app to redraw after each key. Keys written back to back can
 * reach the app as one chunk, which it reads as text ("abc" + Enter is not Enter).
 */
const KEY_SETTLE_MS = 500;
/** How long the output must pause after a redraw before `press` sends the next key. */
const QUIET_MS = 40;
/** How long the output must pause for `settle`: a screen waiting on a server animates meanwhile. */
const SETTLE_QUIET_MS = 300;

/**
 * @typedef {object} TerminalOptions
 * @property {string[]} [args] arguments of `floe`
 * @property {string[]} [command] run this program and its arguments instead of `node bin/floe.js ARGS`
 * @property {Record<string, string>} [env] added to the environment (FLOE_*, CI and NODE_ENV are not
 *   inherited)
 * @property {number} [cols] default 80
 * @property {number} [rows] default 24
 * @property {boolean} [color] false sets NO_COLOR; default true (FORCE_COLOR=3)
 * @property {boolean} [keepFrames] keep the screen after each chunk of output, for `frames`
 */

/**
 * @typedef {object} Terminal
 * @property {number} pid the program's process id
 * @property {() => string[]} screen the visible lines, trailing spaces trimmed
 * @property {(expected: Expected, options?: { timeoutMs?: number }) => Promise<string[]>} waitFor
 *   resolves with the screen on the first parsed output after which it contains the text (or
 *   matches the pattern, or passes the test; each given the lines joined with "\n"); rejects with the
 *   current screen after `timeoutMs` (default 15 s) or when the program has exited without it
 * @property {(...keys: string[]) => Promise<void>} press sends keys (names of KEYS, else literal text)
 *   one write each; before each it waits for the output to settle (see `quiet`), after each for
 *   the app to redraw (at most KEY_SETTLE_MS)
 * @property {(capMs: number, quietMs?: number) => Promise<void>} settle resolves once the program has
 *   written and its output then paused for `quietMs` (default SETTLE_QUIET_MS), at most after `capMs`:
 *   what a screen loads has arrived
 * @property {(data: string) => void} write sends `data` as it is, at once, without waiting
 * @property {(...keys: string[]) => void} burst sends keys (names of KEYS, else literal text) as one
 *   write, at once, without waiting: how keys arrive over SSH, from a paste, tmux or a script
 * @property {(text: string) => void} paste sends `text` as one bracketed paste (ESC[200~ … ESC[201~)
 * @property {() => Promise<number>} exit resolves with the exit code (128 + n for a signal n)
 * @property {() => string} raw every byte the program wrote, escape sequences included
 * @property {() => string[]} wrappedLines lines of any frame so far that were wider than the terminal
 * @property {() => string[]} frames with `keepFrames`, the screen (lines joined with "\n") after each
 *   chunk of output so far; else none
 * @property {(options?: SvgOptions) => string} toSvg the screen as an SVG image
 * @property {(signal?: string) => void} kill sends `signal` (default SIGKILL) if the program still runs
 */

/** @typedef {string | RegExp | ((screen: string) => boolean)} Expected */

/**
 * @typedef {object} SvgOptions
 * @property {string} [title] an accessible title
 * @property {number} [fontSize] default 14
 * @property {boolean} [crop] leave out the blank rows at the bottom of the screen
 */

/**
 * Starts `node bin/floe.js ARGS` (or `command`) on a pseudo-terminal of `cols`×`rows`.
 * @param {TerminalOptions} [options]
 * @returns {Terminal}
 */
export function startTerminal({
  args = [],
  command,
  env = {},
  cols = 80,
  rows = 24,
  color = true,
  keepFrames = false,
  cwd = ROOT,
} = {}) {
  /** @type {Record<string, string>} */
  const base = {};
  for (const [key, value] of Object.entries(process.env))
    if (
      value !== undefined &&
      key !== 'CI' &&
      key !== 'NODE_ENV' &&
      key !== 'NO_COLOR' &&
      key !== 'FORCE_COLOR' &&
      !key.startsWith('FLOE_')
    )
      base[key] = value;
  const colorEnv = color ? { FORCE_COLOR: '3' } : { NO_COLOR: '1' };
  const [file, ...fileArgs] = command ?? [process.execPath, BIN, ...args];
  if (file === undefined) throw new Error('startTerminal: empty command');

  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
  const child = requirePty().spawn(file, fileArgs, {
    name: 'xterm-256color',
    cols,
    rows,
    cwd,
    env: { ...base, CI: 'false', TERM: 'xterm-256color', ...colorEnv, ...env },
  });

  let raw = '';
  let scanned = 0;
  let writes = 0;
  let frameStarts = 0;
  let frameEnds = 0;
  let lastOutputAt = 0;
  /** @type {Set<() => void>} */
  const listeners = new Set();
  /** @type {string[]} */
  const frames = [];
  child.onData((data) => {
    raw += data;
    let ends = 0;
    for (let at = raw.indexOf(SYNC_START, scanned); at !== -1; at = raw.indexOf(SYNC_START, at + 1))
      frameStarts++;
    for (let at = raw.indexOf(SYNC_END, scanned); at !== -1; at = raw.indexOf(SYNC_END, at + 1)) ends++;
    scanned = Math.max(scanned, raw.length - SYNC_END.length + 1);
    term.write(data, () => {
      writes++;
      lastOutputAt = performance.now();
      frameEnds += ends;
      noteWrapped();
      if (keepFrames) frames.push(screen().join('\n'));
      for (const listener of [...listeners]) listener();
    });
  });
  /** @type {string[]} */
  const wrapped = [];
  // A line longer than the terminal continues on the next row, which xterm marks as wrapped.
  const noteWrapped = () => {
    const buffer = term.buffer.active;
    for (let y = 1; y < term.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      if (!line?.isWrapped) continue;
      const text = `${buffer.getLine(buffer.viewportY + y - 1)?.translateToString(true)}${line.translateToString(true)}`;
      if (!wrapped.includes(text)) wrapped.push(text);
    }
  };
  let running = true;
  /** @type {Promise<number>} */
  const exited = new Promise((resolve) =>
    child.onExit(({ exitCode, signal }) =>
      // After the output already received is parsed, so that a last frame still counts.
      term.write('', () => {
        running = false;
        for (const listener of [...listeners]) listener();
        resolve(signal ? 128 + signal : exitCode);
      }),
    ),
  );

  const screen = () => {
    const buffer = term.buffer.active;
    return Array.from({ length: term.rows }, (_, y) =>
      (buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '').trimEnd(),
    );
  };

  /** @param {Expected} expected */
  const matches = (expected) => {
    const text = screen().join('\n');
    if (typeof expected === 'string') return text.includes(expected);
    return typeof expected === 'function' ? expected(text) : expected.test(text);
  };

  /**
   * Resolves when `ready()` is true after some output (or at exit), false after `timeoutMs`.
   * @param {() => boolean} ready
   * @param {number} timeoutMs
   * @returns {Promise<boolean>}
   */
  const until = (ready, timeoutMs) =>
    new Promise((resolve) => {
      if (ready()) return resolve(true);
      const check = () => {
        if (!ready() && running) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve(ready());
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        resolve(false);
      }, timeoutMs);
      listeners.add(check);
    });

  /**
   * Resolves once no output came for `quietMs` (at most `capMs`). Before a key (the defaults): Ink
   * attaches the key handlers of what it just drew (and turns raw mode on, for the first frame) in
   * React's passive effects, a few milliseconds after the frame is written; keys arriving before then
   * reach the previous screen's handlers, or the terminal driver (Ctrl-C as SIGINT).
   * @returns {Promise<void>}
   */
  const quiet = (quietMs = QUIET_MS, capMs = KEY_SETTLE_MS) =>
    new Promise((resolve) => {
      if (performance.now() - lastOutputAt >= quietMs) return resolve();
      const done = () => {
        listeners.delete(restart);
        clearTimeout(idle);
        clearTimeout(cap);
        resolve();
      };
      let idle = setTimeout(done, quietMs);
      const restart = () => {
        clearTimeout(idle);
        idle = setTimeout(done, quietMs);
      };
      const cap = setTimeout(done, capMs);
      listeners.add(restart);
    });

  return {
    pid: child.pid,
    screen,
    async waitFor(expected, { timeoutMs = 15_000 } = {}) {
      if (await until(() => matches(expected), timeoutMs)) return screen();
      const why = running ? `after ${timeoutMs} ms` : 'before the program exited';
      throw new Error(
        `the screen did not show ${String(expected)} ${why}; it shows:\n${screen().join('\n')}`,
      );
    },
    async press(...keys) {
      for (const key of keys) {
        await quiet();
        const writesBefore = writes;
        const framesBefore = frameStarts;
        child.write(KEYS[/** @type {keyof typeof KEYS} */ (key)] ?? key);
        // An Ink app wraps each frame in synchronized-output marks: wait for a frame begun after the
        // key to be complete. Other programs: wait for any output.
        const redrawn = frameStarts > 0 ? () => frameEnds > framesBefore : () => writes > writesBefore;
        await until(redrawn, KEY_SETTLE_MS);
      }
    },
    async settle(capMs, quietMs = SETTLE_QUIET_MS) {
      const started = performance.now();
      // A program that has drawn nothing yet is starting, not quiet: wait for its first output.
      await until(() => writes > 0, capMs);
      await quiet(quietMs, Math.max(0, capMs - (performance.now() - started)));
    },
    write: (data) => child.write(data),
    burst: (...keys) =>
      child.write(keys.map((key) => KEYS[/** @type {keyof typeof KEYS} */ (key)] ?? key).join('')),
    paste: (text) => child.write(`\u001b[200~${text}\u001b[201~`),
    exit: () => exited,
    raw: () => raw,
    wrappedLines: () => [...wrapped],
    frames: () => [...frames],
    toSvg: (options) => screenToSvg(term, options),
    kill(signal = 'SIGKILL') {
      if (running) child.kill(signal);
    },
  };
}

// ---- SVG -------------------------------------------------------------------------------------

/** A dark theme: background, foreground and the 16 ANSI colours (xterm.js's defaults, softened). */
const THEME = {
  background: '#1e1e2e',
  foreground: '#d9dce6',
  ansi: [
    '#2e3440',
    '#e06c75',
    '#98c379',
    '#e5c07b',
    '#61afef',
    '#c678dd',
    '#56b6c2',
    '#d9dce6',
    '#5c6370',
    '#ff7a85',
    '#b5e890',
    '#ffd580',
    '#7cc4ff',
    '#de9bf0',
    '#7fd8e3',
    '#ffffff',
  ],
};

/** @param {number} n 0-255 @returns {string} */
function paletteColor(n) {
  if (n < 16) return /** @type {string} */ (THEME.ansi[n]);
  if (n >= 232) {
    const level = (8 + (n - 232) * 10).toString(16).padStart(2, '0');
    return `#${level}${level}${level}`;
  }
  const i = n - 16;
  const step = (/** @type {number} */ v) => (v === 0 ? 0 : 55 + v * 40).toString(16).padStart(2, '0');
  return `#${step(Math.floor(i / 36))}${step(Math.floor(i / 6) % 6)}${step(i % 6)}`;
}

/** @param {number} rgb 0xRRGGBB @returns {string} */
const rgbColor = (rgb) => `#${rgb.toString(16).padStart(6, '0')}`;

/**
 * @param {import('@xterm/headless').IBufferCell} cell
 * @returns {{ fg: string, bg: string | null, bold: boolean, dim: boolean }}
 */
function cellStyle(cell) {
  let fg = cell.isFgDefault()
    ? THEME.foreground
    : cell.isFgRGB()
      ? rgbColor(cell.getFgColor())
      : paletteColor(cell.getFgColor());
  /** @type {string | null} */
  let bg = cell.isBgDefault()
    ? null
    : cell.isBgRGB()
      ? rgbColor(cell.getBgColor())
      : paletteColor(cell.getBgColor());
  if (cell.isInverse()) [fg, bg] = [bg ?? THEME.background, fg];
  return { fg, bg, bold: cell.isBold() !== 0, dim: cell.isDim() !== 0 };
}

/** @param {string} text */
const escapeXml = (text) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The terminal's visible screen as SVG: a background rect per coloured span, one `<text>` per span
 * of cells with the same style, each cell at a fixed width.
 * @param {import('@xterm/headless').Terminal} term
 * @param {SvgOptions} [options]
 * @returns {string}
 */
export function screenToSvg(term, { title, fontSize = 14, crop = false } = {}) {
  const buffer = term.buffer.active;
  let rows = term.rows;
  while (
    crop &&
    rows > 1 &&
    (buffer
      .getLine(buffer.viewportY + rows - 1)
      ?.translateToString(true)
      .trim() ?? '') === ''
  )
    rows--;
  const cellWidth = Math.round(fontSize * 0.6 * 100) / 100;
  const lineHeight = Math.round(fontSize * 1.25);
  const pad = 12;
  const width = Math.ceil(term.cols * cellWidth + 2 * pad);
  const height = rows * lineHeight + 2 * pad;
  const reusable = buffer.getNullCell();
  /** @type {string[]} */
  const rects = [];
  /** @type {string[]} */
  const texts = [];

  for (let y = 0; y < rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    if (!line) continue;
    const top = pad + y * lineHeight;
    const baseline = top + Math.round(lineHeight * 0.78);
    /** @type {{ x: number, cells: number, chars: string, key: string, style: ReturnType<typeof cellStyle> } | null} */
    let run = null;
    const flush = () => {
      if (!run) return;
      const { x, cells, chars, style } = run;
      const left = (pad + x * cellWidth).toFixed(2);
      const span = (cells * cellWidth).toFixed(2);
      if (style.bg)
        rects.push(
          `<rect x="${left}" y="${top}" width="${span}" height="${lineHeight}" fill="${style.bg}"/>`,
        );
      const text = chars.trimEnd();
      if (text !== '') {
        const textCells = cells - (chars.length - text.length);
        const attrs = [
          `x="${left}"`,
          `y="${baseline}"`,
          `textLength="${(textCells * cellWidth).toFixed(2)}"`,
          'lengthAdjust="spacingAndGlyphs"',
          `fill="${style.fg}"`,
          style.bold ? 'font-weight="bold"' : '',
          style.dim ? 'opacity="0.6"' : '',
        ].filter(Boolean);
        texts.push(`<text ${attrs.join(' ')}>${escapeXml(text)}</text>`);
      }
      run = null;
    };
    for (let x = 0; x < term.cols; x++) {
      const cell = line.getCell(x, reusable);
      if (!cell || cell.getWidth() === 0) continue;
      const style = cellStyle(cell);
      const key = `${style.fg}|${style.bg}|${style.bold}|${style.dim}`;
      const chars = cell.getChars() || ' ';
      if (run && run.key === key && run.x + run.cells === x) {
        run.cells += cell.getWidth();
        run.chars += chars;
      } else {
        flush();
        run = { x, cells: cell.getWidth(), chars, key, style };
      }
    }
    flush();
  }

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">`,
    title ? `<title>${escapeXml(title)}</title>` : '',
    `<rect width="100%" height="100%" rx="8" fill="${THEME.background}"/>`,
    ...rects,
    `<g font-family="'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="${fontSize}" xml:space="preserve" style="white-space: pre">`,
    ...texts,
    '</g>',
    '</svg>',
    '',
  ]
    .filter(Boolean)
    .join('\n');
}
