// Runs floe for the management, sandbox, tables and proxy tests: in this process by default
// (test/support/in-process.ts: dispatch on a test Io, so emulators in this process keep answering), or
// as the built CLI in a child process (floeSpawned) where a test needs a real process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { folderKeychainService } from '../../src/secrets/namespace.js';
import { type Run, spawnCli } from '../support/cli.js';
import { floeInProcess, type InProcessOptions, keychainOf } from '../support/in-process.js';

export type { Run };

export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'floe-mgmt-'));
}

export interface FloeOptions {
  configDir: string;
  input?: string;
  /** Added to this process's environment (FLOE_PASSWORD removed); undefined removes a variable. */
  env?: Record<string, string | undefined>;
  /**
   * In process: 'real' is the Secret Service on this process's D-Bus, 'unavailable' fails every keychain
   * call as a missing Secret Service does. By default what a spawned floe would reach: 'real' unless
   * `env` names another DBUS_SESSION_BUS_ADDRESS (a bus that is not there).
   */
  keychain?: InProcessOptions['keychain'];
}

function floeEnv(options: FloeOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FLOE_CONFIG_DIR: options.configDir, NO_COLOR: '1' };
  delete env.FLOE_PASSWORD;
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** `floe ARGS` in this process, with the environment floeSpawned gives the built CLI. */
export async function floe(args: string[], options: FloeOptions): Promise<Run> {
  const env = floeEnv(options);
  const { code, stdout, stderr } = await floeInProcess(args, {
    env,
    stdin: options.input,
    keychain: options.keychain ?? keychainOf(env),
  });
  return { code, stdout, stderr };
}

/** The built CLI in a child process: for what needs one (signals, exit 130, the bundle itself). */
export function floeSpawned(args: string[], options: Omit<FloeOptions, 'keychain'>): Promise<Run> {
  return spawnCli(args, floeEnv(options), options.input);
}

/** Accounts of config folder `configDir`'s keychain service, as `secret-tool search --all` lists them. */
export function keychainAccounts(configDir: string): string[] {
  const out = spawnSync('secret-tool', ['search', '--all', 'service', folderKeychainService(configDir)], {
    encoding: 'utf8',
    timeout: 5000,
  });
  return [...`${out.stdout}\n${out.stderr}`.matchAll(/^attribute\.account = (.*)$/gm)].map(
    (m) => m[1] as string,
  );
}

/** Fails when any of `secrets` shows up in a run's output. */
export function leaks(run: Run, secrets: string[]): string[] {
  return secrets.filter((s) => s && (run.stdout.includes(s) || run.stderr.includes(s)));
}
