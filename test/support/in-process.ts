// `floe ARGS` run in this process (src/cli/main.ts's dispatch on a test Io, test/support/io.ts) instead of
// spawning the built CLI: the same command table, parse, run and error report, with stdout and stderr
// captured. Each call is a floe start of its own: a fresh context, so recover() tidies what an earlier
// (killed) run left, as the next floe to start would. What needs a real process stays spawned
// (test/support/cli.ts): signals, a TTY, pipes closing, the built bundle, the fault hook.
import { dispatch } from '../../src/cli/main.js';
import { testIo } from './io.js';

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  /** The whole environment the command sees (FLOE_CONFIG_DIR names its config folder). */
  env?: NodeJS.ProcessEnv;
  stdin?: string;
  /** 'real': keytar on this process's D-Bus (the process project's gnome-keyring); 'memory' by default. */
  keychain?: 'real' | 'memory' | 'unavailable';
}

export async function floeInProcess(argv: string[], options: InProcessOptions = {}): Promise<InProcessRun> {
  const io = testIo({ env: options.env, stdin: options.stdin, keychain: options.keychain });
  const code = await dispatch(argv, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}
