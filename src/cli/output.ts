// The one way floe writes to the terminal (screens draw through Ink's Text, ui/components/Text.tsx).
// Every line is built with a tagged template whose literal parts are floe's own and whose values are
// sanitized (src/text/sanitize.ts) unless they are already Shown: a job name, a log line or an error
// message cannot retitle the terminal, write the clipboard or forge a row, whichever command forgets
// what its values are. `--json` escapes what JSON.stringify leaves raw (C1, bidi, line separators).
// No other module touches process.stdout or process.stderr (test/cli/output-boundary.test.ts).
// A closed pipe ends the process quietly: `floe jobs | head -1` exits 0, as gh, git and coreutils do.
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from '../text/keys.js';
import { reflow } from '../text/reflow.js';
import { jsonSafe, sanitize } from '../text/sanitize.js';

/** Text that may be printed as it is: made only by `line`, `block` and `joined` below. */
class ShownText {
  constructor(readonly text: string) {}
}
export type Shown = ShownText;

/** What a template takes: text (sanitized, one line) or what is already Shown. */
export type Printable = Shown | string | number | bigint | boolean;

function piece(value: Printable): string {
  return value instanceof ShownText ? value.text : sanitize(String(value));
}

/** One line: each value is sanitized, a line break in it shown as ^J (a name cannot forge a row). */
export function line(strings: TemplateStringsArray, ...values: Printable[]): Shown {
  let text = strings[0] ?? '';
  values.forEach((value, i) => {
    text += piece(value) + (strings[i + 1] ?? '');
  });
  return new ShownText(text);
}

/** Text that may span lines (a log, a message): line breaks and tabs kept, every other control shown. */
export function block(text: string): Shown {
  return new ShownText(sanitize(text, { multiline: true }));
}

/** Shown parts joined with `separator` (floe's own). */
export function joined(parts: readonly Shown[], separator = '\n'): Shown {
  return new ShownText(parts.map((p) => p.text).join(separator));
}

type Stream = Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean; columns?: number };

export interface Writer {
  /** Writes one line (the template above) and a line break. */
  (strings: TemplateStringsArray, ...values: Printable[]): void;
  /** Writes `text` as it is, no line break added. */
  put(text: Shown): void;
  readonly isTTY: boolean;
  /** Columns of the terminal, when it is one. */
  readonly columns: number | undefined;
}

/**
 * On a terminal, each line wrapped at word boundaries to its width (a terminal would cut it mid-word),
 * continuing at the line's indent; a word longer than the width keeps its own line. Elsewhere, as is.
 */
function fitted(text: string, stream: Stream): string {
  const width = stream.isTTY ? stream.columns : undefined;
  if (!width || !text.split('\n').some((row) => [...row].length > width)) return text;
  return text
    .split('\n')
    .map((row) => (row.includes('\t') ? row : reflow(row, width)))
    .join('\n');
}

/** A Writer on `stream` (stdout and stderr below; prompts and tests give their own). */
export function writerFor(stream: Stream): Writer {
  const writer = (strings: TemplateStringsArray, ...values: Printable[]) => {
    stream.write(`${fitted(line(strings, ...values).text, stream)}\n`);
  };
  return Object.assign(writer, {
    put: (text: Shown) => {
      stream.write(text.text);
    },
    get isTTY() {
      return Boolean(stream.isTTY);
    },
    get columns() {
      return stream.columns;
    },
  }) as Writer;
}

export const out: Writer = writerFor(process.stdout);
export const err: Writer = writerFor(process.stderr);

/** JSON text floe serialized: what JSON.stringify leaves raw escaped, so the same value and inert. */
export function jsonText(text: string): Shown {
  return new ShownText(jsonSafe(text));
}

/** `value` as JSON on stdout, or on `writer` (one line when `indent` is 0). */
export function printJson(value: unknown, writer: Writer = out, indent = 2): void {
  writer.put(jsonText(`${JSON.stringify(value, null, indent)}\n`));
}

/** A command's --help on stdout, or on `writer`, wrapped at word boundaries to 80 columns. */
export function printHelp(text: string, writer: Writer = out): void {
  writer.put(block(`${reflow(text.trimEnd())}\n`));
}

/** The terminal modes floe itself sets; nothing else reaches a terminal unsanitized. */
const MODES = {
  alternateScreen: '\u001B[?1049h',
  mainScreen: '\u001B[?1049l',
  clearScreen: '\u001B[H\u001B[2J',
  bracketedPasteOn: BRACKETED_PASTE_ON,
  bracketedPasteOff: BRACKETED_PASTE_OFF,
} as const;

/** Sets one of floe's terminal modes on `writer`'s terminal (nothing when it is not one). */
export function setMode(mode: keyof typeof MODES, writer: Writer = out): void {
  if (writer.isTTY) writer.put(new ShownText(MODES[mode]));
}

/** True for the errors a write to a closed pipe (or a closed terminal) gives. */
export function isClosedPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

type Closable = Pick<NodeJS.WriteStream, 'on'>;

/**
 * Ends the process with status 0 once stdout or stderr is closed by its reader; any other write error
 * is reported as usual. `exit` is process.exit, replaced in tests.
 */
export function quietOnClosedPipes(
  streams: Closable[] = [process.stdout, process.stderr],
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  for (const stream of streams)
    stream.on('error', (error: unknown) => {
      if (isClosedPipe(error)) exit(0);
      else throw error;
    });
}
