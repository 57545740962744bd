// `floe profiles` in process: parse alone, then run(options, io) on a test Io (no process spawned).
import { describe, expect, it } from 'vitest';
import { saveProfile } from '../../src/app/profiles.js';
import { parse, run } from '../../src/commands/profiles.js';
import { emptyValues, type Values } from '../../src/destination/fields.js';
import { UsageError } from '../../src/errors.js';
import { testIo } from '../support/io.js';

const SECRET = 'profiles-sentinel-token-5Rt';
const PROD: Values = {
  ...emptyValues('token'),
  fields: { catalogUrl: 'https://polaris.example/api/catalog', warehouse: 'lake', token: SECRET },
};

describe('floe profiles: parse', () => {
  it('gives the action and the name', () => {
    expect(parse([])).toEqual({ help: false, action: 'list', json: false });
    expect(parse(['show', 'prod', '--json'])).toEqual({
      help: false,
      action: 'show',
      name: 'prod',
      json: true,
    });
  });

  it('refuses an unknown action, naming the valid ones', () => {
    expect(() => parse(['rename', 'prod'])).toThrow(
      new UsageError(['unknown action "rename": use list, names, show, delete'], 'profiles'),
    );
  });

  it('refuses show and delete without a NAME', () => {
    expect(() => parse(['delete'])).toThrow('"delete" needs a profile NAME');
  });

  it('names the flag meant by a misspelt one', () => {
    expect(() => parse(['--jsn'])).toThrow(/'--jsn'/);
  });
});

describe('floe profiles: run', () => {
  it('lists, shows (secret masked) and deletes, on the Io it is given', async () => {
    const io = testIo();
    await saveProfile(await io.openContext(), 'prod', PROD, 'keychain');

    expect(await run(parse(['list']), io)).toBe(0);
    expect(io.stdout()).toBe('prod\ttoken\thttps://polaris.example/api/catalog\tsecrets: keychain\n');

    expect(await run(parse(['show', 'prod', '--json']), io)).toBe(0);
    const shown = JSON.parse(io.stdout().split('\n').slice(1).join('\n'));
    expect(shown).toMatchObject({ name: 'prod', authType: 'token' });
    expect(JSON.stringify(shown)).not.toContain(SECRET);
    expect(JSON.stringify(shown)).toContain('••••');

    expect(await run(parse(['delete', 'prod']), io)).toBe(0);
    expect(io.stderr()).toBe('Deleted profile "prod" and its stored secrets.\n');
    expect(io.keychain.size).toBe(0);
  });

  it('says how to start when there is no profile', async () => {
    const io = testIo();
    expect(await run(parse([]), io)).toBe(0);
    expect(io.stdout()).toBe('No profiles yet. Create one with "floe setup".\n');
    expect(io.stderr()).toBe('');
  });

  it('fails on deleting a profile that does not exist', async () => {
    await expect(run(parse(['delete', 'nope']), testIo())).rejects.toThrow('Profile "nope" does not exist.');
  });
});
