// A one-line text field, drawn from a value and a cursor. It reads no keys: the screen that owns it
// applies each key to the latest line (editLine) in its one key handler, so keys that move the focus
// and keys that type are acted on in the order they arrive. While it has focus, the terminal is asked
// for bracketed paste, so a paste arrives as one `paste` key, never as keys.
import { useEffect } from 'react';
import { setMode } from '../../cli/output.js';
import { sanitize } from '../../text/sanitize.js';
import type { Line } from './line.js';
import { Text } from './Text.js';

export interface TextInputProps {
  /** The value and the cursor (code points). */
  line: Line;
  /** Shown dimmed while the value is empty. */
  placeholder?: string;
  /** Shows each character as this one (secrets). */
  mask?: string;
  /** Only a focused field shows its cursor. */
  focus?: boolean;
  /** Columns the field may use: the text scrolls so the cursor stays visible. */
  width?: number;
}

/** Without colour (NO_COLOR, mapped to FORCE_COLOR=0 by bin/floe.js) inverse video is not drawn either. */
function colourless(): boolean {
  return Boolean(process.env.NO_COLOR) || process.env.FORCE_COLOR === '0';
}

/** Asks the terminal for bracketed paste while `on` (a text field has focus). */
export function useBracketedPaste(on: boolean): void {
  useEffect(() => {
    if (!on) return;
    setMode('bracketedPasteOn');
    return () => setMode('bracketedPasteOff');
  }, [on]);
}

/** The text cursor on `char` (none: after the text); a glyph without colour, where inverse is not drawn. */
export function Cursor({ char }: { char?: string }) {
  if (!colourless()) return <Text inverse>{char ?? ' '}</Text>;
  return <Text>{char === undefined ? '█' : `▏${char}`}</Text>;
}

export function TextInput({ line, placeholder = '', mask, focus = true, width }: TextInputProps) {
  useBracketedPaste(focus);
  // A value can come from a file or the environment: a control character shows as ^X, never acts.
  const chars = [...line.value].map((char) => mask ?? sanitize(char));
  if (chars.length === 0)
    return focus ? (
      <Text>
        <Cursor char={placeholder ? [...placeholder][0] : undefined} />
        <Text dimColor>{[...placeholder].slice(1).join('')}</Text>
      </Text>
    ) : (
      <Text dimColor>{placeholder}</Text>
    );
  if (!focus) return <Text>{chars.join('')}</Text>;
  const cursor = Math.min(Math.max(line.cursor, 0), chars.length);
  const room = width === undefined ? undefined : colourless() ? width - 1 : width;
  const start = room === undefined ? 0 : Math.max(0, cursor - room + 1);
  const end = room === undefined ? chars.length : start + room;
  return (
    <Text>
      {chars.slice(start, cursor).join('')}
      <Cursor char={chars[cursor]} />
      {chars.slice(cursor + 1, end).join('')}
    </Text>
  );
}
