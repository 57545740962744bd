// Key files are regular files of at most 1 MiB: /dev/zero, a FIFO, a folder or a huge file are refused
// at once, by the reader and by the commands that take a key file.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_KEY_FILE_BYTES, readKeyFile, readKeyFileSync } from '../../src/config/files.js';
import { tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';

const dir = mkdtempSync(join(tmpdir(), 'floe-keyfile-'));
const fifo = join(dir, 'pipe');
execFileSync('mkfifo', [fifo]);
const huge = join(dir, 'huge.json');
writeFileSync(huge, 'x'.repeat(MAX_KEY_FILE_BYTES + 1));
const good = join(dir, 'key.json');
writeFileSync(good, '{"type":"service_account"}\n');

const refused: [string, string, RegExp][] = [
  ['/dev/zero', '/dev/zero', /it is a device, not a regular file/],
  ['a FIFO', fifo, /it is a named pipe \(FIFO\), not a regular file/],
  ['a folder', dir, /it is a directory/],
  ['a file over 1 MiB', huge, /larger than 1024 KiB/],
  ['a missing file', join(dir, 'missing.json'), /no such file/],
];

describe('readKeyFile', () => {
  for (const [what, path, message] of refused) {
    it(`refuses ${what}`, async () => {
      await expect(readKeyFile(path)).rejects.toThrow(message);
      expect(() => readKeyFileSync(path)).toThrow(message);
    });
  }

  it('reads a small regular file', async () => {
    expect(await readKeyFile(good)).toBe('{"type":"service_account"}\n');
    expect(readKeyFileSync(good)).toBe('{"type":"service_account"}\n');
  });
});

describe('commands taking a key file', () => {
  it('floe setup --gcp-service-account-file refuses /dev/zero and a FIFO with exit 2', async () => {
    for (const path of ['/dev/zero', fifo]) {
      const r = await floeRun(
        [
          'setup',
          '--yes',
          '--auth-type',
          'google',
          '--catalog-url',
          'https://biglake.googleapis.com/iceberg/v1/restcatalog',
          '--s3-path',
          'gs://bucket',
          '--region',
          'us',
          '--gcp-service-account-file',
          path,
        ],
        { env: { FLOE_CONFIG_DIR: tempConfigDir() } },
      );
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`--gcp-service-account-file: cannot read ${path} (it is a`);
    }
  });

  it('floe import refuses /dev/zero and a FIFO', async () => {
    for (const path of ['/dev/zero', fifo]) {
      const r = await floeRun(['import', path], { env: { FLOE_CONFIG_DIR: tempConfigDir() } });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`Cannot read ${path}: it is a`);
    }
  });
});
