// Plain text layout helpers for screens that must fit a small terminal (80x24): one-line truncation,
// an estimate of how many rows wrapped text takes, and which slice of a list fits the rows available.

/** `text` cut to `width` characters, ending in `…` when it was longer. One line: line breaks become spaces. */
export function truncate(text: string, width: number): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ');
  const chars = Array.from(line);
  if (chars.length <= width) return line;
  if (width <= 1) return chars.slice(0, Math.max(width, 0)).join('');
  return `${chars.slice(0, width - 1).join('')}…`;
}

/** Rows `text` takes when word-wrapped at `width` columns (words longer than a row are broken). */
export function wrappedRows(text: string, width: number): number {
  if (width <= 0) return 1;
  let rows = 1;
  let used = 0;
  for (const word of text.split(' ')) {
    const length = Array.from(word).length;
    const needed = used === 0 ? length : used + 1 + length;
    if (needed <= width) {
      used = needed;
      continue;
    }
    if (used > 0) rows++;
    if (length <= width) used = length;
    else {
      rows += Math.ceil(length / width) - 1;
      used = length % width || width;
    }
  }
  return rows;
}

export interface ListWindow {
  start: number;
  /** Exclusive. */
  end: number;
  hiddenAbove: number;
  hiddenBelow: number;
}

/**
 * The slice of a list of items (each `heights[i]` rows tall) that fits in `budget` rows and shows
 * `focus`. When items are hidden, one row above and/or below is kept for a "… more" marker.
 */
export function listWindow(heights: readonly number[], focus: number, budget: number): ListWindow {
  const total = heights.reduce((a, b) => a + b, 0);
  if (total <= budget || heights.length === 0)
    return { start: 0, end: heights.length, hiddenAbove: 0, hiddenBelow: 0 };
  const at = Math.min(Math.max(focus, 0), heights.length - 1);
  let start = at;
  let end = at + 1;
  let used = heights[at]!;
  const room = (s: number, e: number) => budget - (s > 0 ? 1 : 0) - (e < heights.length ? 1 : 0);
  for (;;) {
    if (end < heights.length && used + heights[end]! <= room(start, end + 1)) {
      used += heights[end]!;
      end++;
    } else if (start > 0 && used + heights[start - 1]! <= room(start - 1, end)) {
      start--;
      used += heights[start]!;
    } else break;
  }
  return { start, end, hiddenAbove: start, hiddenBelow: heights.length - end };
}
