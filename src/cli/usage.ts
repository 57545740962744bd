// The command names, their one-line summaries and the usage text, with no loaders: the home screen
// and any command may read it without importing the command modules (no import cycle).
import type { UsageError } from '../errors.js';
import type { Io } from './command-io.js';

/**
 * A command in gh's shape: `parse` turns argv into validated Options (a UsageError, exit 2, names the
 * flag), `run` acts on them with the Io it is given. Commands call each other's run with Options.
 */
export interface CommandModule<Options = never> {
  /** The --help text (completion reads its flags). */
  readonly HELP?: string;
  /** The words a command takes first (completion offers them). */
  readonly ACTIONS?: readonly string[];
  parse(argv: string[]): Options;
  run(options: Options, io: Io): Promise<number>;
  /** Told when parse refused argv (cobra's FlagErrorFunc): `floe test --json` still prints its document. */
  refused?(argv: string[], error: UsageError, io: Io): void;
}

/** A module as the table loads it, whatever its Options. */
// biome-ignore lint/suspicious/noExplicitAny: each command has its own Options; parse's feeds its run.
export type AnyCommand = CommandModule<any>;

export type CommandTable = Record<string, { summary: string; load: () => Promise<AnyCommand> }>;

export const SUMMARIES = {
  setup: 'Create or edit a destination profile (guided, or with flags)',
  test: 'Test the REST catalog and the object store of a profile',
  export: "Write a profile as OLake's destination.json",
  import: 'Read an OLake destination.json into a profile',
  profiles: 'List, show or delete profiles',
  login: 'Log in to the OLake UI (management API)',
  logout: 'Forget the stored OLake UI session',
  secrets: 'Say where secrets are kept, or move them (keychain or 0600 file)',
  jobs: 'Browse and act on the jobs of a project',
  tables: 'List the catalog’s tables: size, deletes, snapshots, health',
  push: 'Create a profile as a destination in the OLake UI',
  destinations: 'List the OLake UI destinations and the jobs that use each',
  pull: 'Import an OLake UI destination into a profile',
  sandbox: 'Run a local catalog, object store and OLake UI to try floe',
  stack: 'Write a docker compose test stack for a profile',
  completion: 'Print the shell completion script for bash, zsh or fish',
} as const;

export type CommandName = keyof typeof SUMMARIES;

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/** The one of `candidates` that `name` was probably meant to be (at most 2 edits away), if any. */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  const [best] = candidates
    .map((candidate) => ({ candidate, edits: distance(name.toLowerCase(), candidate) }))
    .filter(({ edits }) => edits <= 2)
    .sort((x, y) => x.edits - y.edits);
  return best?.candidate;
}

/** The command `name` was probably meant to be (at most 2 edits away), if there is one. */
export function suggestCommand(name: string): string | undefined {
  return closest(name, Object.keys(SUMMARIES));
}

export function usage(): string {
  const width = Math.max(...Object.keys(SUMMARIES).map((c) => c.length));
  const lines = Object.entries(SUMMARIES).map(([name, summary]) => `  ${name.padEnd(width)}  ${summary}`);
  return [
    'floe: set up, test and operate OLake’s Iceberg REST-catalog destination',
    '',
    'Usage: floe [command] [flags]      (no command: the home screen)',
    '',
    'Commands:',
    ...lines,
    '',
    'Flags: --help (also after any command), --version',
    'Short forms: -h for --help, -p NAME for --profile NAME',
    'Exit codes: 0 ok, 1 failure, 2 usage, 4 not logged in, 130 interrupted',
  ].join('\n');
}
