import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editLine, printable } from '../../../src/ui/jobs/line.js';

const none = { return: false, backspace: false, delete: false };

describe('editLine', () => {
  it('appends typed text, drops the last character on backspace, submits on Enter', () => {
    expect(editLine('ab', 'c', none)).toEqual({ value: 'abc', submitted: false });
    expect(editLine('abc', '', { ...none, backspace: true })).toEqual({ value: 'ab', submitted: false });
    expect(editLine('a😀', '', { ...none, delete: true })).toEqual({ value: 'a', submitted: false });
    expect(editLine('abc', '\r', { ...none, return: true })).toEqual({ value: 'abc', submitted: true });
  });

  it('submits a pasted chunk at its line break, dropping what follows', () => {
    expect(editLine('x', 'secret\r\nmore', none)).toEqual({ value: 'xsecret', submitted: true });
  });

  it('never keeps control characters', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (value, input) => {
        const result = editLine(printable(value), input, none);
        expect(result.value).toBe(printable(result.value));
        expect(result.value.startsWith(printable(value))).toBe(true);
      }),
    );
  });
});
