// Entry point of the bundled CLI: dispatches argv to a command (table in commands.ts): its parse gives
// the Options, its run acts with the process's Io; errors become exit codes.
import { type Io, processIo } from './command-io.js';
import { COMMANDS, HOME, suggestCommand, usage } from './commands.js';
import { onSignal } from './interrupt.js';
import { EXIT, FloeError, UsageError } from './io.js';
import { block, quietOnClosedPipes } from './output.js';
import type { AnyCommand } from './usage.js';

declare const __FLOE_VERSION__: string;
export const VERSION = typeof __FLOE_VERSION__ === 'string' ? __FLOE_VERSION__ : '0.0.0-dev';

function report(error: unknown, { err, env }: Io): number {
  if (error instanceof UsageError) {
    for (const text of error.lines) err`floe: ${text}`;
    err`Run "floe ${error.command ? `${error.command} ` : ''}--help" for usage.`;
    return EXIT.USAGE;
  }
  if (error instanceof FloeError) {
    // Messages quote servers, files and the environment: printed sanitized, like all such text.
    // One line each: a line break a server, a file or argv put in a message shows as ^J, never as a row.
    err`floe: ${error.message}`;
    if (error.hint) err`${error.hint}`;
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  err`floe: unexpected error: ${message}`;
  if (env.FLOE_DEBUG && error instanceof Error) err`${block(error.stack ?? '')}`;
  return EXIT.FAILURE;
}

/** The command's parse, then its run; argv it refuses is its own to report too (refused). */
async function parseAndRun(module: AnyCommand, argv: string[], io: Io): Promise<number> {
  let options: unknown;
  try {
    options = module.parse(argv);
  } catch (error) {
    if (error instanceof UsageError) module.refused?.(argv, error, io);
    throw error;
  }
  return module.run(options, io);
}

/** argv to its command, run with `io`; errors reported on io.err; the exit code (tests call it in process). */
export async function dispatch(argv: string[], io: Io): Promise<number> {
  try {
    const [first, ...rest] = argv;
    if (first === '--help' || first === '-h' || first === 'help') {
      io.out`${block(usage())}`;
      return EXIT.OK;
    }
    if (first === '--version' || first === '-v') {
      io.out`floe ${VERSION}`;
      return EXIT.OK;
    }
    if (first === undefined || first.startsWith('-')) return await parseAndRun(await HOME.load(), argv, io);
    const command = COMMANDS[first as keyof typeof COMMANDS] as
      | (typeof COMMANDS)[keyof typeof COMMANDS]
      | undefined;
    if (!command) {
      const meant = suggestCommand(first);
      throw new UsageError([`unknown command "${first}"${meant ? `: did you mean "${meant}"?` : ''}`]);
    }
    // -h is --help for every command (none uses -h for anything else).
    const args = rest.map((arg) => (arg === '-h' ? '--help' : arg));
    return await parseAndRun(await command.load(), args, io);
  } catch (error) {
    return report(error, io);
  }
}

export async function main(argv: string[]): Promise<void> {
  quietOnClosedPipes();
  process.on('SIGINT', () => onSignal(EXIT.INTERRUPTED));
  process.on('SIGTERM', () => onSignal(143));
  process.exitCode = await dispatch(argv, processIo());
}
