import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitize, sanitizeDeep } from '../../src/text/sanitize.js';
import { expectInert, HOSTILE, HOSTILE_SHOWN } from '../support/hostile.js';

describe('sanitize', () => {
  it('makes every control sequence visible and inert, so nothing is dropped silently', () => {
    expect(sanitize('a\u001b]0;title\u0007b')).toBe('a^[]0;title^Gb');
    expect(sanitize('\u001b]52;c;Y3VybA==\u0007')).toBe('^[]52;c;Y3VybA==^G');
    expect(sanitize('x\u001b[2Jy')).toBe('x^[[2Jy');
    expect(sanitize('line\rover')).toBe('line^Mover');
    expect(sanitize('\u009b31m \u0090dcs\u009c')).toBe('^[[31m ^[Pdcs^[\\');
    expect(sanitize('del\u007f')).toBe('del^?');
    expect(sanitize('a\u202eb\u202cc \u2066d\u2069 \u200f')).toBe('a\ufffdb\ufffdc \ufffdd\ufffd \ufffd');
  });

  it('keeps line breaks and tabs only for a multi-line block, as one line break per CRLF', () => {
    expect(sanitize('one\ttwo\nthree')).toBe('one^Itwo^Jthree');
    expect(sanitize('one\ttwo\r\nthree\rx', { multiline: true })).toBe('one\ttwo\nthree^Mx');
  });

  it('leaves ordinary text alone, accents, CJK and emoji included', () => {
    for (const text of ['http://127.0.0.1:8181/api/catalog', 'Zürich 東京 🚀', ''])
      expect(sanitize(text)).toBe(text);
  });

  it('never lets a control, bidi or separator character through, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.boolean(), (text, multiline) => {
        const out = sanitize(text, { multiline });
        const allowed = multiline ? /[\n\t]/g : /$^/g;
        expect(out.replace(allowed, '')).not.toMatch(
          /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/,
        );
      }),
    );
    expect(sanitize(HOSTILE)).toContain(HOSTILE_SHOWN);
    expectInert(sanitize(HOSTILE));
  });

  it('sanitizes every string inside a response, leaving the rest as it is', () => {
    expect(sanitizeDeep({ id: 7, name: 'a\u001b[2J', tags: ['\u0007'], active: true, none: null })).toEqual({
      id: 7,
      name: 'a^[[2J',
      tags: ['^G'],
      active: true,
      none: null,
    });
  });

  it('sanitizes object keys too (a job’s advanced_settings are shown key=value)', () => {
    expect(sanitizeDeep({ advanced_settings: { 'max\u001b]0;pwned\u0007': 4 } })).toEqual({
      advanced_settings: { 'max^[]0;pwned^G': 4 },
    });
  });
});
