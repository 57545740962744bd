// Prose wrapped between words by floe (wrapText), not by Ink: Ink's wrapping keeps the space before a
// word at the start of the next row when the previous word ends exactly at the edge. The rows are the
// ones `wrappedRows` counts for layout.

import { wrapText } from '../../connection/text.js';
import { sanitize } from '../../text/sanitize.js';
import { Text, type TextProps } from './Text.js';

/**
 * The rows of `text` wrapped at `width`. Outside text's line breaks show as ^J (it cannot forge a row);
 * floe's `own` text (help, notes) keeps its line breaks as rows.
 */
export function paragraphRows(text: string, width: number, own = false): string[] {
  const lines = own ? text.split('\n') : [text];
  return lines.flatMap((line) => wrapText(sanitize(line), Math.max(width, 1)));
}

export function Paragraph({
  text,
  width,
  own = false,
  ...style
}: { text: string; width: number; own?: boolean } & Pick<TextProps, 'color' | 'dimColor' | 'bold'>) {
  return (
    <Text multiline {...style}>
      {paragraphRows(text, width, own).join('\n')}
    </Text>
  );
}
