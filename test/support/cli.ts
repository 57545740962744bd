// Runs the built CLI (dist/, from `npm run build`) as a user would, without a TTY.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BIN = new URL('../../bin/floe.js', import.meta.url).pathname;

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'floe-cfg-'));
}

/** Spawns `floe ARGS` with a clean FLOE_* environment plus `env`; `input` goes to stdin. */
export function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): CliResult {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('FLOE_') || k.startsWith('FLOE_TEST')),
  );
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...base, CI: 'true', ...opts.env },
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface Run {
  code: number | null;
  /** The signal that ended the process, when one did. */
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * `floe ARGS` with exactly `env`, asynchronously, so that emulators in this process keep answering.
 * Killed after `timeoutMs`.
 */
export function spawnCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  input = '',
  timeoutMs = 60_000,
): Promise<Run> {
  return spawnFile(process.execPath, [BIN, ...args], env, input, timeoutMs);
}

/** `file ARGS` with exactly `env` (an installed floe, the single executable), like spawnCli. */
export function spawnFile(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  input = '',
  timeoutMs = 60_000,
  cwd?: string,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(input);
  });
}
