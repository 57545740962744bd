// floeInProcess: main.ts's dispatch on a test Io, each call a floe start of its own.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from './cli.js';
import { floeInProcess } from './in-process.js';

describe('floeInProcess', () => {
  it('reports as main does: usage errors exit 2 on stderr, help on stdout', async () => {
    const unknown = await floeInProcess(['profil']);
    expect(unknown).toEqual({
      code: 2,
      stdout: '',
      stderr: 'floe: unknown command "profil": did you mean "profiles"?\nRun "floe --help" for usage.\n',
    });
    const help = await floeInProcess(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: floe/m);
    expect((await floeInProcess(['profiles', '--bogus'])).code).toBe(2);
  });

  it('a save then a read, each call with its own context, on the folder the env names', async () => {
    const env = { FLOE_CONFIG_DIR: tempConfigDir(), CI: 'true' };
    const catalog = { catalog_type: 'rest', rest_catalog_url: 'http://127.0.0.1:8181/api/catalog' };
    const writer = {
      ...catalog,
      iceberg_s3_path: 's3://lake',
      aws_region: 'us-east-1',
      token: 'token-in-process-1',
    };
    const setup = await floeInProcess(['import', '-', '--profile', 'p', '--insecure-storage'], {
      env,
      stdin: JSON.stringify({ type: 'ICEBERG', writer }),
    });
    expect(setup.code, setup.stderr).toBe(0);
    const show = await floeInProcess(['profiles', 'show', 'p', '--json'], { env });
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ name: 'p' });
    expect(show.stdout).not.toContain('token-in-process-1');
  });

  it('each call tidies what a killed floe left (recover runs at every start)', async () => {
    const dir = tempConfigDir();
    const env = { FLOE_CONFIG_DIR: dir, CI: 'true' };
    writeFileSync(join(dir, 'config.json'), '{"profiles":{}}', { mode: 0o600 });
    const temp = join(dir, 'config.json.123.tmp');
    writeFileSync(temp, 'half a file', { mode: 0o600 });
    const first = await floeInProcess(['profiles'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(temp)).toBe(false);
    writeFileSync(temp, 'half a file', { mode: 0o600 });
    expect((await floeInProcess(['profiles'], { env })).code).toBe(0);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('fails a call whose command writes to the process stdout instead of its Io', async () => {
    const { printHelp } = await import('../../src/cli/output.js');
    const { COMMANDS } = await import('../../src/cli/commands.js');
    const entry = COMMANDS.profiles as { load: () => Promise<unknown> };
    const load = entry.load;
    const profiles = (await load()) as object;
    // A command forgetting its Io: help printed on the process's stdout (output.ts's default writer).
    entry.load = async () => ({
      ...profiles,
      run: async () => {
        printHelp('stray');
        return 0;
      },
    });
    try {
      await expect(floeInProcess(['profiles'])).rejects.toThrow(/wrote past its Io.*process\.stdout: stray/s);
    } finally {
      entry.load = load;
    }
    expect((await floeInProcess(['profiles'])).code).toBe(0);
  });
});
