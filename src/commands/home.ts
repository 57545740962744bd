// floe with no command: the home screen on a terminal (profiles and what can be done with them),
// else the profile list and the usage. The chosen action runs its command module after Ink unmounts,
// then the home screen comes back.

import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openContext } from '../cli/context.js';
import { canPrompt, EXIT, FloeError, UsageError } from '../cli/io.js';
import { block, err, out, type Writer } from '../cli/output.js';
import { type CommandModule, usage } from '../cli/usage.js';
import { configDir } from '../config/store.js';
import { holdKeys } from '../text/keys.js';
import type { HomeAction, HomeMessage } from '../ui/home/model.js';
import { exportedMessage, plainHome } from '../ui/home/model.js';
import { loadScreen } from '../ui/load.js';
import type { LoginOutcome } from '../ui/login/index.js';

type Command = 'setup' | 'test' | 'export' | 'jobs' | 'tables';

const COMMANDS: Record<Command, () => Promise<CommandModule>> = {
  setup: () => import('./setup.js'),
  test: () => import('./test.js'),
  export: () => import('./export.js'),
  jobs: () => import('./jobs.js'),
  tables: () => import('./tables.js'),
};

/** The command (and its arguments) an action runs; null for quit. */
export function commandFor(action: HomeAction): [Command, string[]] | null {
  switch (action.type) {
    case 'quit':
    case 'interrupt':
      return null;
    case 'edit':
    case 'new':
      return ['setup', ['--profile', action.name]];
    case 'test':
      return ['test', ['--profile', action.name]];
    case 'tables':
      return ['tables', ['--profile', action.name]];
    case 'export':
      return ['export', ['--profile', action.name, '--output', action.output]];
    case 'jobs':
    case 'login':
      return ['jobs', []];
  }
}

/**
 * Shows the home screen, runs what was chosen, and comes back with the same profile selected, until
 * the user quits (or presses Ctrl-C, here or in a command: exit 130). A command's explained failure
 * (not logged in, incomplete profile, no keychain) is printed (it stays on the shell's screen) and
 * the home screen comes back saying it; anything else ends floe.
 */
/** The config folder's exports/ (the default place of an export from a git work tree) is made 0700 on first use. */
function prepareExportFolder(output: string): void {
  const folder = dirname(output);
  if (folder === join(configDir(), 'exports') && !existsSync(folder))
    mkdirSync(folder, { recursive: true, mode: 0o700 });
}

export async function homeLoop(
  next: (selected: string | undefined, message?: HomeMessage) => Promise<HomeAction>,
  load: (command: Command) => Promise<CommandModule> = (command) => COMMANDS[command](),
  stderr: Writer = err,
  signIn: () => Promise<LoginOutcome> = async () => (await import('./login-screen.js')).signInOnScreen(),
): Promise<number> {
  let selected: string | undefined;
  let message: HomeMessage | undefined;
  for (;;) {
    const action = await next(selected, message);
    message = undefined;
    if ('name' in action) selected = action.name;
    const command = commandFor(action);
    if (!command) return action.type === 'interrupt' ? EXIT.INTERRUPTED : EXIT.OK;
    // Keys typed while the command starts wait for its screen, unchanged.
    holdKeys();
    try {
      if (action.type === 'export') prepareExportFolder(action.output);
      // l: the sign-in form first; Esc on it comes back here.
      if (action.type === 'login') {
        const outcome = await signIn();
        if (outcome === 'interrupt') return EXIT.INTERRUPTED;
        if (outcome === 'back') continue;
      }
      const code = await (await load(command[0])).run(command[1]);
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

export interface HomeOptions {
  /** The demo's sandbox facts (addresses, credentials, replaced ports, its log), shown on the home screen with s. */
  facts?: () => string;
}

export async function run(argv: string[], options: HomeOptions = {}): Promise<number> {
  if (argv.length > 0) throw new UsageError([`unknown flag "${argv[0]}"`]);
  const ctx = await openContext();
  if (!canPrompt()) {
    out`${block(plainHome(ctx))}\n\n${block(usage())}`;
    return EXIT.OK;
  }
  const { runHome } = await loadScreen(() => import('../ui/home/index.js'));
  return homeLoop((selected, message) => runHome(ctx, selected, message, options.facts));
}
