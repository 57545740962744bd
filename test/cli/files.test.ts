// Files that hold secrets: `export --output` never writes into a file others can read or own, and every
// folder and file floe creates is private whatever the umask. Drives the built CLI.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, linkSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../support/cli.js';

const TOKEN = 'sentinel-token-files-7Qp';
const SETUP = [
  'setup',
  '--yes',
  '--profile',
  'p',
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

function profileDir(): string {
  const dir = tempConfigDir();
  const r = runCli(SETUP, { env: { FLOE_CONFIG_DIR: dir }, input: TOKEN });
  expect(r.stderr).toContain('Saved profile "p"');
  return dir;
}

describe('floe export --output', () => {
  it('refuses a pre-created file readable by others (0666), and --force replaces it without writing through', () => {
    const dir = profileDir();
    const out = join(mkdtempSync(join(tmpdir(), 'floe-out-')), 'destination.json');
    writeFileSync(out, 'planted\n');
    chmodSync(out, 0o666);
    const planted = `${out}.other-users-link`;
    linkSync(out, planted);
    const root = process.getuid?.() === 0;
    if (root) chownSync(out, 12345, 12345);

    const refused = runCli(['export', '--profile', 'p', '--output', out], { env: { FLOE_CONFIG_DIR: dir } });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`Not writing secrets into the existing ${out}`);
    expect(refused.stderr).toContain('its mode 666 lets others read it');
    if (root) expect(refused.stderr).toContain('it belongs to another user (uid 12345)');
    expect(readFileSync(out, 'utf8')).toBe('planted\n');

    const forced = runCli(['export', '--profile', 'p', '--output', out, '--force'], {
      env: { FLOE_CONFIG_DIR: dir },
    });
    expect(forced.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain(TOKEN);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(statSync(out).ino).not.toBe(statSync(planted).ino);
    expect(readFileSync(planted, 'utf8')).toBe('planted\n');
  });

  it('writes a new file as 0600 and replaces its own 0600 file', () => {
    const dir = profileDir();
    const out = join(mkdtempSync(join(tmpdir(), 'floe-out-')), 'destination.json');
    expect(runCli(['export', '--output', out], { env: { FLOE_CONFIG_DIR: dir } }).status).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(runCli(['export', '--output', out, '--redact'], { env: { FLOE_CONFIG_DIR: dir } }).status).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toContain(TOKEN);
  });
});

describe('under umask 000', () => {
  it('creates the config and stack folders 0700 and their files 0600', () => {
    const root = mkdtempSync(join(tmpdir(), 'floe-umask-'));
    const config = join(root, 'nested', 'floe');
    const stack = join(root, 'stack');
    const bin = new URL('../../bin/floe.js', import.meta.url).pathname;
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FLOE_')));
    const sh = (args: string[], input = '') =>
      spawnSync('sh', ['-c', 'umask 000 && exec "$@"', 'sh', process.execPath, bin, ...args], {
        env: { ...env, CI: 'true', FLOE_CONFIG_DIR: config },
        input,
        encoding: 'utf8',
      });
    expect(sh(SETUP, TOKEN).status).toBe(0);
    expect(sh(['stack', '--profile', 'p', '--output', stack]).status).toBe(0);
    expect(statSync(config).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, 'nested')).mode & 0o777).toBe(0o700);
    expect(statSync(join(config, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(statSync(stack).mode & 0o777).toBe(0o700);
    expect(statSync(join(stack, '.env')).mode & 0o777).toBe(0o600);
  });
});
