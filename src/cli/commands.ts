// The command table: each command lives in its own module, imported only when it runs. Only the entry
// (main.ts) imports this file; names, summaries and the usage text are in usage.ts. Help, completion
// and the home screen's keys read this one table: the commands that need it are handed it.
import { type CommandTable, SUMMARIES } from './usage.js';

export { type CommandModule, type CommandTable, suggestCommand, usage } from './usage.js';

export const COMMANDS = {
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
  sandbox: {
    summary: SUMMARIES.sandbox,
    // --open runs the home screen, which runs commands of this table.
    load: async () => {
      const sandbox = await import('../commands/sandbox.js');
      type Run = Parameters<typeof sandbox.run>;
      return {
        ...sandbox,
        run: (options: Run[0], io: Run[1]): Promise<number> => sandbox.run(options, io, COMMANDS),
      };
    },
  },
  stack: { summary: SUMMARIES.stack, load: () => import('../commands/stack.js') },
  completion: {
    summary: SUMMARIES.completion,
    // The completion script lists the commands' flags: it gets this table instead of importing it.
    load: async () => {
      const completion = await import('../commands/completion.js');
      type Run = Parameters<typeof completion.run>;
      return {
        ...completion,
        run: (options: Run[0], io: Run[1]): Promise<number> => completion.run(options, io, COMMANDS),
      };
    },
  },
} satisfies CommandTable & Record<keyof typeof SUMMARIES, unknown>;

/** `floe` with no command: the home screen, which runs commands of the table. */
export const HOME = {
  load: async () => {
    const home = await import('../commands/home.js');
    type Run = Parameters<typeof home.run>;
    return {
      ...home,
      run: (options: Run[0], io: Run[1]): Promise<number> => home.run(options, io, COMMANDS),
    };
  },
};
