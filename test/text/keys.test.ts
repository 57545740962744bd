import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createKeyReader, type Keypress, parseKeys } from '../../src/text/keys.js';

const names = (keys: Keypress[]) => keys.map((k) => (k.name === 'char' ? k.text : `<${k.name}>`)).join('');

describe('the key reader', () => {
  it('reads every key of a chunk, in order', () => {
    expect(names(parseKeys('http://h:1\t'))).toBe('http://h:1<tab>');
    expect(names(parseKeys('xyzq\u007f\u007f\u007f\u007f'))).toBe(
      'xyzq<backspace><backspace><backspace><backspace>',
    );
    expect(names(parseKeys('tok\rnext'))).toBe('tok<return>next');
    expect(names(parseKeys('a\r\nb'))).toBe('a<return>b');
    expect(
      names(parseKeys('\u001b[A\u001b[B\u001b[C\u001b[D\u001bOA\u001b[H\u001b[F\u001b[5~\u001b[6~\u001b[3~')),
    ).toBe('<up><down><right><left><up><home><end><pageup><pagedown><delete>');
    expect(names(parseKeys('v\u0003'))).toBe('v<ctrl>');
    expect(parseKeys('\u0003')[0]).toMatchObject({ name: 'ctrl', text: 'c', ctrl: true });
  });

  it('reads Shift-Tab, modifiers, and Esc alone or before other keys', () => {
    expect(parseKeys('\u001b[Z')[0]).toMatchObject({ name: 'tab', shift: true });
    expect(parseKeys('\u001b[1;5C')[0]).toMatchObject({ name: 'right', ctrl: true, shift: false });
    expect(parseKeys('\u001b[1;2A')[0]).toMatchObject({ name: 'up', shift: true });
    expect(names(parseKeys('\u001b'))).toBe('<escape>');
    // floe binds no Alt keys: ESC before a letter or another sequence is Esc, then that key.
    expect(names(parseKeys('\u001bx'))).toBe('<escape>x');
    expect(names(parseKeys('\u001b\u001b[A\u001b'))).toBe('<escape><up><escape>');
  });

  it('reads a bracketed paste as one key, even across chunks, whatever it holds', () => {
    const reader = createKeyReader();
    expect(names(reader.push('a\u001b[200~line one\r'))).toBe('a');
    expect(reader.push('\u001b[Aline two\u0003')).toEqual([]);
    const keys = reader.push('\u001b[201~\t');
    expect(keys.map((k) => k.name)).toEqual(['paste', 'tab']);
    expect(keys[0]?.text).toBe('line one\r\u001b[Aline two\u0003');
  });

  it('gives back the bytes of every key, so keys can be handed on unchanged', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            'a',
            'é',
            '\u001b',
            '[',
            'O',
            '1',
            ';',
            '~',
            '\r',
            '\n',
            '\u007f',
            '\u0003',
            '\u0085',
          ),
        }),
        (data) => {
          const keys = parseKeys(data);
          expect(keys.map((k) => k.raw).join('')).toBe(data);
          for (const k of keys)
            if (k.name === 'char') expect(k.text).toMatch(/^[^\u0000-\u001f\u007f-\u009f]+$/u);
        },
      ),
    );
    expect(
      parseKeys('ab\u001b[Dc\r')
        .map((k) => k.raw)
        .join(''),
    ).toBe('ab\u001b[Dc\r');
  });
});
