// 80-column manners: every command's --help fits 80 columns, wrapped between words (src/text/reflow.ts),
// with its layout kept: a description continues under its column, a paragraph flows as one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { reflow } from '../../src/text/reflow.js';
import { tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('help at 80 columns', () => {
  it.each([...Object.keys(COMMANDS), ''])('floe %s --help fits 80 columns', async (command) => {
    const r = await floeRun([...(command ? [command] : []), '--help'], {
      env: { FLOE_CONFIG_DIR: tempConfigDir() },
    });
    expect(r.status, r.stderr).toBe(0);
    for (const line of r.stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
  });

  it('keeps every word whole and in order, and lines within the width unless one word is longer', async () => {
    const word = fc.stringMatching(/^[a-z0-9.,:()"-]{1,30}$/);
    const line = fc.tuple(fc.nat(24), fc.array(word, { minLength: 1, maxLength: 30 }));
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 30, max: 120 }),
        (lines, width) => {
          const text = lines.map(([indent, ws]) => ' '.repeat(indent) + ws.join(' ')).join('\n');
          const out = reflow(text, width);
          expect(words(out)).toEqual(words(text));
          for (const l of out.split('\n')) if (l.length > width) expect(words(l)).toHaveLength(1);
        },
      ),
    );
  });

  it('continues a flag’s description under its column and joins a hand-wrapped paragraph', async () => {
    const text = [
      'Usage: floe thing [--alpha A] [--beta B] [--gamma G] [--delta D] [--epsilon E] [--zeta Z]',
      '',
      'A paragraph that was wrapped by hand at a hundred columns, as the old help texts were,',
      'continues here and ends.',
      'Flags:',
      '  --alpha A     the first flag, whose description is long enough to need a second line here',
      '  --help        this help',
    ].join('\n');
    expect(reflow(text, 60)).toBe(
      [
        'Usage: floe thing [--alpha A] [--beta B] [--gamma G]',
        '                  [--delta D] [--epsilon E] [--zeta Z]',
        '',
        'A paragraph that was wrapped by hand at a hundred columns,',
        'as the old help texts were, continues here and ends.',
        'Flags:',
        '  --alpha A     the first flag, whose description is long',
        '                enough to need a second line here',
        '  --help        this help',
      ].join('\n'),
    );
  });
});
