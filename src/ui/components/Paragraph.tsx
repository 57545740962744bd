// Prose wrapped between words by floe (wrapText), not by Ink: Ink's wrapping keeps the space before a
// word at the start of the next row when the previous word ends exactly at the edge. The rows are the
// ones `wrappedRows` counts for layout.

import { wrapText } from '../../check/text.js';
import { sanitize } from '../../text/sanitize.js';
import { Text, type TextProps } from './Text.js';

export function Paragraph({
  text,
  width,
  ...style
}: { text: string; width: number } & Pick<TextProps, 'color' | 'dimColor' | 'bold'>) {
  // The text's own line breaks show as ^J: the rows are floe's, from the wrapping.
  return (
    <Text multiline {...style}>
      {wrapText(sanitize(text), Math.max(width, 1)).join('\n')}
    </Text>
  );
}
