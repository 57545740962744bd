// Issue 31, item 1: every command's parse(argv) runs alone, with no process, config or network, and
// refuses a flag it does not know with a usage error (exit 2) that names the flag.
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { parse as parseSandbox } from '../../src/commands/sandbox.js';
import { UsageError } from '../../src/errors.js';

const names = Object.keys(COMMANDS) as (keyof typeof COMMANDS)[];

function refusal(parse: () => unknown): UsageError {
  try {
    parse();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('parse accepted it');
}

describe('parse(argv) of every command in the table', () => {
  it.each(names)('%s: an unknown flag is a usage error naming it and the command', async (name) => {
    const module = await COMMANDS[name].load();
    const error = refusal(() => module.parse(['--no-such-flag']));
    expect(error.lines[0]).toContain("'--no-such-flag'");
    expect(error.command).toBe(name);
  });

  it.each(names)('%s: --help parses to Options that ask for the help', async (name) => {
    const module = await COMMANDS[name].load();
    expect(module.parse(['--help'])).toMatchObject({ help: true });
  });
});

describe('floe sandbox', () => {
  it('writes the demo tables unless --no-tables says not to', () => {
    expect(parseSandbox([]).tables).toBe(true);
    expect(parseSandbox(['--no-tables', '--jobs', '0']).tables).toBe(false);
  });
});
