// The command table and the usage text. Each command lives in its own module, imported only when
// it runs. The entry (main.ts) and the home screen both read it; it imports neither.

export interface CommandModule {
  run(argv: string[]): Promise<number>;
}

export const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
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
  completion: {
    summary: 'Print the shell completion script for bash, zsh or fish',
    load: () => import('../commands/completion.js'),
  },
};

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

/** The command `name` was probably meant to be (at most 2 edits away), if there is one. */
export function suggestCommand(name: string): string | undefined {
  const [best] = Object.keys(COMMANDS)
    .map((command) => ({ command, edits: distance(name.toLowerCase(), command) }))
    .filter(({ edits }) => edits <= 2)
    .sort((x, y) => x.edits - y.edits);
  return best?.command;
}

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
    'Short forms: -h for --help, -p NAME for --profile NAME',
    'Exit codes: 0 ok, 1 failure, 2 usage, 4 not logged in, 130 interrupted',
  ].join('\n');
}
