// Issue 30, item 5: floe's own text is floe's own. Help with a line break is two rows (not "^J"), and
// a line printed on a terminal wraps between words at its width, never inside a word.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { line, writerFor } from '../../src/cli/output.js';
import { promptChoice } from '../../src/cli/prompt.js';
import { floe, tempDir } from './support.js';

function terminalWriter(columns: number) {
  let written = '';
  const writer = writerFor({
    isTTY: true,
    columns,
    write: (text: string) => {
      written += text;
      return true;
    },
  });
  return { writer, written: () => written };
}

describe("floe's own text", { timeout: 60_000 }, () => {
  it('shows a preset\'s help and pitfall as two rows on the first setup step, without "^J"', async () => {
    const t = floe(tempDir('floe-e2e-own-'), { args: ['setup'], color: false });
    const screen = await t.waitFor('› ● Generic REST catalog');
    expect(screen.join('\n')).not.toContain('^J');
    expect(screen).toContain('Any Iceberg REST catalog: the REST fixture, Gravitino, a self-hosted server');
    expect(screen).toContain(
      'The warehouse is whatever the server registers: usually an s3:// location here.',
    );
    t.kill();
  });

  it('wraps an inline line between words at the terminal width, keeping its indent', () => {
    const { writer, written } = terminalWriter(40);
    const path = join('/tmp', 'a-long-config-folder-name', 'secrets.json');
    writer`  2) In a plaintext file (${path}, mode 0600)`;
    const rows = written().trimEnd().split('\n');
    expect(rows.every((row) => row.length <= 40 || !row.trim().includes(' '))).toBe(true);
    expect(rows.some((row) => row.trim() === `(${path},`)).toBe(true);
    expect(rows.slice(1).every((row) => row.startsWith('  '))).toBe(true);
  });

  it('leaves lines as they are when the output is not a terminal', async () => {
    let written = '';
    const output = writerFor({
      isTTY: false,
      write: (text: string) => {
        written += text;
        return true;
      },
    });
    const long = 'word '.repeat(30).trim();
    output`${long}`;
    expect(written).toBe(`${long}\n`);
    // A prompt's choices are lines like any other: on a terminal they wrap between words.
    const { writer, written: prompted } = terminalWriter(30);
    const { PassThrough } = await import('node:stream');
    const input = new PassThrough();
    const answer = promptChoice(
      line`Where should floe keep it?`,
      [{ key: 'file', label: 'In a plaintext file (/home/someone/.config/floe/secrets.json, mode 0600)' }],
      'file',
      { input: input as unknown as NodeJS.ReadStream, output: writer },
    );
    input.write('\r');
    await expect(answer).resolves.toBe('file');
    expect(prompted()).toContain('\n  (/home/someone/.config/floe/secrets.json,\n');
  });
});
