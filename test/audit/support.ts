// The secret-leak audit's plumbing: the built CLI spawned as a user would (pipes, or a real 80x24
// pseudo-terminal whose every screen is kept), a record of everything a user or a log collector
// could see, and a search of it for secrets in their plain, URL-encoded and JSON-escaped forms.
import { spawn as spawnChild } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import xterm from '@xterm/headless';
import { spawn as spawnPty } from 'node-pty';

const BIN = new URL('../../bin/floe.js', import.meta.url).pathname;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

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

/** `floe ARGS` without a terminal; asynchronous so the emulators in this process keep answering. */
export function runFloe(args: string[], env: Record<string, string>, input = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawnChild(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

export interface Pty {
  /** The visible screen, lines joined with "\n". */
  screen(): string;
  /** Every screen the terminal showed, one after each chunk of output. */
  frames: string[];
  raw(): string;
  /** Writes `data` as one chunk, then waits until the screen matches `expected` and output settles. */
  send(data: string, expected: RegExp): Promise<void>;
  /** Waits until the screen matches `expected` and output settles. */
  waitFor(expected: RegExp): Promise<void>;
  exited: Promise<number>;
  kill(): void;
}

/** How long a pty screen may take to show what a test waits for before the test fails with the screen. */
const WAIT_MS = 15_000;
/**
 * Ink attaches the key handlers of what it just drew in React's passive effects, just after the frame
 * is written; keys arriving earlier reach the previous screen. So after the awaited screen shows, the
 * next key waits until the output has paused for QUIET_MS (at most SETTLE_MS).
 */
const QUIET_MS = 50;
const SETTLE_MS = 1000;

/** `floe ARGS` on a pseudo-terminal, 80x24 unless told. */
export function startPty(args: string[], env: Record<string, string>, size = { cols: 80, rows: 24 }): Pty {
  const term = new xterm.Terminal({ ...size, allowProposedApi: true });
  const child = spawnPty(process.execPath, [BIN, ...args], {
    ...size,
    env: { ...env, TERM: 'xterm-256color' },
  });
  const screen = () =>
    Array.from({ length: term.rows }, (_, i) =>
      (term.buffer.active.getLine(term.buffer.active.viewportY + i)?.translateToString(true) ?? '').trimEnd(),
    ).join('\n');
  let raw = '';
  const frames: string[] = [];
  const waiters = new Set<() => void>();
  let running = true;
  child.onData((data) => {
    raw += data;
    term.write(data, () => {
      frames.push(screen());
      for (const waiter of [...waiters]) waiter();
    });
  });
  const exited = new Promise<number>((resolve) =>
    child.onExit(({ exitCode, signal }) => {
      running = false;
      for (const waiter of [...waiters]) waiter();
      resolve(signal ? 128 + signal : exitCode);
    }),
  );
  const quiet = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        waiters.delete(restart);
        clearTimeout(idle);
        clearTimeout(cap);
        resolve();
      };
      let idle = setTimeout(done, QUIET_MS);
      const restart = () => {
        clearTimeout(idle);
        idle = setTimeout(done, QUIET_MS);
      };
      const cap = setTimeout(done, SETTLE_MS);
      waiters.add(restart);
    });
  const shown = (expected: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const fail = (why: string) => {
        waiters.delete(check);
        reject(new Error(`the screen did not show ${expected} ${why}; it shows:\n${screen()}`));
      };
      const timer = setTimeout(() => fail(`within ${WAIT_MS / 1000} s`), WAIT_MS);
      const check = () => {
        if (expected.test(screen())) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        } else if (!running) {
          clearTimeout(timer);
          fail('before floe exited');
        }
      };
      waiters.add(check);
      check();
    });
  const waitFor = async (expected: RegExp) => {
    await shown(expected);
    if (running) await quiet();
  };
  return {
    screen,
    frames,
    raw: () => raw,
    async send(data, expected) {
      child.write(data);
      await waitFor(expected);
    },
    waitFor,
    exited,
    kill: () => {
      if (running) child.kill('SIGKILL');
    },
  };
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
