// Test support for Ink screens: a render at a chosen terminal size (ink-testing-library is fixed at
// 100 columns and no rows), every render and key press wrapped in act(), and a context whose config
// lives in a temp dir and whose keychain is an in-memory map (or unavailable).
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { type Instance, render } from 'ink';
import { act, type ReactElement } from 'react';
import { expect } from 'vitest';
import type { Context } from '../../../src/app/context.js';
import { ConfigStore } from '../../../src/config/store.js';
import { accounts } from '../../../src/secrets/store.js';
import { openVault } from '../../../src/secrets/vault.js';
import { memoryKeychain } from '../../support/io.js';

export const KEY = {
  up: '\u001B[A',
  down: '\u001B[B',
  enter: '\r',
  tab: '\t',
  shiftTab: '\u001B[Z',
  esc: '\u001B',
  backspace: '\u007F',
  space: ' ',
  ctrlC: '\x03',
} as const;

class FakeStdout extends EventEmitter {
  readonly frames: string[] = [];
  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
  }
  // Ink in CI mode writes a bare "\n" at unmount; it is not a frame.
  write = (frame: string) => {
    if (frame !== '\n') this.frames.push(frame);
    return true;
  };
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  #data: string | null = null;
  write(data: string) {
    this.#data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read = () => {
    const data = this.#data;
    this.#data = null;
    return data;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

export interface Rendered {
  /** The last frame, without ANSI codes. */
  frame(): string;
  /** The last frame with runs of white space (line wraps included) collapsed to one space. */
  text(): string;
  /** Every frame so far, without ANSI codes. */
  frames(): string[];
  /** Sends each key (or pasted string) as its own input event, inside act(). */
  press(...keys: string[]): Promise<void>;
  /** Sends each key as its own input event, back to back in one act(): no frame is rendered between them. */
  burst(...keys: string[]): Promise<void>;
  unmount(): Promise<void>;
}

export async function renderScreen(tree: ReactElement, columns = 80, rows = 24): Promise<Rendered> {
  const stdout = new FakeStdout(columns, rows);
  const stdin = new FakeStdin();
  let instance: Instance | undefined;
  await act(async () => {
    instance = render(tree, {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: new FakeStdout(columns, rows) as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    });
  });
  const clean = (f: string) => stripVTControlCharacters(f).replace(/\n+$/, '');
  return {
    frame: () => clean(stdout.frames.at(-1) ?? ''),
    text: () => clean(stdout.frames.at(-1) ?? '').replace(/\s+/g, ' '),
    frames: () => stdout.frames.map(clean),
    async press(...keys) {
      for (const key of keys)
        await act(async () => {
          stdin.write(key);
          // Ink holds a lone ESC until setImmediate, to tell it from an escape sequence.
          await new Promise<void>((resolve) => setImmediate(resolve));
        });
    },
    async burst(...keys) {
      await act(async () => {
        for (const key of keys) stdin.write(key);
      });
    },
    async unmount() {
      await act(async () => {
        instance?.unmount();
      });
    },
  };
}

/** Fails unless every frame fits an 80x24 terminal (Ink adds one trailing line break). */
export function expectFits(frames: string[], columns = 80, rows = 24): void {
  for (const frame of frames) {
    const lines = frame.split('\n');
    expect(lines.length, `frame taller than ${rows - 1} rows:\n${frame}`).toBeLessThanOrEqual(rows - 1);
    for (const line of lines)
      expect(Array.from(line).length, `line too wide: ${line}`).toBeLessThanOrEqual(columns);
  }
}

export const UNAVAILABLE_REASON =
  'there is no D-Bus session bus (usual over SSH or in containers), so no Secret Service can be reached.';

export interface TestContext extends Context {
  /** The in-memory keychain: account → secret. */
  keychain: Map<string, string>;
  dir: string;
}

/**
 * A context with its config in a fresh temp dir, the real 0600 file backend, no FLOE_* variables,
 * and an in-memory keychain (or one that always fails, like a machine without a Secret Service).
 */
export function testContext(keychain: 'works' | 'unavailable' = 'works'): TestContext {
  const dir = mkdtempSync(join(tmpdir(), 'floe-ui-'));
  const config = new ConfigStore(dir);
  const memory = new Map<string, string>();
  const backend = memoryKeychain(memory, keychain === 'unavailable' ? UNAVAILABLE_REASON : undefined);
  return { config, vault: openVault(config.secretsPath, {}, backend), keychain: memory, dir };
}

/** The value a test context's profile stored for `field` (in its keychain or file), by the config's generation. */
export async function storedSecret(
  ctx: TestContext,
  profile: string,
  field: string,
): Promise<string | undefined> {
  const stored = new ConfigStore(ctx.dir).getProfile(profile);
  if (!stored || stored.secretStorage === 'env') return undefined;
  return ctx.vault
    .backend(stored.secretStorage)
    .get(accounts.profileSecret(profile, field, stored.secretsGeneration));
}

/** Lets pending promises and effects run (inside act) until `condition` holds; fails after 200 turns. */
export async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await act(async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
    });
  }
  throw new Error('condition not met');
}
