// A full disk never truncates a file floe keeps: the save fails naming the disk, the old config.json
// and secrets.json stay whole, and no temp file is left. The disk is a real 64 KiB tmpfs (mounting
// needs root, as in CI; elsewhere the test says why it does not run).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { DiskFullError, writePrivateFile } from '../../src/config/files.js';
import { floe } from '../management/support.js';
import { itWithService } from '../support/services.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'floe-tinyfs-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', mountPoint], {
  encoding: 'utf8',
});
const status =
  mounted.status === 0 ? 'ready' : `cannot mount a tmpfs (${mounted.stderr.trim() || 'not root'})`;
const it = itWithService(status, 'a 64 KiB tmpfs');

afterAll(() => {
  if (status === 'ready') execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Fills the disk but for about `free` bytes. */
function fill(dir: string, free: number) {
  const filler = join(dir, 'filler');
  rmSync(filler, { force: true });
  const total = 64 * 1024;
  const used = readdirSync(dir).length * 4096;
  writeFileSync(filler, Buffer.alloc(Math.max(0, total - used - free - 4096)));
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
