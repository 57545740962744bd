// Profiles and secrets survive faults: a keychain that fails or stalls mid-save, Ctrl-C, a screen left
// open while another process saves, broken config roots, prototype-named profiles, leftover temp files.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Context } from '../../src/app/context.js';
import { deleteProfile, loadProfile, saveProfile } from '../../src/app/profiles.js';
import { guarded, onSignal } from '../../src/cli/interrupt.js';
import { writePrivateFile } from '../../src/config/files.js';
import { ConfigError, ConfigStore } from '../../src/config/store.js';
import { KeychainUnavailableError, type SecretBackend } from '../../src/secrets/store.js';
import { openVault } from '../../src/secrets/vault.js';
import { sample } from '../fixtures/samples.js';
import { tempConfigDir } from '../support/cli.js';

/** A keytar stand-in: a Map, with a switch that fails or stalls the Nth write from now. */
function fakeKeychain() {
  const entries = new Map<string, string>();
  let writes = 0;
  let failAt = 0;
  let stallAt = 0;
  let release: (() => void) | undefined;
  let stalled: (() => void) | undefined;
  const backend: SecretBackend = {
    kind: 'keychain',
    location: 'the OS keychain',
    get: async (account) => entries.get(account),
    set: async (account, value) => {
      writes++;
      if (writes === failAt) throw new KeychainUnavailableError('the keychain reported: write refused.');
      if (writes === stallAt) {
        await new Promise<void>((resolve) => {
          release = resolve;
          stalled?.();
        });
      }
      entries.set(account, value);
    },
    delete: async (account) => entries.delete(account),
  };
  return {
    backend,
    entries,
    failNth(n: number) {
      failAt = writes + n;
    },
    /** Stalls the Nth write from now; resolves once that write is waiting. */
    stallNth(n: number): Promise<void> {
      stallAt = writes + n;
      return new Promise((resolve) => {
        stalled = resolve;
      });
    },
    release: () => release?.(),
  };
}

function oauth2(credential: string, accessKey: string) {
  const values = sample('oauth2');
  values.fields = { ...values.fields, credential, accessKey, secretKey: `${accessKey}-secret` };
  return values;
}

function context(dir = tempConfigDir()) {
  const keychain = fakeKeychain();
  const config = new ConfigStore(dir);
  const ctx: Context = { config, vault: openVault(config.secretsPath, {}, keychain.backend) };
  return { ctx, keychain, dir };
}

describe('atomic profile saves', () => {
  it('keeps the previous profile whole when the keychain fails on the second secret', async () => {
    const { ctx, keychain } = context();
    await saveProfile(ctx, 'p', oauth2('old-id:old-secret', 'AKIAOLD'), 'keychain');
    const before = { entries: new Map(keychain.entries), profile: ctx.config.getProfile('p') };
    keychain.failNth(2);
    await expect(saveProfile(ctx, 'p', oauth2('new-id:new-secret', 'AKIANEW'), 'keychain')).rejects.toThrow(
      KeychainUnavailableError,
    );
    expect(keychain.entries).toEqual(before.entries);
    expect(new ConfigStore(ctx.config.dir).getProfile('p')).toEqual(before.profile);
    const loaded = await loadProfile(ctx, 'p');
    expect(loaded.values.fields.credential).toBe('old-id:old-secret');
    expect(loaded.values.fields.accessKey).toBe('AKIAOLD');
  });

  it('removes what it wrote when a new profile fails half-way', async () => {
    const { ctx, keychain } = context();
    keychain.failNth(2);
    await expect(saveProfile(ctx, 'fresh', oauth2('id:secret', 'AKIA1'), 'keychain')).rejects.toThrow();
    expect(keychain.entries.size).toBe(0);
    expect(ctx.config.getProfile('fresh')).toBeUndefined();
  });

  it('undoes a save interrupted (Ctrl-C) during a stalled keychain write', async () => {
    const { ctx, keychain } = context();
    await saveProfile(ctx, 'p', oauth2('old-id:old-secret', 'AKIAOLD'), 'keychain');
    const before = new Map(keychain.entries);
    const abort = new AbortController();
    const waiting = keychain.stallNth(2);
    const saving = saveProfile(ctx, 'p', oauth2('new-id:new-secret', 'AKIANEW'), 'keychain', {
      signal: abort.signal,
    });
    await waiting;
    abort.abort(new Error('interrupted'));
    keychain.release();
    await expect(saving).rejects.toThrow('interrupted');
    expect(keychain.entries).toEqual(before);
    expect((await loadProfile(ctx, 'p')).values.fields.credential).toBe('old-id:old-secret');
  });

  it('on a signal, aborts the guarded save and exits only once it is undone', async () => {
    const exits: number[] = [];
    let undone = false;
    const section = guarded(
      (signal) =>
        new Promise<void>((_, reject) =>
          signal.addEventListener('abort', () =>
            setImmediate(() => {
              undone = true;
              reject(signal.reason);
            }),
          ),
        ),
    );
    onSignal(130, (code) => exits.push(code));
    expect(exits).toEqual([]);
    await expect(section).rejects.toThrow('interrupted');
    await new Promise((resolve) => setImmediate(resolve));
    expect(undone).toBe(true);
    expect(exits).toEqual([130]);
  });

  it('a signal after the save was committed says so instead of "undoing"', async () => {
    const exits: number[] = [];
    const written: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    let finish = () => {};
    const section = guarded(async (_signal, say) => {
      say('floe: interrupted; profile "p" is saved, finishing…');
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    onSignal(130, (code) => exits.push(code));
    finish();
    await section;
    await new Promise((resolve) => setImmediate(resolve));
    write.mockRestore();
    expect(written).toEqual(['floe: interrupted; profile "p" is saved, finishing…\n']);
    expect(exits).toEqual([130]);
  });

  it('rolls the secrets back when the config cannot be written', async () => {
    const { ctx, keychain, dir } = context();
    await saveProfile(ctx, 'p', oauth2('old-id:old-secret', 'AKIAOLD'), 'keychain');
    const before = new Map(keychain.entries);
    writeFileSync(join(dir, 'config.json'), 'null');
    await expect(saveProfile(ctx, 'p', oauth2('new-id:new-secret', 'AKIANEW'), 'keychain')).rejects.toThrow(
      ConfigError,
    );
    expect(keychain.entries).toEqual(before);
  });

  it('saves a profile with nothing secret without touching the keychain, and reads and deletes it', async () => {
    const config = new ConfigStore(tempConfigDir());
    const refuse = () => Promise.reject(new KeychainUnavailableError('no D-Bus session bus.'));
    const broken: SecretBackend = {
      kind: 'keychain',
      location: 'nowhere',
      get: refuse,
      set: refuse,
      delete: refuse,
    };
    const ctx: Context = { config, vault: openVault(config.secretsPath, {}, broken) };
    const values = sample('none');
    values.storage = 'aws';
    values.fields = {
      catalogUrl: 'https://lake.example.com/catalog',
      warehouse: 's3://w',
      region: 'eu-west-1',
    };
    expect(await saveProfile(ctx, 'nosecrets', values, 'keychain')).toEqual([]);
    const loaded = await loadProfile(ctx, 'nosecrets');
    expect(loaded.missing).toEqual([]);
    expect(await deleteProfile(ctx, 'nosecrets')).toBe(true);
    expect(config.profileNames()).toEqual([]);
  });
});

describe('no lost updates', () => {
  it('a store left open (the home screen) deletes one profile without dropping one saved elsewhere', async () => {
    const dir = tempConfigDir();
    const home = context(dir);
    await saveProfile(home.ctx, 'old', sample('token'), 'file');
    const other = context(dir);
    await saveProfile(other.ctx, 'created-elsewhere', sample('token'), 'file');
    expect(await deleteProfile(home.ctx, 'old')).toBe(true);
    const fresh = new ConfigStore(dir);
    expect(fresh.profileNames()).toEqual(['created-elsewhere']);
    expect(home.ctx.config.profileNames()).toEqual(['created-elsewhere']);
    expect((await loadProfile(other.ctx, 'created-elsewhere')).values.fields.token).toBe(
      'dapi-sentinel-token',
    );
  });

  it('settings saved from a stale store keep profiles saved elsewhere', async () => {
    const dir = tempConfigDir();
    const stale = new ConfigStore(dir);
    const other = new ConfigStore(dir);
    other.saveProfile('p', sample('token'), 'env', []);
    stale.setManagement({ url: 'http://localhost:8000', project: '123', rememberPassword: false });
    expect(new ConfigStore(dir).profileNames()).toEqual(['p']);
  });
});

describe('files left behind', () => {
  it('never leaves the temp file when the replace fails (e.g. disk full)', () => {
    const dir = tempConfigDir();
    const target = join(dir, 'secrets.json');
    mkdirSync(join(target, 'blocker'), { recursive: true });
    expect(() => writePrivateFile(target, '{"profile/p/token":"sentinel"}')).toThrow();
    expect(readdirSync(dir)).toEqual(['secrets.json']);
  });

  it('deleting a keychain profile removes stale temp files of the secrets file too', async () => {
    const { ctx, dir } = context();
    await saveProfile(ctx, 'p', sample('token'), 'keychain');
    writeFileSync(join(dir, 'secrets.json.4242.tmp'), '{"profile/p/token":"dapi-sentinel-token"}');
    await deleteProfile(ctx, 'p');
    expect(readdirSync(dir).filter((f) => f.includes('secrets.json'))).toEqual([]);
  });

  it('deleting a profile removes stale temp files of the secrets file', async () => {
    const { ctx, dir } = context();
    await saveProfile(ctx, 'p', sample('token'), 'file');
    writeFileSync(join(dir, 'secrets.json.4242.tmp'), '{"profile/p/token":"dapi-sentinel-token"}');
    writeFileSync(join(dir, '.secrets.json.4242.abcdef.tmp'), '{"profile/p/token":"dapi-sentinel-token"}');
    await deleteProfile(ctx, 'p');
    const left = readdirSync(dir).filter((f) => f.includes('secrets'));
    expect(left).toEqual(['secrets.json']);
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).not.toContain('sentinel');
  });
});

describe('broken config roots', () => {
  for (const [what, text] of [
    ['null', 'null'],
    ['an array', '[1,2]'],
    ['a string', '"profiles"'],
  ] as const)
    it(`refuses a root that is ${what}, keeps a backup and leaves the file as it was`, () => {
      const dir = tempConfigDir();
      const path = join(dir, 'config.json');
      writeFileSync(path, text);
      expect(() => new ConfigStore(dir)).toThrow(/root: expected an object.*A copy was kept at/);
      expect(readFileSync(path, 'utf8')).toBe(text);
      const backups = readdirSync(dir).filter((f) => f.startsWith('config.json.corrupt-'));
      expect(backups).toHaveLength(1);
      expect(readFileSync(join(dir, backups[0]!), 'utf8')).toBe(text);
      expect(statSync(join(dir, backups[0]!)).mode & 0o777).toBe(0o600);
    });
});

describe('profile names are data', () => {
  it('handles constructor, toString and hasOwnProperty like any name', async () => {
    const { ctx, dir } = context();
    expect(ctx.config.getProfile('toString')).toBeUndefined();
    expect(ctx.config.deleteProfile('constructor')).toBe(false);
    await expect(loadProfile(ctx, 'toString')).rejects.toThrow('Profile "toString" does not exist.');
    for (const name of ['constructor', 'toString', 'hasOwnProperty'])
      await saveProfile(ctx, name, sample('token'), 'file');
    const fresh: Context = { config: new ConfigStore(dir), vault: ctx.vault };
    expect(fresh.config.profileNames()).toEqual(['constructor', 'hasOwnProperty', 'toString']);
    expect((await loadProfile(fresh, 'toString')).values.fields.token).toBe('dapi-sentinel-token');
    expect(await deleteProfile(fresh, 'constructor')).toBe(true);
    expect(new ConfigStore(dir).profileNames()).toEqual(['hasOwnProperty', 'toString']);
  });

  it('rejects __proto__ with the rule', async () => {
    const { ctx } = context();
    await expect(saveProfile(ctx, '__proto__', sample('token'), 'file')).rejects.toThrow(
      /use letters, digits.*starting with a letter or digit/,
    );
  });
});
