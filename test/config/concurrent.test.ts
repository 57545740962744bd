// Six `floe setup` processes saving at once, 5 rounds: no profile and no secret is lost (without the lock,
// every run of it fails); Ctrl-C while a save waits for another process's lock (it says so) exits
// 130 with nothing saved.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { describe, expect, it } from 'vitest';
import { spawnCli, tempConfigDir } from '../support/cli.js';
import { profileAccount } from '../support/stored.js';

// Six at once: fifteen pairs that may collide each round, where three writers gave three.
const ROUNDS = 5;
const WRITERS = 6;

function env(dir: string): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FLOE_')));
  return { ...base, CI: 'true', FLOE_CONFIG_DIR: dir };
}

function setupArgs(profile: string): string[] {
  return [
    'setup',
    '--yes',
    '--profile',
    profile,
    '--catalog-url',
    'https://lake.example.com/catalog',
    '--s3-path',
    's3://warehouse',
    '--region',
    'us-east-1',
    '--auth-type',
    'token',
    '--token-stdin',
    '--insecure-storage',
  ];
}

function setup(dir: string, profile: string, token: string) {
  return spawnCli(setupArgs(profile), env(dir), token);
}

describe('concurrent saves', () => {
  it(`${WRITERS} setups at once for ${ROUNDS} rounds lose no profile and no secret`, {
    timeout: 240_000,
  }, async () => {
    const dir = tempConfigDir();
    const tokens: Record<string, string> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const runs = Array.from({ length: WRITERS }, (_, w) => {
        const profile = `r${round}-w${w}`;
        tokens[profile] = `token-${round}-${w}-sentinel`;
        return setup(dir, profile, `token-${round}-${w}-sentinel`);
      });
      for (const run of await Promise.all(runs)) expect(run.stderr).toMatch(/Saved profile/);
    }
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: object };
    expect(Object.keys(config.profiles).sort()).toEqual(Object.keys(tokens).sort());
    const secrets = JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(secrets).toEqual(
      Object.fromEntries(
        Object.entries(tokens).map(([profile, token]) => [profileAccount(dir, profile, 'token'), token]),
      ),
    );
  });
});

describe('Ctrl-C while a save waits for the lock', () => {
  it('exits 130 and saves nothing', async () => {
    const dir = tempConfigDir();
    const config = join(dir, 'config.json');
    writeFileSync(config, '{"schemaVersion":1,"profiles":{}}\n', { mode: 0o600 });
    const release = lockfile.lockSync(config, { realpath: false, lockfilePath: `${config}.lock` });
    try {
      const bin = new URL('../../bin/floe.js', import.meta.url).pathname;
      const child = spawn(process.execPath, [bin, ...setupArgs('waiting')], {
        env: env(dir),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      child.stdin.end('token-sentinel-waiting');
      await new Promise<void>((resolve) => {
        child.stderr.on('data', () => {
          if (stderr.includes('waiting for it')) resolve();
        });
      });
      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(130);
      expect(stderr).not.toContain('Saved profile');
    } finally {
      release();
    }
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ schemaVersion: 1, profiles: {} });
    expect(existsSync(join(dir, 'secrets.json'))).toBe(false);
  });
});
