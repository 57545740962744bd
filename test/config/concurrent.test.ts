// Three `floe setup` processes saving at once, 20 rounds: no profile and no secret is lost.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli, tempConfigDir } from '../support/cli.js';

const ROUNDS = 20;
const WRITERS = 3;

function env(dir: string): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FLOE_')));
  return { ...base, CI: 'true', FLOE_CONFIG_DIR: dir };
}

function setup(dir: string, profile: string, token: string) {
  return spawnCli(
    [
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
    ],
    env(dir),
    token,
  );
}

describe('concurrent saves', () => {
  it(`${WRITERS} setups at once for ${ROUNDS} rounds lose no profile and no secret`, {
    timeout: 240_000,
  }, async () => {
    const dir = tempConfigDir();
    const expected: Record<string, string> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const runs = Array.from({ length: WRITERS }, (_, w) => {
        const profile = `r${round}-w${w}`;
        expected[`profile/${profile}/token`] = `token-${round}-${w}-sentinel`;
        return setup(dir, profile, `token-${round}-${w}-sentinel`);
      });
      for (const run of await Promise.all(runs)) expect(run.stderr).toMatch(/Saved profile/);
    }
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { profiles: object };
    expect(Object.keys(config.profiles).sort()).toEqual(
      Object.keys(expected)
        .map((k) => k.split('/')[1])
        .sort(),
    );
    const secrets = JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(secrets).toEqual(expected);
  });
});
