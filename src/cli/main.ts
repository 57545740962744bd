// Entry point of the bundled CLI: dispatches argv to a command (table in commands.ts) and maps
// errors to exit codes.
import { sanitize } from '../text/sanitize.js';
import { COMMANDS, suggestCommand, usage } from './commands.js';
import { onSignal } from './interrupt.js';
import { EXIT, FloeError, UsageError } from './io.js';
import { quietOnClosedPipes } from './output.js';

declare const __FLOE_VERSION__: string;
export const VERSION = typeof __FLOE_VERSION__ === 'string' ? __FLOE_VERSION__ : '0.0.0-dev';

function report(error: unknown): number {
  if (error instanceof UsageError) {
    for (const line of error.lines) process.stderr.write(`floe: ${sanitize(line)}\n`);
    process.stderr.write(`Run "floe ${error.command ? `${error.command} ` : ''}--help" for usage.\n`);
    return EXIT.USAGE;
  }
  if (error instanceof FloeError) {
    // Messages quote servers, files and the environment: printed sanitized, like all such text.
    process.stderr.write(`floe: ${sanitize(error.message, { multiline: true })}\n`);
    if (error.hint) process.stderr.write(`${sanitize(error.hint, { multiline: true })}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`floe: unexpected error: ${sanitize(message, { multiline: true })}\n`);
  if (process.env.FLOE_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  return EXIT.FAILURE;
}

export async function main(argv: string[]): Promise<void> {
  quietOnClosedPipes();
  process.on('SIGINT', () => onSignal(EXIT.INTERRUPTED));
  process.on('SIGTERM', () => onSignal(143));
  let code: number;
  try {
    const [first, ...rest] = argv;
    if (first === '--help' || first === '-h' || first === 'help') {
      process.stdout.write(`${usage()}\n`);
      code = EXIT.OK;
    } else if (first === '--version' || first === '-v') {
      process.stdout.write(`floe ${VERSION}\n`);
      code = EXIT.OK;
    } else if (first === undefined || first.startsWith('-')) {
      code = await (await import('../commands/home.js')).run(argv);
    } else {
      const command = COMMANDS[first];
      if (!command) {
        const meant = suggestCommand(first);
        throw new UsageError([`unknown command "${first}"${meant ? `: did you mean "${meant}"?` : ''}`]);
      }
      // -h is --help for every command (none uses -h for anything else).
      code = await (await command.load()).run(rest.map((arg) => (arg === '-h' ? '--help' : arg)));
    }
  } catch (error) {
    code = report(error);
  }
  process.exitCode = code;
}
