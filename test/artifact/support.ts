// The artifact suite's own helpers: floe run as a user runs it (a clean environment, no keychain),
// `floe sandbox` as a child process read from what it prints, and the check that a terminal run
// printed nothing but floe's own lines. Nothing here imports src/.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type Run, spawnFile } from '../support/cli.js';

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * A user's environment: HOME, PATH, TMPDIR, no colour, no session bus (so no keychain: secrets in
 * 0600 files), and none of the test run's variables (FLOE_*, CI, the AWS SDK's warning switch).
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    HOME: process.env.HOME ?? tmpdir(),
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    ...extra,
  };
}

/** `floe ARGS` through `command` (see targets.ts) with exactly `env`. */
export function floe(command: string[], args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<Run> {
  const [file, ...before] = command;
  if (!file) throw new Error('floe: empty command');
  return spawnFile(file, [...before, ...args], env, input, 90_000, tmpdir());
}

/**
 * Three free consecutive loopback ports (for --ports BASE, which takes exactly those). They are drawn
 * below Linux's ephemeral range (32768 and up, /proc/sys/net/ipv4/ip_local_port_range): a port found free
 * there can be handed to another process's connection before the sandbox binds it.
 */
export async function freePortBase(): Promise<number> {
  const bindable = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    if ((await bindable(base)) && (await bindable(base + 1)) && (await bindable(base + 2))) return base;
  }
  throw new Error('no three free consecutive ports');
}

/** Shell words of a line as POSIX sh reads them: single quotes, backslash escapes, blanks between. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw new Error(`unterminated quote in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** What `floe sandbox` printed, as a user reads it to point floe at it. */
export interface PrintedSandbox {
  /** The FLOE_* assignments before `floe setup`. */
  env: Record<string, string>;
  /** The `export NAME=value` lines before it (BigLake's STORAGE_EMULATOR_HOST): every floe needs them. */
  exported: Record<string, string>;
  /** The arguments after `setup`. */
  setup: string[];
  olakeUrl: string;
  catalogUrl: string;
  s3Url: string;
}

export function readBanner(stdout: string): PrintedSandbox {
  const block = /^Point floe at it \(from another terminal\):\n([\s\S]*?)\n\n/m.exec(stdout)?.[1];
  if (!block) throw new Error(`no "Point floe at it" block in:\n${stdout}`);
  const lines = block.replace(/ \\\n\s*/g, ' ').split('\n');
  const exported: Record<string, string> = {};
  for (let match = /^\s*export ([A-Z_][A-Z0-9_]*)=(\S+)$/.exec(lines[0] ?? ''); match; ) {
    exported[match[1]!] = match[2]!;
    lines.shift();
    match = /^\s*export ([A-Z_][A-Z0-9_]*)=(\S+)$/.exec(lines[0] ?? '');
  }
  const words = shellWords(lines[0]?.trim() ?? '');
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? '')) {
    const [assignment] = words.splice(0, 1) as [string];
    const at = assignment.indexOf('=');
    env[assignment.slice(0, at)] = assignment.slice(at + 1);
  }
  const setupAt = words.indexOf('setup');
  const field = (pattern: RegExp) => {
    const found = pattern.exec(stdout)?.[1];
    if (!found) throw new Error(`${pattern} not in:\n${stdout}`);
    return found;
  };
  return {
    env,
    exported,
    setup: words.slice(setupAt + 1),
    olakeUrl: field(/ login --url (\S+)/),
    catalogUrl: field(/^REST catalog +(\S+)/m),
    s3Url: field(/^Object store +(\S+)/m),
  };
}

export interface RunningSandbox {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  printed: PrintedSandbox;
  /** SIGINT, then its exit code. */
  stop(): Promise<number | null>;
}

/** `floe sandbox ARGS` through `command`, a child process, once it has printed where it is. */
export async function startSandboxProcess(command: string[], args: string[]): Promise<RunningSandbox> {
  const [file, ...before] = command;
  if (!file) throw new Error('empty command');
  const child = spawn(file, [...before, 'sandbox', ...args], {
    env: userEnv({ FLOE_CONFIG_DIR: tempDir('floe-artifact-sandbox-config-') }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the sandbox did not start:\n${stdout}\n${stderr}`)),
      60_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('Ctrl-C stops the sandbox')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (${code}):\n${stdout}\n${stderr}`));
    });
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    printed: readBanner(stdout),
    async stop() {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** Signs of output that is not floe's: a stack trace, a Node warning, minified source, an error dump. */
const FOREIGN = [
  /^\s+at .+[(:]\d+/m,
  /\bnode:internal\b/,
  /^Node\.js v\d+/m,
  /\(node:\d+\) \w*Warning/,
  /^(?:Type|Reference|Syntax|Range)Error\b/m,
  /file:\/\/\S+\.js:\d+/,
  /NodeVersionSupportWarning/,
];

/** `text` (floe's stdout or stderr, or a terminal's output) holds nothing but floe's own lines. */
export function expectOnlyFloeOutput(text: string, what: string): void {
  for (const pattern of FOREIGN) expect(text, `${what} matches ${pattern}`).not.toMatch(pattern);
  const longest = text.split('\n').reduce((max, line) => Math.max(max, line.length), 0);
  // A minified bundle's source line (44,555 characters when leaving the demo crashed) is no line of floe's.
  expect(longest, `${what}: a line of ${longest} characters`).toBeLessThan(2000);
}
