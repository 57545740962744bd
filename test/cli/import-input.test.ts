// floe import reads only what a destination.json can be: stdin is capped like a file, a UTF-8 BOM is
// dropped, and keys named like JavaScript's own (__proto__, constructor) are ignored keys like others.
import { spawnSync } from 'node:child_process';
import { openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromDestinationJson } from '../../src/destination/olake.js';
import { tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';

const BIN = new URL('../../bin/floe.js', import.meta.url).pathname;
const WRITER = {
  catalog_type: 'rest',
  rest_catalog_url: 'http://127.0.0.1:8181/api/catalog',
  iceberg_s3_path: 's3://warehouse',
  aws_region: 'us-east-1',
};

describe('floe import', () => {
  it('a file with a UTF-8 byte-order mark imports', async () => {
    const r = await floeRun(['import', '-', '--profile', 'bom', '--env-secrets'], {
      env: { FLOE_CONFIG_DIR: tempConfigDir() },
      input: `\uFEFF${JSON.stringify({ type: 'ICEBERG', writer: WRITER })}`,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('Imported - as profile "bom"');
    expect(r.stdout + r.stderr).not.toContain('Unexpected token');
  });

  // Spawned: stdin is a real endless file, which floe must stop reading.
  it('stdin from /dev/zero stops at 1 MiB with a clear error', () => {
    const r = spawnSync(process.execPath, [BIN, 'import', '-', '--profile', 'z'], {
      env: { ...process.env, CI: 'true', FLOE_CONFIG_DIR: tempConfigDir() },
      stdio: [openSync('/dev/zero', 'r'), 'pipe', 'pipe'],
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Cannot read stdin: floe import -: more than 1048576 bytes on stdin');
  });

  it('__proto__, constructor and toString keys are reported as ignored keys, by name', () => {
    const text = `{"type":"ICEBERG","writer":{${Object.entries(WRITER)
      .map(([k, v]) => `"${k}":"${v}"`)
      .join(',')},"__proto__":{"x":1},"constructor":"c","toString":5,"rest_scope":"catalog"}}`;
    const imported = fromDestinationJson(JSON.parse(text));
    expect(imported.ignored.slice(0, 3)).toEqual(
      ['__proto__', 'constructor', 'toString'].map((key) => ({
        key,
        why: 'not a key of the REST catalog destination',
      })),
    );
    expect(imported.notes.join('\n')).not.toContain('[object Object]');
    expect(imported.notes).toContain(
      'rest_scope is not a key OLake reads: read as scope, and exported as scope',
    );
  });
});
