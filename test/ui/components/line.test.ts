import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editLine, type LineKey, lineAtEnd, printable } from '../../../src/ui/components/line.js';

const none: LineKey = { return: false, backspace: false, delete: false };
const value = (text: string, input: string, key = none) => editLine(lineAtEnd(text), input, key);

describe('editLine', () => {
  it('appends typed text, drops the last character on backspace, submits on Enter', () => {
    expect(value('ab', 'c')).toEqual({ line: { value: 'abc', cursor: 3 }, submitted: false });
    expect(value('abc', '', { ...none, backspace: true }).line.value).toBe('ab');
    expect(value('a😀', '', { ...none, delete: true }).line).toEqual({ value: 'a', cursor: 1 });
    expect(value('abc', '\r', { ...none, return: true })).toEqual({
      line: { value: 'abc', cursor: 3 },
      submitted: true,
    });
  });

  it('submits a pasted chunk at its line break, dropping what follows', () => {
    expect(value('x', 'secret\r\nmore')).toEqual({ line: { value: 'xsecret', cursor: 7 }, submitted: true });
  });

  it('joins the lines of a pasted chunk when asked', () => {
    expect(editLine(lineAtEnd(''), '{\n "a": 1\n}', none, { breaks: 'join' })).toEqual({
      line: { value: '{ "a": 1}', cursor: 9 },
      submitted: false,
    });
  });

  it('moves the cursor and edits where it is', () => {
    let line = lineAtEnd('hllo');
    for (let i = 0; i < 3; i++) line = editLine(line, '', { ...none, leftArrow: true }).line;
    line = editLine(line, 'e', none).line;
    expect(line).toEqual({ value: 'hello', cursor: 2 });
    line = editLine(line, '', { ...none, backspace: true }).line;
    expect(line).toEqual({ value: 'hllo', cursor: 1 });
    line = editLine(line, '', { ...none, home: true }).line;
    expect(editLine(line, '', { ...none, backspace: true }).line).toEqual({ value: 'hllo', cursor: 0 });
    line = editLine(line, '', { ...none, rightArrow: true }).line;
    expect(line.cursor).toBe(1);
    line = editLine(line, '', { ...none, end: true }).line;
    expect(editLine(line, '', { ...none, rightArrow: true }).line).toEqual({ value: 'hllo', cursor: 4 });
  });

  it('never keeps control characters and keeps the cursor inside the value', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(20), fc.string(), (text, cursor, input) => {
        const start = { value: printable(text), cursor: Math.min(cursor, [...printable(text)].length) };
        const { line } = editLine(start, input, none);
        expect(line.value).toBe(printable(line.value));
        expect(line.cursor).toBeGreaterThanOrEqual(start.cursor);
        expect(line.cursor).toBeLessThanOrEqual([...line.value].length);
        expect([...line.value].slice(0, start.cursor).join('')).toBe(
          [...start.value].slice(0, start.cursor).join(''),
        );
      }),
    );
  });
});
