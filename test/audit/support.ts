// The secret-leak audit's plumbing: the built CLI on a real 80x24 pseudo-terminal whose every screen
// is kept (scripts/lib/terminal.mjs), a record of everything
// a user or a log collector could see, and a search of it for secrets in their plain, URL-encoded and
// JSON-escaped forms.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startTerminal, type Terminal } from '../../scripts/lib/terminal.mjs';
import type { Run } from '../support/cli.js';

export type { Run };

/** Something a user or a log collector could see, by where it was seen. */
export interface Seen {
  where: string;
  text: string;
}

export interface Secret {
  name: string;
  value: string;
}

/** The environment of every run: this process's minus FLOE_* and CI, plus the audit's HOME and config. */
export function baseEnv(home: string, configDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('FLOE_') && key !== 'CI') env[key] = value;
  return { ...env, HOME: home, FLOE_CONFIG_DIR: configDir, NO_COLOR: '1' };
}

/**
 * `floe ARGS` on a pseudo-terminal 80 columns wide and `rows` high that keeps every screen; `env` is
 * added to this process's environment minus FLOE_* and CI.
 */
export function startPty(args: string[], env: Record<string, string>, rows = 24): Terminal {
  return startTerminal({ args, env, rows, keepFrames: true });
}

/** Sends `keys` as one chunk, then waits until the screen matches `expected`. */
export async function send(terminal: Terminal, keys: string, expected: RegExp): Promise<void> {
  await terminal.press(keys);
  await terminal.waitFor(expected);
}

/** A secret as it could appear: as is, URL-encoded (both space forms) and JSON-escaped. */
export function forms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const url = encodeURIComponent(value);
  return [...new Set([value, url, url.replace(/%20/g, '+'), json])];
}

/** Every (where, secret) pair whose secret shows up in some form. */
export function findLeaks(seen: Seen[], secrets: Secret[]): string[] {
  const hits: string[] = [];
  for (const { where, text } of seen)
    for (const { name, value } of secrets)
      if (forms(value).some((form) => text.includes(form))) hits.push(`${name} in ${where}`);
  return hits;
}

/** Every file under `dir`, recursively, as text. */
export function filesUnder(dir: string): Seen[] {
  const seen: Seen[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, entry);
    if (statSync(path).isFile()) seen.push({ where: path, text: readFileSync(path, 'latin1') });
  }
  return seen;
}
