// Issue 19, item 7: output to a closed pipe (`floe … | head -1`) ends quietly with status 0, for every
// command, from one place (src/cli/output.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isClosedPipe, quietOnClosedPipes } from '../../src/cli/output.js';
import { BIN, runCli } from '../support/cli.js';

/** Runs floe with its stdout closed by the reader before floe writes: what `| head -0` does. */
function closedStdout(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed output pipe', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'floe-pipe-'));
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FLOE_'))),
    FLOE_CONFIG_DIR: dir,
    CI: 'true',
  };
  beforeAll(() => {
    const created = runCli(
      [
        'setup',
        '--yes',
        '--profile',
        'p',
        '--auth-type',
        'none',
        '--catalog-url',
        'http://127.0.0.1:1/c',
        '--warehouse',
        'w',
        '--region',
        'us-east-1',
      ],
      { env: { FLOE_CONFIG_DIR: dir } },
    );
    expect(created.status, created.stderr).toBe(0);
  });

  it.each([
    [['completion', 'bash']],
    [['profiles', 'list']],
    [['profiles', 'show', 'p']],
    [['--help']],
    [['export', '--profile', 'p', '--redact']],
  ])('floe %j ends with status 0 and no stack', async (args) => {
    const { code, stderr } = await closedStdout(args, env);
    expect(stderr).not.toContain('EPIPE');
    expect(stderr).not.toContain('Unhandled');
    expect(code).toBe(0);
  });

  it('tells a closed pipe from other write errors', () => {
    expect(isClosedPipe(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(true);
    expect(isClosedPipe(Object.assign(new Error('no space'), { code: 'ENOSPC' }))).toBe(false);
    const handlers: ((error: unknown) => void)[] = [];
    const exits: number[] = [];
    quietOnClosedPipes(
      [{ on: (_event: string, handler: (error: unknown) => void) => handlers.push(handler) } as never],
      (c) => exits.push(c),
    );
    handlers[0]!(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(exits).toEqual([0]);
    expect(() => handlers[0]!(Object.assign(new Error('no space'), { code: 'ENOSPC' }))).toThrow('no space');
  });
});
