// Small line prompts for the login flow (outside Ink): a masked password prompt and a numbered choice.
// Prompts go to stderr so stdout stays clean for data.
import { createInterface } from 'node:readline/promises';
import { EXIT, FloeError } from '../cli/io.js';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, createKeyReader, printable } from '../text/keys.js';

const cancelled = () => new FloeError('Cancelled.', undefined, EXIT.INTERRUPTED);

/**
 * Reads a password with echo replaced by "*". Ctrl+C cancels; Backspace and Ctrl+U edit. Every key of a
 * chunk counts (typed ahead, or sent by a script); a bracketed paste adds its first line and never
 * submits; keys after Enter are left in `input` for whatever reads it next.
 */
export function promptPassword(
  question: string,
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const wasRaw = input.isRaw;
    const reader = createKeyReader();
    let value = '';
    const finish = (result: () => void, rest: string) => {
      input.off('data', onData);
      input.setRawMode?.(wasRaw);
      input.pause();
      if (rest) input.unshift(Buffer.from(rest));
      if (output.isTTY) output.write(BRACKETED_PASTE_OFF);
      output.write('\n');
      result();
    };
    const type = (text: string) => {
      const typed = printable(text.split(/\r\n|\r|\n/)[0] ?? '');
      value += typed;
      output.write('*'.repeat([...typed].length));
    };
    const onData = (chunk: Buffer | string) => {
      const keys = reader.push(chunk.toString());
      for (const [i, key] of keys.entries()) {
        const rest = () =>
          keys
            .slice(i + 1)
            .map((k) => k.raw)
            .join('');
        if (key.name === 'return') return finish(() => resolve(value), rest());
        if (key.name === 'ctrl' && (key.text === 'c' || key.text === 'd'))
          return finish(() => reject(cancelled()), rest());
        if (key.name === 'backspace' && value) {
          value = [...value].slice(0, -1).join('');
          output.write('\b \b');
        } else if (key.name === 'ctrl' && key.text === 'u') {
          output.write('\b \b'.repeat([...value].length));
          value = '';
        } else if (key.name === 'char' || key.name === 'paste') type(key.text);
      }
    };
    output.write(question);
    if (output.isTTY) output.write(BRACKETED_PASTE_ON);
    input.setRawMode?.(true);
    input.on('data', onData);
    input.resume();
  });
}

/** Asks for one of `choices` by number; returns its key. Empty input picks `defaultKey`. */
export async function promptChoice<K extends string>(
  question: string,
  choices: { key: K; label: string }[],
  defaultKey?: K,
): Promise<K> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const abort = new AbortController();
  rl.on('SIGINT', () => abort.abort());
  rl.on('close', () => abort.abort());
  try {
    process.stderr.write(`${question}\n`);
    choices.forEach((c, i) => {
      process.stderr.write(`  ${i + 1}) ${c.label}${c.key === defaultKey ? ' (default)' : ''}\n`);
    });
    for (;;) {
      const answer = (
        await rl.question('Choose a number: ', { signal: abort.signal }).catch(() => undefined)
      )?.trim();
      if (answer === undefined) throw cancelled();
      if (answer === '' && defaultKey) return defaultKey;
      const choice = choices[Number(answer) - 1];
      if (choice) return choice.key;
      process.stderr.write(`Type a number from 1 to ${choices.length}.\n`);
    }
  } finally {
    rl.close();
  }
}

/** A yes/no question; Enter gives `defaultYes`. */
export async function confirm(question: string, defaultYes = false): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const abort = new AbortController();
  rl.on('SIGINT', () => abort.abort());
  rl.on('close', () => abort.abort());
  try {
    const text = `${question} ${defaultYes ? '[Y/n]' : '[y/N]'} `;
    const answer = (await rl.question(text, { signal: abort.signal }).catch(() => undefined))
      ?.trim()
      .toLowerCase();
    if (answer === undefined) throw cancelled();
    return answer === '' ? defaultYes : answer.startsWith('y');
  } finally {
    rl.close();
  }
}
