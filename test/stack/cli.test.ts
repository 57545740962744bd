// `floe stack` without a terminal, with a temporary config directory: in process, and from the built CLI
// (npm run build) where the output names how floe was started (the commands to paste next, ./floe-stack).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { parse } from 'yaml';
import { runCli, tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';
import { itWithService } from '../support/services.js';

const DIST = new URL('../../dist/cli.js', import.meta.url).pathname;
const it = itWithService(
  existsSync(DIST) ? 'ready' : `${DIST} is missing (run npm run build)`,
  'the built CLI',
);

const KEYS = { FLOE_ACCESS_KEY: 'sentinel-access-77d1', FLOE_SECRET_KEY: 'sentinel-secret-0c5b9e' };

function outDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'floe-stack-cli-')), 'stack');
}

/** A config directory with an S3-compatible profile "dev" pointing at the stack, keys in the secrets file. */
async function saveProfile(warehouse: string, region: string): Promise<string> {
  const config = tempConfigDir();
  const setup = await floeRun(
    ['setup', '--yes', '--profile', 'dev', '--auth-type', 'none', '--insecure-storage']
      .concat(['--catalog-url', 'http://localhost:8181'])
      .concat(['--s3-path', warehouse, '--region', region, '--storage', 's3-compatible'])
      .concat(['--s3-endpoint', 'http://localhost:9000']),
    { env: { FLOE_CONFIG_DIR: config, ...KEYS } },
  );
  expect(setup.stderr).not.toMatch(/floe: /);
  expect(setup.status).toBe(0);
  return config;
}

function envOf(dir: string): Record<string, string> {
  const text = readFileSync(join(dir, '.env'), 'utf8');
  return Object.fromEntries([...text.matchAll(/^([A-Z_]+)='([^']*)'$/gm)].map((m) => [m[1]!, m[2]!]));
}

describe('floe stack', () => {
  // Spawned: the commands to paste next name the launcher this process was started with.
  it('without any profile writes a default stack and prints the next commands, but no secret', () => {
    const dir = outDir();
    const r = runCli(['stack', '--output', dir], { env: { FLOE_CONFIG_DIR: tempConfigDir() } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Wrote ${join(dir, 'compose.yaml')}\n`);
    expect(r.stdout).toContain(`Wrote ${join(dir, '.env')} (mode 0600, holds the secrets)\n`);
    expect(r.stdout).toContain(`docker compose -f ${join(dir, 'compose.yaml')} up -d`);
    expect(r.stdout).toContain('floe test --profile stack');
    // Issue 30, item 5: the setup line pastes as one command (a real "\" and line break, never "\^J").
    expect(r.stdout).not.toContain('^J');
    const setupLines = r.stdout.slice(
      r.stdout.indexOf('  npx floe setup'),
      r.stdout.indexOf('--s3-endpoint'),
    );
    expect(setupLines).toMatch(/ \\\n {6}--catalog-url .+ \\\n {6}--region /);
    const next = r.stdout.slice(r.stdout.indexOf('Next:') + 5);
    const parsed = spawnSync('bash', ['-n'], {
      input: next.slice(0, next.indexOf('\n\n')),
      encoding: 'utf8',
    });
    expect(parsed.status, parsed.stderr).toBe(0);
    expect(statSync(join(dir, '.env')).mode & 0o777).toBe(0o600);
    const env = envOf(dir);
    expect(Object.keys(env).sort()).toEqual(['FLOE_ACCESS_KEY', 'FLOE_SECRET_KEY', 'POSTGRES_PASSWORD']);
    const compose = readFileSync(join(dir, 'compose.yaml'), 'utf8');
    for (const secret of Object.values(env)) {
      expect(r.stdout).not.toContain(secret);
      expect(compose).not.toContain(secret);
    }
    expect(parse(compose).services.catalog.environment.CATALOG_WAREHOUSE).toBe('s3://warehouse');
  });

  it('refuses to overwrite (exit 1) and replaces with --force', async () => {
    const dir = outDir();
    const env = { FLOE_CONFIG_DIR: tempConfigDir() };
    expect((await floeRun(['stack', '-o', dir], { env })).status).toBe(0);
    const before = envOf(dir);
    const again = await floeRun(['stack', '-o', dir], { env });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(
      `floe: Not overwriting ${join(dir, 'compose.yaml')} and ${join(dir, '.env')}.`,
    );
    expect(again.stderr).toContain('--force');
    expect(envOf(dir)).toEqual(before);
    expect((await floeRun(['stack', '-o', dir, '--force'], { env })).status).toBe(0);
    expect(envOf(dir).POSTGRES_PASSWORD).not.toBe(before.POSTGRES_PASSWORD);
  });

  // The stack run is spawned: the commands to paste next name the launcher this process was started with.
  it("uses a saved profile's bucket, region and keys, and then only needs floe test", async () => {
    const config = await saveProfile('s3://lake-data/raw', 'eu-central-1');
    const dir = outDir();
    const r = runCli(['stack', '--output', dir], { env: { FLOE_CONFIG_DIR: config } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Stack for profile "dev": warehouse s3://lake-data/raw, region eu-central-1');
    expect(r.stdout).toContain('floe test --profile dev');
    expect(r.stdout).not.toContain('floe setup');
    expect(envOf(dir)).toMatchObject(KEYS);
    const compose = readFileSync(join(dir, 'compose.yaml'), 'utf8');
    expect(compose).toContain('mc mb --ignore-existing stack/lake-data');
    expect(parse(compose).services.catalog.environment.AWS_REGION).toBe('eu-central-1');
    for (const secret of Object.values(KEYS)) {
      expect(compose).not.toContain(secret);
      expect(r.stdout).not.toContain(secret);
    }
  });

  it("fails (exit 1) naming the variables when the profile's stored keys are gone", async () => {
    const config = await saveProfile('s3://lake', 'us-east-1');
    rmSync(join(config, 'secrets.json'));
    const r = await floeRun(['stack', '-o', outDir()], { env: { FLOE_CONFIG_DIR: config } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'floe: Profile "dev" has no value for: Access Key (FLOE_ACCESS_KEY), Secret Key (FLOE_SECRET_KEY).',
    );
  });

  it('fails (exit 1) for a profile that does not exist', async () => {
    const r = await floeRun(['stack', '--profile', 'nope', '-o', outDir()], {
      env: { FLOE_CONFIG_DIR: tempConfigDir() },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('floe: Profile "nope" does not exist.');
  });

  it('exits 2 on an unknown flag, a stray argument or an empty --output', async () => {
    const env = { FLOE_CONFIG_DIR: tempConfigDir() };
    for (const args of [['--port', '1'], ['extra'], ['--output', '']]) {
      const r = await floeRun(['stack', ...args], { env });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('Run "floe stack --help" for usage.');
    }
    const help = await floeRun(['stack', '--help'], { env });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: floe stack \[--profile NAME\] \[--output DIR\] \[--force\]/);
  });

  // Spawned: the default folder is the process's working directory.
  it('writes to ./floe-stack by default', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'floe-stack-cwd-'));
    const r = spawnSync(process.execPath, [new URL('../../bin/floe.js', import.meta.url).pathname, 'stack'], {
      cwd,
      env: { PATH: process.env.PATH, HOME: cwd, FLOE_CONFIG_DIR: join(cwd, 'config'), CI: 'true' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('docker compose -f floe-stack/compose.yaml up -d');
    expect(existsSync(join(cwd, 'floe-stack', 'compose.yaml'))).toBe(true);
    expect(statSync(join(cwd, 'floe-stack', '.env')).mode & 0o777).toBe(0o600);
  });
});
