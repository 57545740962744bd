// An Io for running a command in process (run(options, io)): stdout and stderr captured as strings,
// stdin from a string, a config folder of its own, a keychain in memory, a fixed clock, and prompts
// answered from a list (a prompt with no answer left fails the test).
import { Readable } from 'node:stream';
import { contextOpener } from '../../src/app/context.js';
import { type Io, type Prompter, promptable } from '../../src/cli/command-io.js';
import { writerFor } from '../../src/cli/output.js';
import { KeychainUnavailableError, type SecretBackend } from '../../src/secrets/store.js';
import { tempConfigDir } from './cli.js';

export interface TestIo extends Io {
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** The config folder (FLOE_CONFIG_DIR). */
  readonly dir: string;
  /** What the in-memory keychain holds, by account. */
  readonly keychain: Map<string, string>;
}

export interface TestIoOptions {
  /** Extra environment (FLOE_CONFIG_DIR is the Io's own folder unless given). */
  env?: NodeJS.ProcessEnv;
  /** Both ends are terminals (prompts and screens allowed unless CI is set in env). */
  tty?: boolean;
  columns?: number;
  stdin?: string;
  /**
   * 'unavailable': every keychain call fails as a missing Secret Service does. 'real': the vault's own
   * keychain backend (keytar on this process's D-Bus: the process project's gnome-keyring).
   */
  keychain?: 'memory' | 'unavailable' | 'real';
  /** Answers the prompts take, in order. */
  answers?: (string | boolean)[];
  now?: number;
}

function capture(tty: boolean, columns: number | undefined) {
  let text = '';
  const writer = writerFor({
    write: (chunk: string | Uint8Array) => {
      text += String(chunk);
      return true;
    },
    isTTY: tty,
    columns,
  });
  return { writer, text: () => text };
}

/** A keychain in `memory`; with `unavailableReason`, one that fails every call as a missing Secret Service does. */
export function memoryKeychain(memory: Map<string, string>, unavailableReason?: string): SecretBackend {
  const check = () => {
    if (unavailableReason !== undefined) throw new KeychainUnavailableError(unavailableReason);
  };
  return {
    kind: 'keychain',
    location: 'the OS keychain',
    get: async (account) => {
      check();
      return memory.get(account);
    },
    set: async (account, value) => {
      check();
      memory.set(account, value);
    },
    delete: async (account) => {
      check();
      return memory.delete(account);
    },
  };
}

export function testIo(options: TestIoOptions = {}): TestIo {
  const tty = options.tty ?? false;
  const stdout = capture(tty, options.columns);
  const stderr = capture(tty, options.columns);
  const dir = options.env?.FLOE_CONFIG_DIR ?? tempConfigDir();
  const env: NodeJS.ProcessEnv = { FLOE_CONFIG_DIR: dir, ...options.env };
  const keychain = new Map<string, string>();
  const answers = [...(options.answers ?? [])];
  const answer = (question: unknown) => {
    if (answers.length === 0) throw new Error(`a prompt with no answer given: ${String(question)}`);
    return answers.shift()!;
  };
  const prompter: Prompter = {
    password: async (question) => String(answer(question)),
    confirm: async (question) => Boolean(answer(question)),
    choice: async (question) => answer(question) as never,
  };
  const stdin = Object.assign(Readable.from([Buffer.from(options.stdin ?? '')]), {
    isTTY: tty,
  }) as unknown as NodeJS.ReadStream;
  return {
    out: stdout.writer,
    err: stderr.writer,
    stdin,
    env,
    openContext:
      options.keychain === 'real'
        ? contextOpener(env)
        : contextOpener(
            env,
            memoryKeychain(
              keychain,
              options.keychain === 'unavailable' ? 'no Secret Service in this test' : undefined,
            ),
          ),
    now: () => options.now ?? Date.parse('2026-01-02T03:04:05Z'),
    canPrompt: () => promptable(stdin, stdout.writer, env),
    prompter,
    stdout: stdout.text,
    stderr: stderr.text,
    dir,
    keychain,
  };
}
