import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Keypress, parseKeys, printable } from '../../../src/text/keys.js';
import { editLine, type Line, lineAtEnd } from '../../../src/ui/components/line.js';

/** The line after every key of `input`, read as one chunk; `submitted` is true once Enter was read. */
function type(start: Line, input: string, breaks?: 'join'): { line: Line; submitted: boolean } {
  let line = start;
  let submitted = false;
  for (const key of parseKeys(input)) {
    const edit = editLine(line, key, { breaks });
    if (!edit) continue;
    line = edit.line;
    submitted ||= edit.submitted;
  }
  return { line, submitted };
}
const paste = (text: string): Keypress => parseKeys(`\u001b[200~${text}\u001b[201~`)[0] as Keypress;

describe('editLine', () => {
  it('appends typed text, drops the last character on Backspace, submits on Enter', () => {
    expect(type(lineAtEnd('ab'), 'c')).toEqual({ line: { value: 'abc', cursor: 3 }, submitted: false });
    expect(type(lineAtEnd('abc'), '\u007f').line.value).toBe('ab');
    expect(type(lineAtEnd('a😀'), '\u007f').line).toEqual({ value: 'a', cursor: 1 });
    expect(type(lineAtEnd('abc'), '\r')).toEqual({ line: { value: 'abc', cursor: 3 }, submitted: true });
  });

  it('acts on every key of a chunk: four Backspaces after "xyzq" leave the field as it was', () => {
    expect(type(lineAtEnd('url'), 'xyzq\u007f\u007f\u007f\u007f').line).toEqual({ value: 'url', cursor: 3 });
  });

  it('keeps the first line of a paste into a single-line field, and never submits it', () => {
    expect(editLine(lineAtEnd('x'), paste('secret\r\nmore'))).toEqual({
      line: { value: 'xsecret', cursor: 7 },
      submitted: false,
    });
  });

  it('joins the lines of a paste when asked, dropping its control characters', () => {
    expect(editLine(lineAtEnd(''), paste('{\n "a": 1\u001b[2J\n}'), { breaks: 'join' })).toEqual({
      line: { value: '{ "a": 1[2J}', cursor: 12 },
      submitted: false,
    });
  });

  it('moves the cursor and edits where it is; Delete removes the character under it', () => {
    let line = type(lineAtEnd('hllo'), '\u001b[D\u001b[D\u001b[De').line;
    expect(line).toEqual({ value: 'hello', cursor: 2 });
    line = type(line, '\u007f').line;
    expect(line).toEqual({ value: 'hllo', cursor: 1 });
    line = type(line, '\u001b[H\u007f').line;
    expect(line).toEqual({ value: 'hllo', cursor: 0 });
    line = type(line, '\u001b[3~').line;
    expect(line).toEqual({ value: 'llo', cursor: 0 });
    line = type(line, '\u001b[C').line;
    expect(line.cursor).toBe(1);
    expect(type(line, '\u001b[F\u001b[C').line).toEqual({ value: 'llo', cursor: 3 });
  });

  it('takes no Tab, ↑/↓, Esc, Ctrl-C or other Ctrl key', () => {
    for (const key of parseKeys('\t\u001b[A\u001b[B\u0003\u001b[Z\u0014'))
      expect(editLine(lineAtEnd('a'), key)).toBeUndefined();
  });

  it('takes the readline keys: Ctrl-A/E move, Ctrl-U/K/W delete, Ctrl-H is Backspace, all in one chunk', () => {
    const start = lineAtEnd('s3://lake olake');
    expect(type(start, '\u0017').line).toEqual({ value: 's3://lake ', cursor: 10 });
    expect(type(start, '\u0017\u0017').line).toEqual({ value: '', cursor: 0 });
    expect(type(start, '\u0001x').line).toEqual({ value: 'xs3://lake olake', cursor: 1 });
    expect(type(start, '\u0001\u0005!').line.value).toBe('s3://lake olake!');
    expect(type(start, '\u001b[D\u001b[D\u0015').line).toEqual({ value: 'ke', cursor: 0 });
    expect(type(start, '\u001b[D\u001b[D\u000b').line).toEqual({ value: 's3://lake ola', cursor: 13 });
    expect(type(start, '\u0008\u0008').line.value).toBe('s3://lake ola');
  });

  it('never keeps control characters and keeps the cursor inside the value', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(20), fc.string(), (text, cursor, input) => {
        const start = { value: printable(text), cursor: Math.min(cursor, [...printable(text)].length) };
        const { line } = type(start, input);
        expect(line.value).toBe(printable(line.value));
        expect(line.cursor).toBeGreaterThanOrEqual(0);
        expect(line.cursor).toBeLessThanOrEqual([...line.value].length);
      }),
    );
  });
});
