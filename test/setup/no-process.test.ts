// The fast project's guard (test/setup/no-process.ts): a test there that starts a process fails, naming
// the fix. This file runs in the fast project (it is not in PROCESS_TESTS).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { inCI } from '../support/services.js';
import { PROCESS_TESTS } from './process-tests.js';

describe('the fast project', () => {
  it('refuses to start a process, naming PROCESS_TESTS', () => {
    expect(() => spawnSync(process.execPath, ['--version'])).toThrow(
      /child_process\.spawnSync.*PROCESS_TESTS/,
    );
    expect(() => spawn(process.execPath, ['--version'])).toThrow(/child_process\.spawn:.*PROCESS_TESTS/);
    expect(() => execFileSync('true')).toThrow(/child_process\.execFileSync.*PROCESS_TESTS/);
  });

  it('refuses a pseudo-terminal', () => {
    let pty: { spawn: (file: string, args: string[], options: object) => unknown } | undefined;
    try {
      pty = createRequire(import.meta.url)('node-pty');
    } catch {
      pty = undefined;
    }
    // Under CI node-pty is built (.ci/run), so this cannot pass by its absence.
    if (!pty) expect(inCI).toBe(false);
    else expect(() => pty.spawn(process.execPath, [], {})).toThrow(/node-pty spawn.*PROCESS_TESTS/);
  });

  it('starts no service: the keychain and Ceph tests are told why they cannot run here', () => {
    expect(process.env.FLOE_TEST_KEYRING).toMatch(/not started in the fast project/);
    expect(process.env.FLOE_TEST_CEPH).toMatch(/not started in the fast project/);
  });

  it('PROCESS_TESTS names only files that exist (a stale entry would move nothing)', () => {
    expect(PROCESS_TESTS.filter((file) => !existsSync(file))).toEqual([]);
  });
});
