// A one-line text field. The value and cursor live in a ref that the key handler updates before calling
// onChange, so a key arriving before React re-renders (typing fast, keys sent back to back) edits the latest
// value instead of the one the last frame showed.
import { Text, useInput } from 'ink';
import { useReducer, useRef } from 'react';
import { editLine, type Line, lineAtEnd } from './line.js';

export interface TextInputProps {
  value: string;
  onChange(value: string): void;
  /** Called on Enter. */
  onSubmit?(value: string): void;
  /** Shown dimmed while the value is empty. */
  placeholder?: string;
  /** Shows each character as this one (secrets). */
  mask?: string;
  /** Only a focused field takes keys and shows its cursor. */
  focus?: boolean;
  /** Columns the field may use: the text scrolls so the cursor stays visible. */
  width?: number;
}

export function TextInput({
  value,
  onChange,
  onSubmit,
  placeholder = '',
  mask,
  focus = true,
  width,
}: TextInputProps) {
  const line = useRef<Line>(lineAtEnd(value));
  // Values this field sent to onChange that the parent has not rendered back yet.
  const sent = useRef<string[]>([]);
  const [, redraw] = useReducer((n: number) => n + 1, 0);

  const echoed = sent.current.indexOf(value);
  if (echoed >= 0) sent.current.splice(0, echoed + 1);
  else if (value !== line.current.value) {
    // The parent set another value (a reset, a loaded profile): take it, cursor at its end.
    line.current = lineAtEnd(value);
    sent.current = [];
  }

  useInput(
    (input, key) => {
      if (key.upArrow || key.downArrow || key.tab || key.escape || key.ctrl || key.meta) return;
      const { line: next, submitted } = editLine(line.current, input, key, { breaks: 'join' });
      if (submitted) return onSubmit?.(next.value);
      const changed = next.value !== line.current.value;
      line.current = next;
      if (!changed) return redraw();
      sent.current.push(next.value);
      onChange(next.value);
    },
    { isActive: focus },
  );

  const chars = [...line.current.value].map((char) => mask ?? char);
  if (chars.length === 0)
    return focus ? (
      <Text>
        <Text inverse>{placeholder.slice(0, 1) || ' '}</Text>
        <Text dimColor>{placeholder.slice(1)}</Text>
      </Text>
    ) : (
      <Text dimColor>{placeholder}</Text>
    );
  if (!focus) return <Text>{chars.join('')}</Text>;
  const cursor = line.current.cursor;
  const start = width === undefined ? 0 : Math.max(0, cursor - width + 1);
  const end = width === undefined ? chars.length : start + width;
  return (
    <Text>
      {chars.slice(start, cursor).join('')}
      <Text inverse>{chars[cursor] ?? ' '}</Text>
      {chars.slice(cursor + 1, end).join('')}
    </Text>
  );
}
