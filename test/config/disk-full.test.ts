// A full disk never truncates a file floe keeps, nor leaves config.json and the secrets it names at odds:
// the save fails naming the disk, the old config.json and secrets.json stay whole, and no temp file is
// left. First on a real 64 KiB tmpfs (mounting needs root, as in CI; elsewhere those tests say why they do
// not run); then with ENOSPC injected at each write of every save path in turn (test/support/saves.ts,
// floe in process): the next run must show the state before the save or the one after it.
// First: its fs wrappers (the sweep's full disk, armed in this process) before floe's modules load.
import '../support/fault-at.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, onTestFinished, it as plainIt } from 'vitest';
import { DiskFullError, writePrivateFile } from '../../src/config/files.js';
import { floe } from '../management/support.js';
import { type Servers, saves, startServers, sweep } from '../support/saves.js';
import { itWithService } from '../support/services.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'floe-tinyfs-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', mountPoint], {
  encoding: 'utf8',
});
const status =
  mounted.status === 0 ? 'ready' : `cannot mount a tmpfs (${mounted.stderr.trim() || 'not root'})`;
const it = itWithService(status, 'a 64 KiB tmpfs');

let servers: Servers;
const SAVES = saves(() => servers);
beforeAll(async () => {
  servers = await startServers();
});

afterAll(async () => {
  if (status === 'ready') execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
  await servers?.first.close();
  await servers?.second.close();
});

/** Fills the disk, then frees `free` bytes of it (whole 4 KiB pages). */
function fill(dir: string, free: number) {
  const filler = join(dir, 'filler');
  rmSync(filler, { force: true });
  const fd = openSync(filler, 'w');
  try {
    for (;;) writeSync(fd, Buffer.alloc(4096));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  ftruncateSync(fd, Math.max(0, fstatSync(fd).size - free));
  closeSync(fd);
}

describe('a full disk', () => {
  it('writePrivateFile: the old file stays whole, DiskFullError names the folder, no temp file is left', () => {
    const dir = join(mountPoint, 'unit');
    const path = join(dir, 'config.json');
    writePrivateFile(path, `{"old":"${'o'.repeat(2000)}"}`);
    fill(dir, 8192);
    expect(() => writePrivateFile(path, `{"new":"${'n'.repeat(40_000)}"}`)).toThrow(DiskFullError);
    try {
      writePrivateFile(path, 'x'.repeat(40_000));
    } catch (error) {
      expect((error as Error).message).toBe(
        `The disk holding ${dir} is full (ENOSPC): config.json was not changed.`,
      );
    }
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ old: 'o'.repeat(2000) });
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('floe setup --yes on a full disk: exit 1 naming the disk, and the earlier profile and secrets are intact', async () => {
    const configDir = join(mountPoint, 'cli');
    const setup = (name: string, token: string) =>
      floe(
        [
          'setup',
          '--yes',
          '--profile',
          name,
          '--catalog-url',
          'http://127.0.0.1:8181/api/catalog',
          '--warehouse',
          's3://warehouse',
          '--region',
          'us-east-1',
          '--storage',
          's3-compatible',
          '--s3-endpoint',
          'http://127.0.0.1:9000',
          '--auth-type',
          'token',
          '--token-stdin',
          '--insecure-storage',
        ],
        { configDir, input: token, env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe' } },
      );
    onTestFinished(() => rmSync(configDir, { recursive: true, force: true }));
    const first = await setup('first', 'SENTINEL-disk-token-0001');
    expect(first.code, first.stderr).toBe(0);
    const config = readFileSync(join(configDir, 'config.json'), 'utf8');
    const secrets = readFileSync(join(configDir, 'secrets.json'), 'utf8');
    fill(configDir, 1024);
    // A token too long for what is left of the disk: secrets.json cannot be written whole.
    const second = await setup('second', `SENTINEL-${'t'.repeat(30_000)}`);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`The disk holding ${configDir} is full`);
    expect(second.stderr).not.toContain('Saved');
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(config);
    expect(readFileSync(join(configDir, 'secrets.json'), 'utf8')).toBe(secrets);
    expect(readdirSync(configDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe' };

/** The files of a config folder, by name, with their text (no temp file may be among them). */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name !== 'filler')
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );
}

describe('floe import --force on a full disk', () => {
  it('exit 1 naming the disk; config.json and secrets.json as they were; nothing left', async () => {
    const configDir = join(mountPoint, 'import');
    onTestFinished(() => rmSync(configDir, { recursive: true, force: true }));
    const run = (args: string[], input = '') => floe(args, { configDir, input, env: NO_KEYCHAIN });
    const setup = [
      'setup',
      '--yes',
      '--profile',
      'p',
      '--catalog-url',
      'http://127.0.0.1:8181/api/catalog',
      '--warehouse',
      's3://warehouse',
      '--region',
      'us-east-1',
      '--auth-type',
      'token',
      '--token-stdin',
      '--insecure-storage',
    ];
    expect((await run(setup, 'SENTINEL-disk-token-0002')).code).toBe(0);
    const before = snapshot(configDir);
    fill(configDir, 0);
    const destination = JSON.stringify({
      type: 'ICEBERG',
      writer: {
        catalog_type: 'rest',
        rest_catalog_url: 'http://127.0.0.1:8181/api/catalog',
        iceberg_s3_path: 's3://warehouse',
        aws_region: 'eu-west-1',
        token: 'SENTINEL-disk-token-0003',
      },
    });
    const full = await run(['import', '-', '--profile', 'p', '--force', '--insecure-storage'], destination);
    expect(full.code, full.stderr).toBe(1);
    expect(full.stderr).toContain(`The disk holding ${configDir} is full`);
    expect(snapshot(configDir)).toEqual(before);
    rmSync(join(configDir, 'filler'));
    expect((await run(['profiles'])).code).toBe(0);
    expect(snapshot(configDir)).toEqual(before);
  });
});

describe('a save failed by a full disk (ENOSPC) at any write leaves the config and its secrets consistent', () => {
  for (const name of [
    'floe setup over a profile, secrets in the file',
    'floe setup of a new profile',
    'floe import --force over a profile',
    'floe profiles delete, secrets in the file',
    'floe login to another server, session in the file',
    'floe logout, session in the file',
  ])
    plainIt(
      name,
      async () => {
        const { states, problems } = await sweep(SAVES[name]!(), 'enospc');
        expect(problems).toEqual([]);
        expect(states).toContain('before');
      },
      600_000,
    );
});
