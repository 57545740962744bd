// Small line prompts for the login flow (outside Ink): a masked password prompt and a numbered choice.
// Prompts go to stderr so stdout stays clean for data.
import { createInterface } from 'node:readline/promises';
import { EXIT, FloeError } from '../cli/io.js';

const cancelled = () => new FloeError('Cancelled.', undefined, EXIT.INTERRUPTED);

/** Reads a password with echo replaced by "*". Ctrl+C cancels; Backspace and Ctrl+U edit. */
export function promptPassword(
  question: string,
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const wasRaw = input.isRaw;
    let value = '';
    const finish = (result: () => void) => {
      input.off('data', onData);
      input.setRawMode?.(wasRaw);
      input.pause();
      output.write('\n');
      result();
    };
    const onData = (chunk: Buffer | string) => {
      const text = chunk.toString();
      for (let i = 0; i < text.length; i++) {
        const ch = text[i] as string;
        if (ch === '\r' || ch === '\n') return finish(() => resolve(value));
        if (ch === '\u0003' || ch === '\u0004') return finish(() => reject(cancelled()));
        if (ch === '\u001b') return; // an arrow or function key: ignore the rest of the sequence
        if (ch === '\u007f' || ch === '\b') {
          if (value) {
            value = value.slice(0, -1);
            output.write('\b \b');
          }
        } else if (ch === '\u0015') {
          output.write('\b \b'.repeat(value.length));
          value = '';
        } else if (ch >= ' ') {
          value += ch;
          output.write('*');
        }
      }
    };
    output.write(question);
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
