// What a command's run(options, io) is given instead of reaching for the process (gh's IOStreams): the
// output streams (Writers of output.ts, still the one boundary), stdin, the environment, the context
// opener (config + vault), the clock and the line prompter. main.ts builds the process's one; tests
// build theirs (test/support/io.ts) and read what was written.

import type { Context } from '../app/context.js';
import { EXIT } from '../errors.js';
import type { SecretBackend } from '../secrets/store.js';
import { err, out, printHelp, type Shown, type Writer } from './output.js';

/** The line prompts (stderr), for commands outside a screen. */
export interface Prompter {
  password(question: Shown): Promise<string>;
  confirm(question: Shown, defaultYes?: boolean): Promise<boolean>;
  choice<K extends string>(question: Shown, choices: { key: K; label: string }[], defaultKey?: K): Promise<K>;
}

export interface Io {
  readonly out: Writer;
  readonly err: Writer;
  readonly stdin: NodeJS.ReadStream;
  readonly env: NodeJS.ProcessEnv;
  /** The config store and the vault, opened once per Io; the first call may give the keychain backend. */
  openContext(options?: { keychain?: SecretBackend }): Promise<Context>;
  /** Milliseconds since the epoch. */
  now(): number;
  /** A terminal on both ends and no CI: prompts and screens may be shown. */
  canPrompt(): boolean;
  readonly prompter: Prompter;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Prompting needs a TTY on both ends and no CI. */
export function promptable(
  stdin: { isTTY?: boolean },
  stdout: { isTTY: boolean },
  env: NodeJS.ProcessEnv,
): boolean {
  return Boolean(stdin.isTTY && stdout.isTTY) && !truthy(env.CI);
}

/** A command's --help on the Io's stdout; exit code 0. */
export function showHelp(text: string, io: Pick<Io, 'out'>): number {
  printHelp(text, io.out);
  return EXIT.OK;
}

/**
 * The process's Io: stdout, stderr, stdin, process.env, the process's context, the wall clock. The
 * context and the prompts are loaded when first used: the entry stays small (a command's chunk loads them).
 */
export function processIo(): Io {
  const prompts = () => import('./prompt.js');
  return {
    out,
    err,
    stdin: process.stdin,
    env: process.env,
    openContext: async (options) => (await import('../app/context.js')).openContext(options),
    now: Date.now,
    canPrompt: () => promptable(process.stdin, out, process.env),
    prompter: {
      password: async (question) => (await prompts()).promptPassword(question),
      confirm: async (question, defaultYes) => (await prompts()).confirm(question, defaultYes),
      choice: async (question, choices, defaultKey) =>
        (await prompts()).promptChoice(question, choices, defaultKey),
    },
  };
}
