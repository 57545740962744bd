// The app's one-line text editor: pure edits of a value and a cursor, fed one input chunk at a time.
// Callers keep the line outside React state (a ref, or a reducer read through a ref) and apply each chunk
// to the latest line, so keys typed ahead or pasted right after a frame are never lost.

export interface Line {
  value: string;
  /** Position in code points, 0..length. */
  cursor: number;
}

export interface LineKey {
  return: boolean;
  backspace: boolean;
  delete: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  home?: boolean;
  end?: boolean;
}

export interface LineOptions {
  /**
   * What a line break inside a typed or pasted chunk does: `submit` keeps what precedes it and submits;
   * `join` drops the break and keeps the rest (a pasted multi-line JSON document stays whole).
   */
  breaks?: 'submit' | 'join';
}

/** Typed text without control characters (a stray escape sequence, a tab, a line break). */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, '');
}

/** A line with the cursor after its last character. */
export function lineAtEnd(value: string): Line {
  return { value, cursor: [...value].length };
}

/**
 * The line after one input chunk. Enter submits; Backspace and Delete (terminals send the same byte for
 * the Backspace key) remove the character before the cursor; ←/→/Home/End move it; other text is inserted
 * at the cursor.
 */
export function editLine(
  line: Line,
  input: string,
  key: LineKey,
  options: LineOptions = {},
): { line: Line; submitted: boolean } {
  const chars = [...line.value];
  const cursor = Math.min(Math.max(line.cursor, 0), chars.length);
  const at = (next: number, value = chars) => ({
    line: { value: value.join(''), cursor: next },
    submitted: false,
  });
  if (key.return) return { line: { value: line.value, cursor }, submitted: true };
  if (key.backspace || key.delete) {
    if (cursor === 0) return at(0);
    return at(cursor - 1, [...chars.slice(0, cursor - 1), ...chars.slice(cursor)]);
  }
  if (key.leftArrow) return at(Math.max(0, cursor - 1));
  if (key.rightArrow) return at(Math.min(chars.length, cursor + 1));
  if (key.home) return at(0);
  if (key.end) return at(chars.length);
  const cut = options.breaks === 'join' ? -1 : input.search(/[\r\n]/);
  const typed = [...printable(cut < 0 ? input : input.slice(0, cut))];
  const value = [...chars.slice(0, cursor), ...typed, ...chars.slice(cursor)];
  return { line: { value: value.join(''), cursor: cursor + typed.length }, submitted: cut >= 0 };
}
