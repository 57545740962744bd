// `floe export` in process: its flags checked by parse alone; where the secrets may go checked by run
// against the Io's stdout (a terminal or not).
import { describe, expect, it } from 'vitest';
import { saveProfile } from '../../src/app/profiles.js';
import { options, parse, run } from '../../src/commands/export.js';
import { emptyValues, type Values } from '../../src/destination/fields.js';
import { testIo } from '../support/io.js';

const SECRET = 'export-sentinel-token-9Kd';
const PROD: Values = {
  ...emptyValues('token'),
  fields: {
    catalogUrl: 'https://polaris.example/api/catalog',
    warehouse: 'lake',
    region: 'us-east-1',
    token: SECRET,
  },
};

describe('floe export: parse', () => {
  it('refuses an unknown format, naming --format and the valid ones', () => {
    expect(() => parse(['--format', 'hive'])).toThrow(/^--format: "hive" is not one of olake, pyiceberg/);
  });

  it('refuses --redact with an engine format and --engine-version with olake', () => {
    expect(() => parse(['--format', 'spark', '--redact'])).toThrow(/^--redact is for --format olake/);
    expect(() => parse(['--engine-version', '3.5'])).toThrow(/^--engine-version is for the engine formats/);
  });

  it('gives the home screen’s export the same Options as its flags', () => {
    expect(parse(['--profile', 'prod', '--output', 'd.json'])).toEqual(options('prod', 'd.json'));
  });
});

describe('floe export: run', () => {
  async function withProfile(tty: boolean) {
    const io = testIo({ tty });
    await saveProfile(await io.openContext(), 'prod', PROD, 'keychain');
    return io;
  }

  it('writes destination.json with the secrets redacted to a pipe', async () => {
    const io = await withProfile(false);
    expect(await run(parse(['--redact']), io)).toBe(0);
    const written = JSON.parse(io.stdout());
    expect(written.type).toBe('ICEBERG');
    expect(io.stdout()).toContain('<redacted>');
    expect(io.stdout()).not.toContain(SECRET);
  });

  it('refuses to print the secrets onto a terminal', async () => {
    const io = await withProfile(true);
    await expect(run(parse([]), io)).rejects.toThrow(/not printed to a terminal; pass --output FILE/);
    expect(io.stdout()).toBe('');
  });

  it('prints them into a pipe', async () => {
    const io = await withProfile(false);
    expect(await run(parse([]), io)).toBe(0);
    expect(io.stdout()).toContain(SECRET);
  });
});
