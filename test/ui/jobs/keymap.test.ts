// The jobs browser's key tables (src/ui/jobs/keymap.ts): the handler, the footers and the help come from
// them, so a key bound twice on one screen would be shadowed without anyone seeing it.
import { describe, expect, it } from 'vitest';
import { footerOf, HELP_LINES, KEYMAP } from '../../../src/ui/jobs/keymap.js';

describe('the jobs browser key tables', () => {
  it.each(Object.entries(KEYMAP))('binds each key of the %s screen once', (_screen, table) => {
    const keys = table.flatMap((binding) => binding.keys);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });

  it('lists every bound key that has a help line once, and merges footer entries of one action', () => {
    expect(HELP_LINES.map(([keys]) => keys).filter((k, i, all) => all.indexOf(k) !== i)).toEqual([]);
    expect(footerOf('list', false)).toContainEqual(['n/p', 'actions']);
    expect(footerOf('list', true)).toContainEqual(['n/p/c', 'actions']);
    expect(footerOf('logs', false)).toContainEqual(['[/]', 'page']);
  });
});
