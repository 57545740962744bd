// `floe ARGS` run in this process (src/cli/main.ts's dispatch on a test Io, test/support/io.ts) instead of
// spawning the built CLI: the same command table, parse, run and error report, with stdout and stderr
// captured. Each call is a floe start of its own: a fresh context, so recover() tidies what an earlier
// (killed) run left, as the next floe to start would. What needs a real process stays spawned
// (test/support/cli.ts): signals, a TTY, pipes closing, the built bundle, the fault hook.
// A command that writes to the process's stdout or stderr instead of its Io fails the call: a spawned
// floe's output would have held that text, so a test reading io's alone would miss it.
import { dispatch } from '../../src/cli/main.js';
import type { CliResult } from './cli.js';
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

/** What was written to process.stdout/stderr while a call ran (calls may overlap: all of them see it). */
const running = new Set<string[]>();

function watch(stream: NodeJS.WriteStream, name: string): void {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    for (const stray of running) stray.push(`${name}: ${String(chunk)}`);
    return write(chunk, ...rest);
  }) as typeof stream.write;
}
watch(process.stdout, 'process.stdout');
watch(process.stderr, 'process.stderr');

/**
 * The keychain a floe spawned with `env` would reach: this process's Secret Service when `env` keeps its
 * D-Bus address, else none (a test names a bus that is not there to have no keychain).
 */
export function keychainOf(env: NodeJS.ProcessEnv): 'real' | 'unavailable' {
  return env.DBUS_SESSION_BUS_ADDRESS === process.env.DBUS_SESSION_BUS_ADDRESS ? 'real' : 'unavailable';
}

export async function floeInProcess(argv: string[], options: InProcessOptions = {}): Promise<InProcessRun> {
  const io = testIo({ env: options.env, stdin: options.stdin, keychain: options.keychain });
  const stray: string[] = [];
  running.add(stray);
  let code: number;
  try {
    code = await dispatch(argv, io);
  } finally {
    running.delete(stray);
  }
  if (stray.length > 0)
    throw new Error(
      `floe ${argv.join(' ')} wrote past its Io (a spawned floe prints this): ${stray.join('')}`,
    );
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

/**
 * runCli's run (test/support/cli.ts) in process: this process's environment without its FLOE_* (but
 * FLOE_TEST_*), CI set, plus `env`; `input` on stdin.
 */
export function floeRun(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string; keychain?: InProcessOptions['keychain'] } = {},
): Promise<CliResult> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('FLOE_') || k.startsWith('FLOE_TEST')),
  );
  return floeInProcess(args, {
    env: { ...base, CI: 'true', ...opts.env },
    stdin: opts.input,
    keychain: opts.keychain,
  }).then(({ code, stdout, stderr }) => ({ status: code, stdout, stderr }));
}
