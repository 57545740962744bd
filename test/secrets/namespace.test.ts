// Keychain entries namespaced by config folder, against the real Secret Service: two folders never see
// each other's entries, and entries of the shared pre-namespace service "floe" are taken over once.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import type { Context } from '../../src/app/context.js';
import { deleteProfile, saveProfile } from '../../src/app/profiles.js';
import { ConfigError, ConfigStore } from '../../src/config/store.js';
import { keychainBackend } from '../../src/secrets/keychain.js';
import {
  folderKeychain,
  folderKeychainService,
  LEGACY_SERVICE,
  NAMESPACE_FILE,
} from '../../src/secrets/namespace.js';
import { profileEntries, recover } from '../../src/secrets/shadow.js';
import { accounts } from '../../src/secrets/store.js';
import { openVault } from '../../src/secrets/vault.js';
import { sample } from '../fixtures/samples.js';
import { tempConfigDir } from '../support/cli.js';
import { itWithService } from '../support/services.js';
import { profileAccount } from '../support/stored.js';

const it = itWithService(process.env.FLOE_TEST_KEYRING, 'the Secret Service (gnome-keyring)');

const legacy = keychainBackend(LEGACY_SERVICE);
const legacyWritten: string[] = [];

/** A profile name no other test file uses: the legacy service is shared by the whole run. */
const unique = (what: string) => `${what}-${randomBytes(4).toString('hex')}`;

/** What floe before namespaces left: `profile` in config.json with its token under the service "floe". */
async function upgradedFolder(profile: string, token: string, dir = tempConfigDir()): Promise<string> {
  new ConfigStore(dir).saveProfile(profile, sample('token'), 'keychain', ['token']);
  const account = accounts.profileSecret(profile, 'token');
  await legacy.set(account, token);
  legacyWritten.push(account);
  return dir;
}

async function token(dir: string, profile: string): Promise<string | undefined> {
  const config = new ConfigStore(dir);
  const stored = config.getProfile(profile);
  if (!stored) return undefined;
  const { token: _, ...fields } = sample('token').fields;
  const vault = openVault(config.secretsPath, {});
  const loaded = await vault.loadProfileSecrets(profile, { ...sample('token'), fields }, stored);
  return loaded.values.fields.token as string | undefined;
}

function context(dir: string): Context {
  const config = new ConfigStore(dir);
  return { config, vault: openVault(config.secretsPath, {}) };
}

async function save(dir: string, profile: string, value: string): Promise<void> {
  const values = sample('token');
  values.fields.token = value;
  await saveProfile(context(dir), profile, values, 'keychain');
}

async function remove(dir: string, profile: string): Promise<void> {
  await deleteProfile(context(dir), profile);
}

/** The secret stored under `service` for `account`, as secret-tool finds it ('' when none). */
const lookup = (service: string, account: string) =>
  spawnSync('secret-tool', ['lookup', 'service', service, 'account', account], { encoding: 'utf8' }).stdout;

/** Runs a real copying tool (cp, rsync) as a user would. */
function run(command: string, ...args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed (install it: apt-get install ${command}): ${result.error?.message ?? result.stderr}`,
    );
}

/** A folder `a` under a new root with profile "prod" stored in the keychain, and its service. */
async function original(): Promise<{ root: string; a: string; service: string; account: string }> {
  const root = mkdtempSync(join(tmpdir(), 'floe-ns-'));
  const a = join(root, 'a');
  await save(a, 'prod', 'token-of-a');
  return { root, a, service: folderKeychainService(a), account: profileAccount(a, 'prod', 'token') };
}

const idFile = (dir: string) => join(dir, NAMESPACE_FILE);

afterAll(async () => {
  for (const account of legacyWritten) await legacy.delete(account).catch(() => false);
});

describe('keychain entries of two config folders', () => {
  it('are apart: the same profile name keeps a token per folder', async () => {
    const [a, b] = [tempConfigDir(), tempConfigDir()];
    await save(a, 'prod', 'token-of-a');
    await save(b, 'prod', 'token-of-b');
    expect(await token(a, 'prod')).toBe('token-of-a');
    expect(await token(b, 'prod')).toBe('token-of-b');
    expect(folderKeychainService(a)).not.toBe(folderKeychainService(b));
    expect(lookup(folderKeychainService(a), profileAccount(a, 'prod', 'token'))).toBe('token-of-a');
    expect(lookup(LEGACY_SERVICE, profileAccount(a, 'prod', 'token'))).toBe('');
  });

  it("deleting a profile in one folder leaves the other's secrets", async () => {
    const [a, b] = [tempConfigDir(), tempConfigDir()];
    await save(a, 'shared', 'token-of-a');
    await save(b, 'shared', 'token-of-b');
    const account = profileAccount(a, 'shared', 'token');
    await remove(a, 'shared');
    expect(lookup(folderKeychainService(a), account)).toBe('');
    expect(await token(b, 'shared')).toBe('token-of-b');
  });

  it("the OLake UI session: a folder's logout leaves the other's session", async () => {
    const [a, b] = [tempConfigDir(), tempConfigDir()];
    const session = accounts.session('http://127.0.0.1:8000');
    await folderKeychain(a).set(session, 'jar-of-a');
    await folderKeychain(b).set(session, 'jar-of-b');
    expect(await folderKeychain(a).delete(session)).toBe(true);
    expect(await folderKeychain(a).get(session)).toBeUndefined();
    expect(await folderKeychain(b).get(session)).toBe('jar-of-b');
    await folderKeychain(b).delete(session);
  });

  it('a folder keeps its namespace when moved; a copy gets its own', async () => {
    const root = mkdtempSync(join(tmpdir(), 'floe-ns-'));
    const first = join(root, 'first');
    await save(first, 'moved', 'token-moved');
    const service = folderKeychainService(first);

    const moved = join(root, 'moved');
    renameSync(first, moved);
    expect(folderKeychainService(moved)).toBe(service);
    expect(await token(moved, 'moved')).toBe('token-moved');

    const copy = join(root, 'copy');
    cpSync(moved, copy, { recursive: true });
    expect(folderKeychainService(copy)).not.toBe(service);
    expect(folderKeychainService(moved)).toBe(service);
    // The copy misses the secret (its profile says so) and never reads, changes or deletes the original's.
    expect(await token(copy, 'moved')).toBeUndefined();
    await save(copy, 'moved', 'token-of-the-copy');
    await remove(copy, 'moved');
    expect(await token(moved, 'moved')).toBe('token-moved');
    await remove(moved, 'moved');
  });

  it('a damaged id file is reported with its path and what to do, never replaced', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, NAMESPACE_FILE), '{"id": 3}');
    const error = await folderKeychain(dir)
      .get('profile/p/token')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(`The keychain id file ${join(dir, NAMESPACE_FILE)}`);
    expect((error as ConfigError).hint).toContain('floe setup --profile NAME');
    expect(readFileSync(join(dir, NAMESPACE_FILE), 'utf8')).toBe('{"id": 3}');
  });
});

describe('copies of a config folder', () => {
  /**
   * After `copy` of folder a to c: c has its own namespace, and saving and deleting its profile (whose
   * entries c's config lists for removal) leaves a's id, entries and id file as they were.
   */
  async function apart(a: string, c: string, service: string, account: string, originalIdFile: string) {
    expect(folderKeychainService(c)).not.toBe(service);
    expect(await token(c, 'prod')).toBeUndefined();
    await save(c, 'prod', 'token-of-c');
    expect(await token(c, 'prod')).toBe('token-of-c');
    await remove(c, 'prod');
    expect(folderKeychainService(a)).toBe(service);
    expect(lookup(service, account)).toBe('token-of-a');
    expect(await token(a, 'prod')).toBe('token-of-a');
    expect(readFileSync(idFile(a), 'utf8')).toBe(originalIdFile);
    await remove(a, 'prod');
  }

  it('cp -a, then the original moved away: the copy gets its own id, the moved original keeps its', async () => {
    const { root, a, service, account } = await original();
    const c = join(root, 'c');
    run('cp', '-a', a, c);
    const moved = join(root, 'a2');
    renameSync(a, moved);
    // The copy is used first: its recorded path is gone, as after a move.
    expect(folderKeychainService(c)).not.toBe(service);
    expect(folderKeychainService(moved)).toBe(service);
    await apart(moved, c, service, account, readFileSync(idFile(moved), 'utf8'));
  });

  it('cp -al: the hard-linked copy gets its own id in a file of its own', async () => {
    const { root, a, service, account } = await original();
    const before = readFileSync(idFile(a), 'utf8');
    const c = join(root, 'c');
    run('cp', '-al', a, c);
    expect(statSync(idFile(c)).ino).toBe(statSync(idFile(a)).ino);
    expect(folderKeychainService(c)).not.toBe(service);
    // Replaced, not written through the link: the original's file is its own again, unchanged.
    expect(statSync(idFile(c)).ino).not.toBe(statSync(idFile(a)).ino);
    expect(statSync(idFile(a)).nlink).toBe(1);
    await apart(a, c, service, account, before);
  });

  it('rsync --link-dest: the backup made of hard links gets its own id', async () => {
    const { root, a, service, account } = await original();
    const before = readFileSync(idFile(a), 'utf8');
    const c = join(root, 'backup');
    run('rsync', '-a', `--link-dest=${a}`, `${a}/`, `${c}/`);
    expect(statSync(idFile(c)).ino).toBe(statSync(idFile(a)).ino);
    await apart(a, c, service, account, before);
  });

  it('an id file of an older floe (no inode recorded), hard-linked into a copy: the copy gets its own id', async () => {
    const { root, a, service, account } = await original();
    const { device: _, inode: __, ...older } = JSON.parse(readFileSync(idFile(a), 'utf8'));
    writeFileSync(idFile(a), JSON.stringify(older));
    const c = join(root, 'c');
    run('cp', '-al', a, c);
    expect(folderKeychainService(c)).not.toBe(service);
    expect(folderKeychainService(a)).toBe(service);
    // The original's next use recorded its inode.
    expect(JSON.parse(readFileSync(idFile(a), 'utf8')).inode).toBe(String(statSync(a).ino));
    await apart(a, c, service, account, readFileSync(idFile(a), 'utf8'));
  });

  it("a copy's sweep left by a killed delete never removes the original's entries", async () => {
    const { root, a, service, account } = await original();
    const c = join(root, 'c');
    run('cp', '-al', a, c);
    // `floe profiles delete prod` in the copy, killed between the config write and the sweep.
    const config = new ConfigStore(c);
    config.deleteProfile('prod', { add: profileEntries('prod', config.getProfile('prod')!) });
    expect(config.sweepEntries()).toEqual([{ storage: 'keychain', account }]);
    await recover(context(c));
    expect(new ConfigStore(c).sweepEntries()).toEqual([]);
    expect(folderKeychainService(c)).not.toBe(service);
    expect(lookup(service, account)).toBe('token-of-a');
    expect(await token(a, 'prod')).toBe('token-of-a');
    await remove(a, 'prod');
  });
});

describe('entries under the pre-namespace service "floe"', () => {
  it('are found after the upgrade, copied into the folder, and left in place', async () => {
    const profile = unique('upgraded');
    const dir = await upgradedFolder(profile, 'legacy-token');
    expect(await token(dir, profile)).toBe('legacy-token');
    const account = accounts.profileSecret(profile, 'token');
    expect(lookup(folderKeychainService(dir), account)).toBe('legacy-token');
    expect(lookup(LEGACY_SERVICE, account)).toBe('legacy-token');
  });

  it('two upgraded folders sharing one: each takes its copy, then they part', async () => {
    const profile = unique('both');
    const a = await upgradedFolder(profile, 'legacy-token');
    const b = await upgradedFolder(profile, 'legacy-token');
    await save(a, profile, 'new-token-of-a');
    expect(await token(b, profile)).toBe('legacy-token');
    await remove(b, profile);
    expect(await token(a, profile)).toBe('new-token-of-a');
    expect(lookup(LEGACY_SERVICE, accounts.profileSecret(profile, 'token'))).toBe('legacy-token');
  });

  it('a deleted entry does not come back from there', async () => {
    const profile = unique('deleted');
    const dir = await upgradedFolder(profile, 'legacy-token');
    const account = accounts.profileSecret(profile, 'token');
    // Never read since the upgrade: the delete still says it removed what the folder had.
    expect(await folderKeychain(dir).delete(account)).toBe(true);
    expect(await folderKeychain(dir).get(account)).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, NAMESPACE_FILE), 'utf8')).takenOver).toEqual([account]);
    expect(lookup(LEGACY_SERVICE, account)).toBe('legacy-token');
  });

  it('a folder that did not use the keychain before never reads them', async () => {
    const profile = unique('fresh');
    const account = accounts.profileSecret(profile, 'token');
    await legacy.set(account, 'another-folders-token');
    legacyWritten.push(account);
    const dir = tempConfigDir();
    expect(await folderKeychain(dir).get(account)).toBeUndefined();
    // Its config names the profile only later: the folder still has no legacy entries to take.
    new ConfigStore(dir).saveProfile(profile, sample('token'), 'keychain', ['token']);
    expect(await token(dir, profile)).toBeUndefined();
  });
});
