// Prose wraps between words with no row starting in a space, even where a word ends exactly at the edge
// (where Ink's own wrapping would start the next row with the space).
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { wrappedRows } from '../../../src/ui/components/layout.js';
import { Paragraph } from '../../../src/ui/components/Paragraph.js';

describe('Paragraph', () => {
  it('wraps at word boundaries, no row starting with a space, in the rows layout counts', () => {
    const text = 'one two three four five six seven eight nine ten';
    for (const width of [7, 9, 10, 13, 20]) {
      const { lastFrame, unmount } = render(<Paragraph text={text} width={width} />);
      const rows = (lastFrame() ?? '').split('\n');
      for (const row of rows) {
        expect(row.startsWith(' '), `width ${width}: "${row}"`).toBe(false);
        expect(row.length).toBeLessThanOrEqual(width);
      }
      expect(rows.join(' ')).toBe(text);
      expect(rows).toHaveLength(wrappedRows(text, width));
      unmount();
    }
  });
});
