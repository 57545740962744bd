// floe (run in process) with two config folders (FLOE_CONFIG_DIR) and the real Secret Service: the same
// profile name or OLake UI in both never shares a keychain entry, and what floe before namespaces stored
// under the one service "floe" keeps working after the upgrade.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { type OlakeUiEmulator, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { keychainBackend } from '../../src/secrets/keychain.js';
import { folderKeychainService, LEGACY_SERVICE } from '../../src/secrets/namespace.js';
import { accounts } from '../../src/secrets/store.js';
import { sample } from '../fixtures/samples.js';
import { keychainAccounts } from '../management/support.js';
import { tempConfigDir } from '../support/cli.js';
import { floeInProcess, type InProcessRun } from '../support/in-process.js';
import { itWithService } from '../support/services.js';
import { loginAccounts, profileAccount } from '../support/stored.js';

const it = itWithService(process.env.FLOE_TEST_KEYRING, 'the Secret Service (gnome-keyring)');
const PASSWORD = 'pw-Folders-4417';
const SETUP = [
  'setup',
  '--yes',
  '--catalog-url',
  'http://localhost:8181',
  '--warehouse',
  's3://warehouse',
  '--region',
  'us-east-1',
  '--auth-type',
  'token',
  '--token-stdin',
];

const legacy = keychainBackend(LEGACY_SERVICE);
const legacyWritten: string[] = [];
let ui: OlakeUiEmulator;

beforeAll(async () => {
  ui = await startOlakeUiEmulator({ users: { admin: PASSWORD } });
});

afterAll(async () => {
  await ui.close();
  for (const account of legacyWritten) await legacy.delete(account).catch(() => false);
});

/** `floe ARGS` on config folder `configDir` and the real keychain, with this process's environment. */
function floe(args: string[], options: { configDir: string; input?: string }): Promise<InProcessRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, FLOE_CONFIG_DIR: options.configDir, NO_COLOR: '1' };
  delete env.FLOE_PASSWORD;
  return floeInProcess(args, { env, stdin: options.input, keychain: 'real' });
}

async function exportedToken(configDir: string, profile: string): Promise<string | undefined> {
  const run = await floe(['export', '--profile', profile], { configDir });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout).writer.token;
}

describe('two config folders', () => {
  it('the same profile name keeps a token per folder; deleting it in one leaves the other', async () => {
    const [a, b] = [tempConfigDir(), tempConfigDir()];
    expect((await floe([...SETUP, '--profile', 'prod'], { configDir: a, input: 'token-of-a' })).code).toBe(0);
    expect((await floe([...SETUP, '--profile', 'prod'], { configDir: b, input: 'token-of-b' })).code).toBe(0);
    expect(await exportedToken(a, 'prod')).toBe('token-of-a');
    expect(await exportedToken(b, 'prod')).toBe('token-of-b');

    expect((await floe(['profiles', 'delete', 'prod'], { configDir: a })).code).toBe(0);
    expect(keychainAccounts(a)).toEqual([]);
    expect(await exportedToken(b, 'prod')).toBe('token-of-b');
    expect(keychainAccounts(b)).toEqual([profileAccount(b, 'prod', 'token')]);
    expect((await floe(['profiles', 'delete', 'prod'], { configDir: b })).code).toBe(0);
  });

  it("logout in one leaves the other's session", async () => {
    const [a, b] = [tempConfigDir(), tempConfigDir()];
    for (const configDir of [a, b])
      expect(
        (await floe(['login', '--url', ui.url, '--password-stdin'], { configDir, input: PASSWORD })).code,
      ).toBe(0);
    const logout = await floe(['logout'], { configDir: a });
    expect(logout.stdout).toContain('Forgot the session');
    expect(keychainAccounts(a)).toEqual([]);
    expect(keychainAccounts(b)).toEqual([loginAccounts(b).session]);
    const logins = ui.requests.filter((r) => r.path === '/login').length;
    expect((await floe(['jobs', '--json'], { configDir: b })).code).toBe(0);
    expect(ui.requests.filter((r) => r.path === '/login').length).toBe(logins);
    expect((await floe(['jobs', '--json'], { configDir: a })).code).toBe(4);
    await floe(['logout'], { configDir: b });
  });
});

describe('a copy of a config folder', () => {
  it('cp -al (hard links): a setup and a delete in the copy leave the original its token', async () => {
    const root = mkdtempSync(join(tmpdir(), 'floe-copies-'));
    const [a, c] = [join(root, 'a'), join(root, 'c')];
    expect((await floe([...SETUP, '--profile', 'prod'], { configDir: a, input: 'token-of-a' })).code).toBe(0);
    const copied = spawnSync('cp', ['-al', a, c], { encoding: 'utf8' });
    expect(copied.status, copied.stderr).toBe(0);
    expect((await floe([...SETUP, '--profile', 'prod'], { configDir: c, input: 'token-of-c' })).code).toBe(0);
    expect(await exportedToken(c, 'prod')).toBe('token-of-c');
    expect((await floe(['profiles', 'delete', 'prod'], { configDir: c })).code).toBe(0);
    expect(keychainAccounts(c)).toEqual([]);
    expect(await exportedToken(a, 'prod')).toBe('token-of-a');
    expect(keychainAccounts(a)).toEqual([profileAccount(a, 'prod', 'token')]);
    expect((await floe(['profiles', 'delete', 'prod'], { configDir: a })).code).toBe(0);
  });
});

describe('after the upgrade from the shared service "floe"', () => {
  it("a profile's token stored there is found and taken into the folder's own service", async () => {
    const profile = `old-${randomBytes(4).toString('hex')}`;
    const dir = tempConfigDir();
    // What floe before namespaces left: the profile in config.json, its token under "floe".
    new ConfigStore(dir).saveProfile(profile, sample('token'), 'keychain', ['token']);
    const account = accounts.profileSecret(profile, 'token');
    await legacy.set(account, 'token-from-before');
    legacyWritten.push(account);

    expect(await exportedToken(dir, profile)).toBe('token-from-before');
    expect(keychainAccounts(dir)).toEqual([account]);
    expect(await keychainBackend(folderKeychainService(dir)).get(account)).toBe('token-from-before');
    expect(await legacy.get(account)).toBe('token-from-before');
  });

  it('the OLake UI session stored there still logs floe in; logout forgets it for this folder only', async () => {
    // A session as floe before namespaces kept it: made by a login, then moved to "floe".
    const source = tempConfigDir();
    expect(
      (await floe(['login', '--url', ui.url, '--password-stdin'], { configDir: source, input: PASSWORD }))
        .code,
    ).toBe(0);
    const own = keychainBackend(folderKeychainService(source));
    const jar = (await own.get(loginAccounts(source).session)) as string;
    await own.delete(loginAccounts(source).session);
    const session = accounts.session(ui.url);
    await legacy.set(session, jar);
    legacyWritten.push(session);

    const [a, b] = [tempConfigDir(), tempConfigDir()];
    for (const configDir of [a, b])
      new ConfigStore(configDir).setManagement({
        url: ui.url,
        username: 'admin',
        project: '123',
        secretStorage: 'keychain',
        rememberPassword: false,
      });
    const logins = ui.requests.filter((r) => r.path === '/login').length;
    expect((await floe(['jobs', '--json'], { configDir: a })).code).toBe(0);
    expect(ui.requests.filter((r) => r.path === '/login').length).toBe(logins);
    expect(keychainAccounts(a)).toEqual([session]);

    // b never used it since the upgrade: its logout forgets it for b, and a and "floe" keep theirs.
    const logout = await floe(['logout'], { configDir: b });
    expect(logout.stdout).toContain('Forgot the session');
    expect((await floe(['jobs', '--json'], { configDir: b })).code).toBe(4);
    expect((await floe(['jobs', '--json'], { configDir: a })).code).toBe(0);
    expect(await legacy.get(session)).toBe(jar);
    await floe(['logout'], { configDir: a });
  });
});
