import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { commented, loadYaml, scalar, toYaml, type YamlValue } from '../../src/stack/yaml.js';

await loadYaml();

/** What the emitter promises: parsing its text gives the value back (JSON-normalised, so -0 is 0). */
function roundTrips(value: unknown): void {
  const text = toYaml(value as YamlValue);
  expect(parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
}

describe('toYaml', () => {
  it('round-trips any JSON value through a YAML parser', () => {
    fc.assert(fc.property(fc.jsonValue(), roundTrips), { numRuns: 500 });
  });

  it('round-trips strings full of YAML syntax, as map keys, values and list items', () => {
    const tricky = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'ab:#-?&*!|>\'"%@`{}[],\n \t$\\~.0xY'.split('')) }),
      fc.constantFrom(
        'yes',
        'No',
        'ON',
        'off',
        'y',
        'null',
        '~',
        'true',
        '0x1F',
        '0o17',
        '1e3',
        '.inf',
        '-.Inf',
        '.NaN',
        '12:30',
        '2024-01-01',
        '...',
        '---',
        '- a',
        '? a',
        'a: b',
        'a #b',
        '#a',
        '&a',
        '*a',
        '!a',
        '%a',
        '@a',
        '`a',
        '|',
        '>',
        '',
        ' a',
        'a ',
        'a\n',
        'a\n\n',
        '\na',
        'a\nb',
        'a\n b',
        ' a\nb',
        'a\nb\n',
        'a\r\nb',
      ),
    );
    fc.assert(
      fc.property(tricky, tricky, (key, value) => {
        roundTrips({ [key]: value, list: [value, [value], { [key]: [value] }] });
      }),
      { numRuns: 500 },
    );
  });

  it('keeps identifiers plain and quotes what YAML would read as something else', () => {
    expect(scalar('CATALOG_IO__IMPL')).toBe('CATALOG_IO__IMPL');
    expect(scalar('/mnt/config/source.json')).toBe('/mnt/config/source.json');
    for (const word of ['true', 'no', 'null', '5s', '8181', '-fsS', '$HOME', '{a}', 'a: b', 'http://x', ''])
      expect(scalar(word)).toBe(JSON.stringify(word));
  });

  it('writes multi-line text as a literal block, with or without its final newline', () => {
    expect(toYaml({ a: 'x\ny\n', b: ['p\n  q'] })).toBe('a: |\n  x\n  y\nb:\n  - |-\n    p\n      q\n');
  });

  it('writes comments above map entries and list items, and header lines', () => {
    const text = toYaml({ a: commented('one\ntwo', { b: 1 }), c: [commented('three', 'd')] }, ['head']);
    expect(text).toBe('# head\n# one\n# two\na:\n  b: 1\nc:\n  # three\n  - d\n');
    expect(parse(text)).toEqual({ a: { b: 1 }, c: ['d'] });
  });

  it('writes empty maps and lists in flow style and nested lists with dashes', () => {
    expect(toYaml({ m: {}, l: [], k: [[1, 2], []] })).toBe('m: {}\nl: []\nk:\n  - - 1\n    - 2\n  - []\n');
  });

  it('refuses numbers YAML cannot carry', () => {
    expect(() => toYaml({ a: Number.NaN })).toThrow(/NaN/);
  });
});
