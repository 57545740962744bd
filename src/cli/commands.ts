// The command table: each command lives in its own module, imported only when it runs. Only the entry
// (main.ts) imports this file; names, summaries and the usage text are in usage.ts.
import { type CommandTable, SUMMARIES } from './usage.js';

export { type CommandModule, type CommandTable, suggestCommand, usage } from './usage.js';

export const COMMANDS: CommandTable = {
  setup: { summary: SUMMARIES.setup, load: () => import('../commands/setup.js') },
  test: { summary: SUMMARIES.test, load: () => import('../commands/test.js') },
  export: { summary: SUMMARIES.export, load: () => import('../commands/export.js') },
  import: { summary: SUMMARIES.import, load: () => import('../commands/import.js') },
  profiles: { summary: SUMMARIES.profiles, load: () => import('../commands/profiles.js') },
  login: { summary: SUMMARIES.login, load: () => import('../commands/login.js') },
  logout: { summary: SUMMARIES.logout, load: () => import('../commands/logout.js') },
  secrets: { summary: SUMMARIES.secrets, load: () => import('../commands/secrets.js') },
  jobs: { summary: SUMMARIES.jobs, load: () => import('../commands/jobs.js') },
  tables: { summary: SUMMARIES.tables, load: () => import('../commands/tables.js') },
  push: { summary: SUMMARIES.push, load: () => import('../commands/push.js') },
  destinations: { summary: SUMMARIES.destinations, load: () => import('../commands/destinations.js') },
  pull: { summary: SUMMARIES.pull, load: () => import('../commands/pull.js') },
  sandbox: { summary: SUMMARIES.sandbox, load: () => import('../commands/sandbox.js') },
  stack: { summary: SUMMARIES.stack, load: () => import('../commands/stack.js') },
  completion: {
    summary: SUMMARIES.completion,
    // The completion script lists the commands' flags: it gets this table instead of importing it.
    load: async () => {
      const completion = await import('../commands/completion.js');
      return { run: (argv: string[]) => completion.run(argv, COMMANDS) };
    },
  },
} satisfies Record<keyof typeof SUMMARIES, unknown>;
