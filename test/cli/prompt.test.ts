// The password prompt reads every key of a chunk: typed ahead, pasted, or sent by a script.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { line, writerFor } from '../../src/cli/output.js';
import { confirm, promptChoice, promptPassword } from '../../src/cli/prompt.js';

function streams() {
  const input = new PassThrough();
  let written = '';
  const output = {
    isTTY: false,
    write: (s: string) => {
      written += s;
      return true;
    },
  };
  return {
    input: input as unknown as NodeJS.ReadStream,
    output: writerFor(output),
    written: () => written,
    rest: () => input.read()?.toString() ?? '',
  };
}

describe('promptPassword', () => {
  it('acts on every key of one chunk and leaves the keys after Enter for the next reader', async () => {
    const io = streams();
    const answer = promptPassword(line`Password: `, io.input, io.output);
    io.input.write('xyzq\u007f\u007f\u007f\u007fpa\u001b[Dss\rnext keys');
    await expect(answer).resolves.toBe('pass');
    expect(io.written()).not.toContain('pass');
    expect(io.rest()).toBe('next keys');
  });

  it('takes the first line of a bracketed paste without submitting it', async () => {
    const io = streams();
    const answer = promptPassword(line`Password: `, io.input, io.output);
    io.input.write('\u001b[200~s3cr3t\r\ntyped-after\u001b[201~');
    io.input.write('!\r');
    await expect(answer).resolves.toBe('s3cr3t!');
  });

  it('is cancelled by a Ctrl-C anywhere in a chunk', async () => {
    const io = streams();
    const answer = promptPassword(line`Password: `, io.input, io.output);
    io.input.write('abc\u0003def\r');
    await expect(answer).rejects.toThrow('Cancelled.');
  });
});

describe('promptChoice and confirm', () => {
  it('answer from one write, each taking its own line', async () => {
    const io = streams();
    io.input.write('x\r3\ry\rrest');
    const choice = await promptChoice(
      line`Where?`,
      [
        { key: 'a', label: 'A' },
        { key: 'b', label: 'B' },
        { key: 'c', label: 'C' },
      ],
      'a',
      io,
    );
    expect(choice).toBe('c');
    expect(io.written()).toContain('Type a number from 1 to 3.');
    await expect(confirm(line`Keep it?`, false, io)).resolves.toBe(true);
    expect(io.rest()).toBe('rest');
  });

  it('is cancelled by Ctrl-C', async () => {
    const io = streams();
    io.input.write('\u0003');
    await expect(confirm(line`Keep it?`, false, io)).rejects.toThrow('Cancelled.');
  });
});
