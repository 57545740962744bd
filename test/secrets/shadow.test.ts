// The save protocol (src/secrets/shadow.ts) piece by piece: what the current release saved (entries
// without a generation) is read and moved over; entries listed for removal are removed unless the config
// names them, and those that cannot be reached stay listed for the next run; start-up tidies temp files
// and a dead process's locks. The crash and disk-full sweeps (test/config) test it whole, on the CLI.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { CookieJar } from 'tough-cookie';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/app/context.js';
import { deleteProfile, loadProfile, saveProfile } from '../../src/app/profiles.js';
import { withLockIfFree, withLockSync } from '../../src/config/files.js';
import { ConfigStore } from '../../src/config/store.js';
import { openSession, storeLogout } from '../../src/management/session.js';
import { recover, sweep } from '../../src/secrets/shadow.js';
import { KeychainUnavailableError, type SecretBackend } from '../../src/secrets/store.js';
import { openVault } from '../../src/secrets/vault.js';
import { sample } from '../fixtures/samples.js';
import { tempConfigDir } from '../support/cli.js';

/** A keychain in a Map, which can be made unreachable. */
function memoryKeychain() {
  const entries = new Map<string, string>();
  let reachable = true;
  const check = () => {
    if (!reachable) throw new KeychainUnavailableError('no D-Bus session bus.');
  };
  const backend: SecretBackend = {
    kind: 'keychain',
    location: 'the OS keychain',
    get: async (account) => {
      check();
      return entries.get(account);
    },
    set: async (account, value) => {
      check();
      entries.set(account, value);
    },
    delete: async (account) => {
      check();
      return entries.delete(account);
    },
  };
  return {
    backend,
    entries,
    reach: (yes: boolean) => {
      reachable = yes;
    },
  };
}

function context(dir = tempConfigDir()) {
  const keychain = memoryKeychain();
  const config = new ConfigStore(dir);
  const ctx: Context = { config, vault: openVault(config.secretsPath, {}, keychain.backend) };
  return { ctx, keychain, dir };
}

const secretsFile = (dir: string) => JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'));

/** config.json and secrets.json as floe wrote them before generations. */
async function savedBeforeGenerations(dir: string, origin: string) {
  const profile = sample('oauth2');
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      schemaVersion: 1,
      profiles: {
        p: {
          preset: 'rest',
          authType: 'oauth2',
          storage: profile.storage,
          targetVersion: 'latest',
          fields: { ...profile.fields, credential: undefined, accessKey: undefined, secretKey: undefined },
          secretStorage: 'file',
          storedSecrets: ['credential', 'accessKey', 'secretKey'],
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      },
      management: {
        url: origin,
        username: 'admin',
        project: '123',
        secretStorage: 'file',
        rememberPassword: true,
      },
    }),
    { mode: 0o600 },
  );
  writeFileSync(
    join(dir, 'secrets.json'),
    JSON.stringify({
      'profile/p/credential': 'old-client:old-secret',
      'profile/p/accessKey': 'AKIAOLD',
      'profile/p/secretKey': 'old-secret-key',
      [`session/${origin}`]: JSON.stringify(await new CookieJar().serialize()),
      [`password/${origin}/admin`]: 'old-password',
    }),
    { mode: 0o600 },
  );
}

describe('profiles and logins saved before generations', () => {
  const origin = 'http://127.0.0.1:9';

  it('are read as they are', async () => {
    const { ctx, dir } = context();
    await savedBeforeGenerations(dir, origin);
    ctx.config.reload();
    const loaded = await loadProfile(ctx, 'p');
    expect(loaded.missing).toEqual([]);
    expect(loaded.values.fields).toMatchObject({
      credential: 'old-client:old-secret',
      accessKey: 'AKIAOLD',
      secretKey: 'old-secret-key',
    });
    const session = await openSession(ctx, { env: {} });
    expect(session.hadSession()).toBe(true);
    await session.client.close();
  });

  it('a save writes them under a generation and removes the entries without one', async () => {
    const { ctx, dir } = context();
    await savedBeforeGenerations(dir, origin);
    ctx.config.reload();
    await saveProfile(ctx, 'p', sample('oauth2'), 'file');
    const saved = ctx.config.getProfile('p')!;
    expect(saved.secretsGeneration).toMatch(/^[0-9a-f]{12}$/);
    const g = saved.secretsGeneration;
    expect(Object.keys(secretsFile(dir)).sort()).toEqual(
      [
        `password/${origin}/admin`,
        `profile@${g}/p/accessKey`,
        `profile@${g}/p/credential`,
        `profile@${g}/p/secretKey`,
        `session/${origin}`,
      ].sort(),
    );
    expect((await loadProfile(ctx, 'p')).values.fields.secretKey).toBe(sample('oauth2').fields.secretKey);
    expect(ctx.config.sweepEntries()).toEqual([]);
  });

  it('delete and logout remove the entries without a generation', async () => {
    const { ctx, dir } = context();
    await savedBeforeGenerations(dir, origin);
    ctx.config.reload();
    expect(await deleteProfile(ctx, 'p')).toBe(true);
    expect(await storeLogout(ctx, origin)).toEqual({ session: true, password: true });
    expect(secretsFile(dir)).toEqual({});
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      schemaVersion: 1,
      profiles: {},
      management: { url: origin, username: 'admin', project: '123', rememberPassword: false },
    });
  });
});

describe('the sweep list', () => {
  it('never removes an entry the config names, and stops listing it', async () => {
    const { ctx, keychain } = context();
    await saveProfile(ctx, 'p', sample('token'), 'keychain');
    const named = [...keychain.entries.keys()];
    ctx.config.changeSweep({ add: named.map((account) => ({ storage: 'keychain', account })) });
    await sweep(ctx);
    expect([...keychain.entries.keys()]).toEqual(named);
    expect(ctx.config.sweepEntries()).toEqual([]);
  });

  it('keeps what an unreachable keychain holds listed, and the next run that reaches it removes it', async () => {
    const { ctx, keychain, dir } = context();
    await saveProfile(ctx, 'p', sample('token'), 'keychain');
    const old = [...keychain.entries.keys()];
    keychain.reach(false);
    await saveProfile(ctx, 'p', sample('token'), 'file');
    expect(ctx.config.sweepEntries()).toEqual(old.map((account) => ({ storage: 'keychain', account })));
    keychain.reach(true);
    const next = context(dir);
    await recover({
      config: next.ctx.config,
      vault: openVault(next.ctx.config.secretsPath, {}, keychain.backend),
    });
    expect(keychain.entries.size).toBe(0);
    expect(new ConfigStore(dir).sweepEntries()).toEqual([]);
  });

  it('a save the keychain refuses fails before anything is written or listed', async () => {
    const { ctx, keychain, dir } = context();
    keychain.reach(false);
    await expect(saveProfile(ctx, 'p', sample('token'), 'keychain')).rejects.toThrow(
      KeychainUnavailableError,
    );
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});

/** A pid that no longer runs: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

/** A lock folder as a floe killed while holding it leaves it. */
function leaveLock(path: string, pid: number) {
  mkdirSync(`${path}.lock`);
  writeFileSync(join(`${path}.lock`, 'owner'), `${hostname()} ${pid}\n`);
}

describe('what a killed floe leaves', () => {
  it('its lock is taken over at once (not after the 10 s a lock takes to go stale)', () => {
    const dir = tempConfigDir();
    const path = join(dir, 'config.json');
    leaveLock(path, deadPid());
    const started = Date.now();
    expect(withLockSync(path, () => 'ran')).toBe('ran');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a lock whose holder runs, or that names no holder, is left alone', async () => {
    const dir = tempConfigDir();
    const path = join(dir, 'config.json');
    leaveLock(path, process.ppid);
    expect(await withLockIfFree(path, async () => 'ran')).toBeUndefined();
    const other = join(dir, 'secrets.json');
    mkdirSync(`${other}.lock`);
    expect(await withLockIfFree(other, async () => 'ran')).toBeUndefined();
  });

  it('the next start removes its temp files, its locks and the entries it listed', async () => {
    const { ctx, dir } = context();
    await saveProfile(ctx, 'p', sample('token'), 'file');
    ctx.config.changeSweep({ add: [{ storage: 'file', account: 'profile@0a1b2c3d4e5f/p/token' }] });
    await ctx.vault.put('file', new Map([['profile@0a1b2c3d4e5f/p/token', 'left']]));
    const pid = deadPid();
    writeFileSync(join(dir, `.config.json.${pid}.0a1b2c.tmp`), '{"half":');
    writeFileSync(join(dir, `.secrets.json.${pid}.0a1b2c.tmp`), '{"profile@0a1b2c3d4e5f/p/token":"left"}');
    mkdirSync(join(dir, `.config.json.lock.${pid}.0a1b2c.tmp`));
    leaveLock(join(dir, 'config.json'), pid);
    leaveLock(join(dir, 'secrets.json'), pid);
    await recover(context(dir).ctx);
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'secrets.json']);
    expect(Object.keys(secretsFile(dir))).toEqual([
      `profile@${ctx.config.getProfile('p')?.secretsGeneration}/p/token`,
    ]);
    expect(new ConfigStore(dir).sweepEntries()).toEqual([]);
  });
});
