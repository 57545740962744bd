// Runs the built CLI (bin/floe.js → dist/) in a child process, asynchronously so that emulators in
// this process keep answering.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { folderKeychainService } from '../../src/secrets/namespace.js';
import { type Run, spawnCli } from '../support/cli.js';

export type { Run };

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
  return spawnCli(args, env, options.input);
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
