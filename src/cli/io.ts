// Shared CLI plumbing: exit codes, error types, argv parsing and stdin reads.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { closest } from './usage.js';

/** Exit codes, bad invocations (exit 2) and failures to explain to the user (exit 1 unless told otherwise). */
export { EXIT, FloeError, UsageError } from '../errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `parseArgs` that turns its errors into usage errors naming the command. Every command that takes
 * --profile also takes -p.
 */
export function parseCommandArgs<O extends Options>(
  command: string,
  argv: string[],
  options: O,
  allowPositionals = false,
) {
  const profile = options.profile;
  const withShort: O =
    profile && !profile.short ? { ...options, profile: { ...profile, short: 'p' } } : options;
  try {
    return parseArgs({ args: argv, options: withShort, allowPositionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const first = message.replace(/^TypeError \[[A-Z_]+\]: /, '').split('\n')[0] ?? message;
    const line = first.replace(/\. To specify a positional argument.*$/, '');
    // An unknown --flag close to a known one: name it (--profil → --profile).
    const unknown = /^Unknown option '--([^'=]+)'/.exec(line)?.[1];
    const meant = unknown === undefined ? undefined : closest(unknown, Object.keys(options));
    throw new UsageError([meant ? `${line}: did you mean --${meant}?` : line], command);
  }
}

/** Reads all of stdin (for --*-stdin flags), capped so a mistaken pipe cannot eat memory. */
export async function readStdin(
  what: string,
  maxBytes = 1024 * 1024,
  stdin: NodeJS.ReadStream = process.stdin,
): Promise<string> {
  if (stdin.isTTY)
    throw new UsageError([
      `${what}: stdin is a terminal; pipe the value in, e.g. printf %s "$VALUE" | floe …`,
    ]);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new UsageError([`${what}: more than ${maxBytes} bytes on stdin`]);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
