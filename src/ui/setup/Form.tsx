import { Box } from 'ink';
import { sanitize } from '../../text/sanitize.js';
import { listWindow, truncate, wrappedRows } from '../components/layout.js';
import { type Line, lineAtEnd } from '../components/line.js';
import { Paragraph } from '../components/Paragraph.js';
import { Text } from '../components/Text.js';
import { TextInput } from '../components/TextInput.js';
import { isFileReference } from './json-file.js';
import { displayValue, type Row, type RowId } from './rows.js';

const MASK = '•';

interface FormProps {
  rows: Row[];
  values: Partial<Record<RowId, string | boolean>>;
  focus: number;
  errors: Partial<Record<RowId, string>>;
  /** Where a value came from when it is not the user's (`suggested`, `from FLOE_ACCESS_KEY, not saved`). */
  sources?: Partial<Record<RowId, string | undefined>>;
  /** Lines shown under the rows (notes, and why Enter was refused). */
  notes: string[];
  width: number;
  /** Rows of the terminal the form may use. */
  height: number;
  /** The focused text field's value and cursor (the screen edits it). */
  line?: Line;
}

function placeholder(row: Row): string {
  if (typeof row.defaultValue === 'string') return row.defaultValue;
  return row.type === 'json' ? '{"type":"service_account",…} or @/path/to/key.json' : '';
}

/** Rows of the terminal one form row takes: its line, the help of the focused one, its error. */
function rowHeight(row: Row, focused: boolean, error: string | undefined, width: number): number {
  return (
    1 + (focused ? wrappedRows(row.help, width - 4) : 0) + (error ? wrappedRows(`✗ ${error}`, width - 4) : 0)
  );
}

export function notesHeight(notes: readonly string[], width: number): number {
  return notes.reduce((sum, note) => sum + wrappedRows(note, width), notes.length > 0 ? 1 : 0);
}

/** The fields of one wizard screen, scrolled so the focused one shows; rendered from the registry rows. */
export function Form({ rows, values, focus, errors, sources = {}, notes, width, height, line }: FormProps) {
  const labelWidth = Math.min(Math.max(...rows.map((r) => r.label.length)) + 1, 28);
  const valueWidth = Math.max(width - labelWidth - 3, 10);
  const helpOf = (row: Row) => {
    const source = sources[row.id];
    if (!source) return row.help;
    if (source === 'suggested') return `Suggested by floe: type to replace it. ${row.help}`;
    return `${source[0]!.toUpperCase()}${source.slice(1)}: type to replace it, or keep it on the review. ${row.help}`;
  };
  const heights = rows.map((row, i) =>
    rowHeight({ ...row, help: helpOf(row) }, i === focus, errors[row.id], width),
  );
  const view = listWindow(heights, focus, Math.max(height - notesHeight(notes, width), 3));
  return (
    <Box flexDirection="column" width={width}>
      {view.hiddenAbove > 0 && <Text dimColor>{`  ↑ ${view.hiddenAbove} more`}</Text>}
      {rows.slice(view.start, view.end).map((row, offset) => {
        const i = view.start + offset;
        const focused = i === focus;
        const value = values[row.id] ?? '';
        const error = errors[row.id];
        const shown = sanitize(displayValue(row, value));
        return (
          <Box key={row.id} flexDirection="column" width={width}>
            <Box width={width}>
              <Text bold={focused} color={focused ? 'cyan' : undefined}>
                {focused ? '› ' : '  '}
                {`${row.label}${row.required ? '*' : ''}`.padEnd(labelWidth)}
              </Text>
              <Text> </Text>
              {focused && typeof value === 'string' ? (
                <Box width={valueWidth} height={1} overflow="hidden">
                  <TextInput
                    line={line?.value === value ? line : lineAtEnd(value)}
                    placeholder={placeholder(row)}
                    mask={row.secret && !(row.type === 'json' && isFileReference(value)) ? MASK : undefined}
                    width={valueWidth}
                  />
                </Box>
              ) : typeof value === 'boolean' ? (
                <Text>{`${value ? '[x]' : '[ ]'} ${shown}`}</Text>
              ) : shown && sources[row.id] ? (
                // The source goes after the value when both fit; else the value, dimmed, comes first.
                shown.length + sources[row.id]!.length + 3 <= valueWidth ? (
                  <Text>
                    {shown}
                    <Text dimColor>{` · ${sources[row.id]}`}</Text>
                  </Text>
                ) : (
                  <Text dimColor>{truncate(shown, valueWidth)}</Text>
                )
              ) : shown ? (
                <Text>{truncate(shown, valueWidth)}</Text>
              ) : (
                <Text dimColor>{row.required ? '(required)' : '(optional)'}</Text>
              )}
            </Box>
            {focused && (
              <Box paddingLeft={4} width={width}>
                <Paragraph dimColor text={helpOf(row)} width={width - 4} />
              </Box>
            )}
            {error && (
              <Box paddingLeft={4} width={width}>
                <Paragraph color="red" text={`✗ ${error}`} width={width - 4} />
              </Box>
            )}
          </Box>
        );
      })}
      {view.hiddenBelow > 0 && <Text dimColor>{`  ↓ ${view.hiddenBelow} more`}</Text>}
      {notes.length > 0 && (
        <Box flexDirection="column" marginTop={1} width={width}>
          {notes.map((note) => (
            <Paragraph key={note} text={note} width={width} />
          ))}
        </Box>
      )}
    </Box>
  );
}
