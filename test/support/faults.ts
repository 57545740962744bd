// Runs the built CLI with a fault at its Nth change of the config folder or the keychain
// (fault-at.mjs, preloaded): a SIGKILL, or a full disk. The sweeps in test/config/crash.test.ts run a
// save with the fault at call 1, 2, 3, … until a run reaches its end untouched.
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, spawnFile } from './cli.js';

const HOOK = new URL('./fault-at.mjs', import.meta.url).pathname;

export interface Fault {
  mode: 'kill' | 'enospc';
  at: number;
}

/** fault-at.mjs's snap mode: keep, in `dir`, what a kill before each counted call would leave. */
export interface Snapshots {
  mode: 'snap';
  dir: string;
}

export interface FaultRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The call the fault hit ("kill at call 3: renameSync …"), or undefined when the run never got there. */
  hit: string | undefined;
}

/** The environment of a CLI run on `configDir`: no FLOE_* of the test's own, no colour. */
export function cliEnv(configDir: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('FLOE_') || key.startsWith('FLOE_TEST')),
  );
  Object.assign(env, { CI: 'true', NO_COLOR: '1', FLOE_CONFIG_DIR: configDir });
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** `floe ARGS` on `env` (cliEnv), with `fault` when given; asynchronous, so emulators here keep answering. */
export async function runFloe(
  args: string[],
  env: NodeJS.ProcessEnv,
  input = '',
  fault?: Fault | Snapshots,
): Promise<FaultRun> {
  const node = fault ? ['--import', HOOK] : [];
  const value = fault && (fault.mode === 'snap' ? `snap:${fault.dir}` : `${fault.mode}:${fault.at}`);
  const childEnv = value ? { ...env, FLOE_TEST_FAULT: value } : env;
  const run = await spawnFile(process.execPath, [...node, BIN, ...args], childEnv, input);
  return { ...run, signal: run.signal ?? null, hit: /^fault-at: (.*)$/m.exec(run.stderr)?.[1] };
}

/** A copy of the config folder `template`, in a new private folder. */
export function copyFolder(template: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'floe-fault-'));
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** What a killed or failed process may leave in the config folder: temp files and lock folders. */
export function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock'));
}
