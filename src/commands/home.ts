// floe with no command: the home screen on a terminal (profiles and what can be done with them),
// else the profile list and the usage. The chosen action runs its command (loaded from main's command
// table, cli/commands.ts, handed over) with its Options after Ink unmounts, then the home screen comes back.

import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Io } from '../cli/command-io.js';
import { floeCommand } from '../cli/invocation.js';
import { EXIT, FloeError, UsageError } from '../cli/io.js';
import { block, type Writer } from '../cli/output.js';
import { usage } from '../cli/usage.js';
import { configDir } from '../config/store.js';
import { holdKeys } from '../text/keys.js';
import type { HomeAction, HomeMessage } from '../ui/home/model.js';
import { exportedMessage, plainHome } from '../ui/home/model.js';
import { loadScreen } from '../ui/load.js';
import type { LoginOutcome } from '../ui/login/index.js';

/** The modules of the commands the home screen runs. */
interface HomeModules {
  setup: Pick<typeof import('./setup.js'), 'options' | 'run'>;
  test: Pick<typeof import('./test.js'), 'options' | 'run'>;
  export: Pick<typeof import('./export.js'), 'options' | 'run'>;
  jobs: Pick<typeof import('./jobs.js'), 'options' | 'run'>;
  tables: Pick<typeof import('./tables.js'), 'options' | 'run'>;
}

/** Those entries of the command table (cli/commands.ts, which main.ts hands over). */
export type HomeCommands = { [C in keyof HomeModules]: { load(): Promise<HomeModules[C]> } };

/** Runs what `action` chose, with its Options. */
async function runAction(
  commands: HomeCommands,
  action: Exclude<HomeAction, { type: 'quit' | 'interrupt' }>,
  io: Io,
): Promise<number> {
  switch (action.type) {
    case 'edit':
    case 'new': {
      const setup = await commands.setup.load();
      return setup.run(setup.options(action.name), io);
    }
    case 'test': {
      const test = await commands.test.load();
      return test.run(test.options(action.name), io);
    }
    case 'tables': {
      const tables = await commands.tables.load();
      return tables.run(tables.options(action.name), io);
    }
    case 'export': {
      const exported = await commands.export.load();
      return exported.run(exported.options(action.name, action.output), io);
    }
    case 'jobs':
    case 'login': {
      const jobs = await commands.jobs.load();
      return jobs.run(jobs.options(), io);
    }
  }
}

/**
 * Shows the home screen, runs what was chosen, and comes back with the same profile selected, until
 * the user quits (or presses Ctrl-C, here or in a command: exit 130). A command's explained failure
 * (not logged in, incomplete profile, no keychain) is printed (it stays on the shell's screen) and
 * the home screen comes back saying it; anything else ends floe.
 */
/** The config folder's exports/ (the default place of an export from a git work tree) is made 0700 on first use. */
function prepareExportFolder(output: string, env: NodeJS.ProcessEnv): void {
  const folder = dirname(output);
  if (folder === join(configDir(env), 'exports') && !existsSync(folder))
    mkdirSync(folder, { recursive: true, mode: 0o700 });
}

export async function homeLoop(
  next: (selected: string | undefined, message?: HomeMessage) => Promise<HomeAction>,
  commands: HomeCommands,
  io: Io,
  signIn: () => Promise<LoginOutcome> = async () => (await import('./login-screen.js')).signInOnScreen(io),
): Promise<number> {
  const stderr: Writer = io.err;
  let selected: string | undefined;
  let message: HomeMessage | undefined;
  for (;;) {
    const action = await next(selected, message);
    message = undefined;
    if ('name' in action) selected = action.name;
    if (action.type === 'quit' || action.type === 'interrupt')
      return action.type === 'interrupt' ? EXIT.INTERRUPTED : EXIT.OK;
    // Keys typed while the command starts wait for its screen, unchanged.
    holdKeys();
    try {
      if (action.type === 'export') prepareExportFolder(action.output, io.env);
      // l: the sign-in form first; Esc on it comes back here.
      if (action.type === 'login') {
        const outcome = await signIn();
        if (outcome === 'interrupt') return EXIT.INTERRUPTED;
        if (outcome === 'back') continue;
      }
      const code = await runAction(commands, action, io);
      if (code === EXIT.INTERRUPTED) return EXIT.INTERRUPTED;
      // The export's own line goes to the shell's screen, hidden until quit: the home screen says it.
      if (action.type === 'export' && code === EXIT.OK) message = exportedMessage(action.output);
    } catch (error) {
      if (!(error instanceof FloeError)) throw error;
      stderr`floe: ${error.message}`;
      if (error.hint) stderr`${error.hint}`;
      message = { ok: false, text: error.hint ? `${error.message} ${error.hint}` : error.message };
    }
  }
}

export interface Options {
  /** The demo's sandbox facts (addresses, credentials, replaced ports, its log), shown on the home screen with s. */
  facts?: () => string;
}

/** `floe` takes no flag but --help and --version (main.ts answers those). */
export function parse(argv: string[]): Options {
  if (argv.length > 0) throw new UsageError([`unknown flag "${argv[0]}"`]);
  return {};
}

export async function run(options: Options, io: Io, commands: HomeCommands): Promise<number> {
  const ctx = await io.openContext();
  if (!io.canPrompt()) {
    io.out`${block(plainHome(ctx))}\n\n${block(usage())}`;
    return EXIT.OK;
  }
  const { runHome } = await loadScreen(() => import('../ui/home/index.js'));
  return homeLoop(
    (selected, message) => runHome(ctx, floeCommand(io.env), selected, message, options.facts),
    commands,
    io,
  );
}
