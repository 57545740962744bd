// Types of terminal.mjs for the TypeScript tests (the JSDoc there documents the same shapes).
import type { Terminal as XTerm } from '@xterm/headless';

export declare const BIN: string;
/** Why node-pty cannot be loaded (a terminal test then skips, or fails under CI=true); undefined when it can. */
export declare const PTY_MISSING: string | undefined;
export declare const ROOT: string;
export declare const KEYS: Readonly<
  Record<
    | 'enter'
    | 'esc'
    | 'tab'
    | 'shiftTab'
    | 'up'
    | 'down'
    | 'left'
    | 'right'
    | 'space'
    | 'backspace'
    | 'ctrlC'
    | 'pgup'
    | 'pgdn',
    string
  >
>;

export interface TerminalOptions {
  /** Arguments of `floe`. */
  args?: string[];
  /** Run this program and its arguments instead of `node bin/floe.js ARGS`. */
  command?: string[];
  /** Added to the environment (FLOE_*, CI and NODE_ENV are not inherited). */
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  /** false sets NO_COLOR; default true (FORCE_COLOR=3). */
  color?: boolean;
  /** Keep the screen after each chunk of output, for `frames`. */
  keepFrames?: boolean;
  /** The working directory (default: the repository). */
  cwd?: string;
}

/** Text the screen contains, a pattern it matches or a test it passes (given the lines joined with "\n"). */
export type Expected = string | RegExp | ((screen: string) => boolean);

export interface SvgOptions {
  title?: string;
  fontSize?: number;
  /** Leave out the blank rows at the bottom of the screen. */
  crop?: boolean;
}

export interface Terminal {
  /** The program's process id. */
  readonly pid: number;
  /** The visible lines, trailing spaces trimmed. */
  screen(): string[];
  /**
   * Resolves with the screen on the first parsed output after which it shows what is expected; rejects
   * with the screen after `timeoutMs` (default 15 s) or when the program exited without it.
   */
  waitFor(expected: Expected, options?: { timeoutMs?: number }): Promise<string[]>;
  /** Sends keys (names of KEYS, else literal text), waiting for the app to redraw after each. */
  press(...keys: string[]): Promise<void>;
  /**
   * Resolves once the program has written and its output then paused for `quietMs` (default 300), at
   * most after `capMs`: what a screen loads has arrived (a screen waiting on a server animates meanwhile).
   */
  settle(capMs: number, quietMs?: number): Promise<void>;
  /** Sends `data` as it is, at once, without waiting. */
  write(data: string): void;
  /** Sends keys (names of KEYS, else literal text) as one write, at once, without waiting. */
  burst(...keys: string[]): void;
  /** Sends `text` as one bracketed paste (ESC[200~ … ESC[201~), without waiting. */
  paste(text: string): void;
  /** The exit code (128 + n for a signal n). */
  exit(): Promise<number>;
  /** Every byte the program wrote. */
  raw(): string;
  /** Lines of any frame so far that were wider than the terminal. */
  wrappedLines(): string[];
  /** With `keepFrames`, the screen (lines joined with "\n") after each chunk of output so far. */
  frames(): string[];
  toSvg(options?: SvgOptions): string;
  /** Sends `signal` (default SIGKILL) if the program still runs. */
  kill(signal?: string): void;
}

export declare function startTerminal(options?: TerminalOptions): Terminal;
export declare function screenToSvg(term: XTerm, options?: SvgOptions): string;
