// Types of terminal.mjs for the TypeScript tests (the JSDoc there documents the same shapes).
import type { Terminal as XTerm } from '@xterm/headless';

export declare const BIN: string;
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
  /** Added to the environment (FLOE_* and CI are not inherited). */
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  /** false sets NO_COLOR; default true (FORCE_COLOR=3). */
  color?: boolean;
}

export interface SvgOptions {
  title?: string;
  fontSize?: number;
  /** Leave out the blank rows at the bottom of the screen. */
  crop?: boolean;
}

export interface Terminal {
  /** The visible lines, trailing spaces trimmed. */
  screen(): string[];
  /** Resolves with the screen once it contains the text (or matches the pattern); rejects with the screen. */
  waitFor(expected: string | RegExp, options?: { timeoutMs?: number }): Promise<string[]>;
  /** Sends keys (names of KEYS, else literal text), waiting for the app to redraw after each. */
  press(...keys: string[]): Promise<void>;
  /** The exit code (128 + n for a signal n). */
  exit(): Promise<number>;
  /** Every byte the program wrote. */
  raw(): string;
  /** Lines of any frame so far that were wider than the terminal. */
  wrappedLines(): string[];
  toSvg(options?: SvgOptions): string;
  kill(): void;
}

export declare function startTerminal(options?: TerminalOptions): Terminal;
export declare function screenToSvg(term: XTerm, options?: SvgOptions): string;
