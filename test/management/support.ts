// Runs the built CLI (bin/floe.js → dist/) in a child process, asynchronously so that emulators in
// this process keep answering.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(import.meta.dirname, '../../bin/floe.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'floe-mgmt-'));
}

export function floe(
  args: string[],
  options: { configDir: string; input?: string; env?: Record<string, string | undefined> },
): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, FLOE_CONFIG_DIR: options.configDir, NO_COLOR: '1' };
  delete env.FLOE_PASSWORD;
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Accounts of service "floe" in the Secret Service, as `secret-tool search --all` lists them. */
export function keychainAccounts(): string[] {
  const out = spawnSync('secret-tool', ['search', '--all', 'service', 'floe'], {
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
