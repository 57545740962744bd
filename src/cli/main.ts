// Entry point of the bundled CLI. Each command lives in its own module, imported only when run.

import { sanitize } from '../text/sanitize.js';
import { onSignal } from './interrupt.js';
import { EXIT, FloeError, UsageError } from './io.js';

declare const __FLOE_VERSION__: string;
export const VERSION = typeof __FLOE_VERSION__ === 'string' ? __FLOE_VERSION__ : '0.0.0-dev';

export interface CommandModule {
  run(argv: string[]): Promise<number>;
}

const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  setup: {
    summary: 'Create or edit a destination profile (guided, or with flags)',
    load: () => import('../commands/setup.js'),
  },
  test: {
    summary: 'Test the REST catalog and the object store of a profile',
    load: () => import('../commands/test.js'),
  },
  export: {
    summary: "Write a profile as OLake's destination.json",
    load: () => import('../commands/export.js'),
  },
  import: {
    summary: 'Read an OLake destination.json into a profile',
    load: () => import('../commands/import.js'),
  },
  profiles: { summary: 'List, show or delete profiles', load: () => import('../commands/profiles.js') },
  login: { summary: 'Log in to the OLake UI (management API)', load: () => import('../commands/login.js') },
  logout: { summary: 'Forget the stored OLake UI session', load: () => import('../commands/logout.js') },
  jobs: { summary: 'Browse and act on the jobs of a project', load: () => import('../commands/jobs.js') },
  push: {
    summary: 'Create a profile as a destination in the OLake UI',
    load: () => import('../commands/push.js'),
  },
  destinations: {
    summary: 'List the OLake UI destinations and the jobs that use each',
    load: () => import('../commands/destinations.js'),
  },
  pull: {
    summary: 'Import an OLake UI destination into a profile',
    load: () => import('../commands/pull.js'),
  },
  sandbox: {
    summary: 'Run a local catalog, object store and OLake UI to try floe',
    load: () => import('../commands/sandbox.js'),
  },
  stack: {
    summary: 'Write a docker compose test stack for a profile',
    load: () => import('../commands/stack.js'),
  },
};

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    'floe: set up, test and operate OLake’s Iceberg REST-catalog destination',
    '',
    'Usage: floe [command] [flags]      (no command: the home screen)',
    '',
    'Commands:',
    ...lines,
    '',
    'Flags: --help (also after any command), --version',
    'Exit codes: 0 ok, 1 failure, 2 usage, 4 not logged in, 130 interrupted',
  ].join('\n');
}

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
      if (!command) throw new UsageError([`unknown command "${first}"`]);
      code = await (await command.load()).run(rest);
    }
  } catch (error) {
    code = report(error);
  }
  process.exitCode = code;
}
