// Small line prompts for the login flow (outside Ink): a masked password prompt, a numbered choice and
// a yes/no question. Prompts go to stderr so stdout stays clean for data. Each reads keys with the
// app's key reader: every key of a chunk counts (typed ahead, or sent by a script), a bracketed paste
// adds its first line and never submits, and the keys after Enter stay in stdin for the next prompt
// or screen.
import { EXIT, FloeError } from '../errors.js';
import { createKeyReader, printable } from '../text/keys.js';
import { err, joined, line, type Shown, setMode, type Writer } from './output.js';

/** Backspace, a space over the character, backspace: one echoed character erased. */
const ERASE = line`\b \b`;

const cancelled = () => new FloeError('Cancelled.', undefined, EXIT.INTERRUPTED);

interface LineOptions {
  /** Shows each character as this one (secrets); else the text is echoed. */
  mask?: string;
  input?: NodeJS.ReadStream;
  output?: Writer;
}

/** Reads one line. Enter returns it; Ctrl+C or Ctrl+D cancels; Backspace and Ctrl+U edit. */
function readLine(
  question: Shown,
  { mask, input = process.stdin, output = err }: LineOptions = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const wasRaw = input.isRaw;
    const reader = createKeyReader();
    let value: string[] = [];
    const finish = (result: () => void, rest: string) => {
      input.off('data', onData);
      input.setRawMode?.(wasRaw);
      input.pause();
      if (rest) input.unshift(Buffer.from(rest));
      setMode('bracketedPasteOff', output);
      output``;
      result();
    };
    const type = (text: string) => {
      const typed = [...printable(text.split(/\r\n|\r|\n/)[0] ?? '')];
      value.push(...typed);
      output.put(line`${mask ? mask.repeat(typed.length) : typed.join('')}`);
    };
    const onData = (chunk: Buffer | string) => {
      const keys = reader.push(chunk.toString());
      for (const [i, key] of keys.entries()) {
        const rest = () =>
          keys
            .slice(i + 1)
            .map((k) => k.raw)
            .join('');
        if (key.name === 'return') return finish(() => resolve(value.join('')), rest());
        if (key.name === 'ctrl' && (key.text === 'c' || key.text === 'd'))
          return finish(() => reject(cancelled()), rest());
        if (key.name === 'backspace' && value.length > 0) {
          value = value.slice(0, -1);
          output.put(ERASE);
        } else if (key.name === 'ctrl' && key.text === 'u') {
          output.put(joined(Array(value.length).fill(ERASE), ''));
          value = [];
        } else if (key.name === 'char' || key.name === 'paste') type(key.text);
      }
    };
    output.put(question);
    setMode('bracketedPasteOn', output);
    input.setRawMode?.(true);
    input.on('data', onData);
    input.resume();
  });
}

/** Reads a password with echo replaced by "*". */
export function promptPassword(
  question: Shown,
  input: NodeJS.ReadStream = process.stdin,
  output: Writer = err,
): Promise<string> {
  return readLine(question, { mask: '*', input, output });
}

/** Asks for one of `choices` by number; returns its key. Empty input picks `defaultKey`. */
export async function promptChoice<K extends string>(
  question: Shown,
  choices: { key: K; label: string }[],
  defaultKey?: K,
  io: Omit<LineOptions, 'mask'> = {},
): Promise<K> {
  const output = io.output ?? err;
  output`${question}`;
  choices.forEach((c, i) => {
    output`  ${i + 1}) ${c.label}${c.key === defaultKey ? ' (default)' : ''}`;
  });
  for (;;) {
    const answer = (await readLine(line`Choose a number: `, io)).trim();
    if (answer === '' && defaultKey) return defaultKey;
    const choice = choices[Number(answer) - 1];
    if (choice) return choice.key;
    output`Type a number from 1 to ${choices.length}.`;
  }
}

/** A yes/no question; Enter gives `defaultYes`. */
export async function confirm(
  question: Shown,
  defaultYes = false,
  io: Omit<LineOptions, 'mask'> = {},
): Promise<boolean> {
  const answer = (await readLine(line`${question} ${defaultYes ? '[Y/n]' : '[y/N]'} `, io))
    .trim()
    .toLowerCase();
  return answer === '' ? defaultYes : answer.startsWith('y');
}
