// The app's one-line text editor: pure edits of a value and a cursor, one key at a time (keys.ts).
// Callers keep the line outside React state (a ref, or a reducer read through a ref) and apply each key
// to the latest line, so keys typed ahead or pasted right after a frame are never lost.
import { type Keypress, printable } from '../../text/keys.js';

export interface Line {
  value: string;
  /** Position in code points, 0..length. */
  cursor: number;
}

export interface LineOptions {
  /**
   * What a line break inside a paste does: `firstLine` keeps the first line only (a single-line field:
   * a pasted secret is never submitted half-typed, and what follows the break is dropped); `join` drops
   * the breaks and keeps every line (a pasted multi-line JSON document stays whole).
   */
  breaks?: 'firstLine' | 'join';
}

/** A line with the cursor after its last character. */
export function lineAtEnd(value: string): Line {
  return { value, cursor: [...value].length };
}

/**
 * What one key does to a line: Enter submits; Backspace (or Ctrl-H) removes the character before the
 * cursor, Delete the one under it; ←/→/Home/End (Ctrl-A/Ctrl-E) move it; Ctrl-U deletes up to the
 * cursor, Ctrl-K from it, Ctrl-W the word before it (as readline does); a character or a paste is
 * inserted at the cursor. Returns undefined for keys a line does not take (Tab, ↑/↓, Esc, Ctrl-C, …).
 */
export function editLine(
  line: Line,
  key: Keypress,
  options: LineOptions = {},
): { line: Line; submitted: boolean } | undefined {
  const chars = [...line.value];
  const cursor = Math.min(Math.max(line.cursor, 0), chars.length);
  const at = (next: number, value = chars) => ({
    line: { value: value.join(''), cursor: next },
    submitted: false,
  });
  switch (key.name) {
    case 'return':
      return { line: { value: line.value, cursor }, submitted: true };
    case 'backspace':
      return cursor === 0 ? at(0) : at(cursor - 1, [...chars.slice(0, cursor - 1), ...chars.slice(cursor)]);
    case 'delete':
      return at(cursor, [...chars.slice(0, cursor), ...chars.slice(cursor + 1)]);
    case 'left':
      return at(Math.max(0, cursor - 1));
    case 'right':
      return at(Math.min(chars.length, cursor + 1));
    case 'home':
      return at(0);
    case 'end':
      return at(chars.length);
    case 'ctrl':
      return readlineKey(key.text, chars, cursor, at);
    case 'char':
    case 'paste': {
      const text =
        key.name === 'paste' && options.breaks !== 'join'
          ? (key.text.split(/\r\n|\r|\n/)[0] ?? '')
          : key.text;
      const typed = [...printable(text)];
      return at(cursor + typed.length, [...chars.slice(0, cursor), ...typed, ...chars.slice(cursor)]);
    }
    default:
      return undefined;
  }
}

type Edit = { line: Line; submitted: boolean };

/** The readline control keys a one-line field takes; undefined for the others (Ctrl-C among them). */
function readlineKey(
  letter: string,
  chars: string[],
  cursor: number,
  at: (next: number, value?: string[]) => Edit,
): Edit | undefined {
  switch (letter) {
    case 'a':
      return at(0);
    case 'e':
      return at(chars.length);
    case 'h':
      return cursor === 0 ? at(0) : at(cursor - 1, [...chars.slice(0, cursor - 1), ...chars.slice(cursor)]);
    case 'u':
      return at(0, chars.slice(cursor));
    case 'k':
      return at(cursor, chars.slice(0, cursor));
    case 'w': {
      let start = cursor;
      while (start > 0 && /\s/.test(chars[start - 1]!)) start--;
      while (start > 0 && !/\s/.test(chars[start - 1]!)) start--;
      return at(start, [...chars.slice(0, start), ...chars.slice(cursor)]);
    }
    default:
      return undefined;
  }
}
