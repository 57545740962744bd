// The secrets choice remembered per config folder: chosen once (a flag or FLOE_SECRETS), used by every
// saving command without the flag, changed only by "floe secrets use", never downgraded silently.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OlakeUiEmulator, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { keychainAccounts } from '../management/support.js';
import { tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';
import { itWithService } from '../support/services.js';

const TOKEN = 'sentinel-choice-token-41c2';
const PASSWORD = 'pw-Choice-7731';
/** Every keychain call fails as with no Secret Service, as over SSH on a headless server. */
const NO_KEYCHAIN = { keychain: 'unavailable' } as const;
const withKeychain = itWithService(process.env.FLOE_TEST_KEYRING, 'the Secret Service (gnome-keyring)');

const setup = (profile: string, ...extra: string[]) => [
  'setup',
  '--yes',
  '--profile',
  profile,
  '--catalog-url',
  'http://localhost:8181',
  '--warehouse',
  's3://warehouse',
  '--region',
  'us-east-1',
  '--auth-type',
  'token',
  '--token-stdin',
  ...extra,
];

const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
const secretsFile = (dir: string): Record<string, string> =>
  JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'));

let ui: OlakeUiEmulator;
beforeAll(async () => {
  ui = await startOlakeUiEmulator({ users: { admin: PASSWORD } });
});
afterAll(async () => {
  await ui.close();
});

describe('a config folder that chose the 0600 file', () => {
  it('is remembered after one --insecure-storage: setup, import and login then need no flag and say where', async () => {
    const dir = tempConfigDir();
    const env = { FLOE_CONFIG_DIR: dir };
    const first = await floeRun(setup('one', '--insecure-storage'), { env, input: TOKEN, ...NO_KEYCHAIN });
    expect(first.status, first.stderr).toBe(0);
    expect(config(dir).secrets).toBe('file');

    const second = await floeRun(setup('two'), { env, input: TOKEN, ...NO_KEYCHAIN });
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toContain(`secrets in ${join(dir, 'secrets.json')} (plaintext, mode 0600)`);
    expect(config(dir).profiles.two.secretStorage).toBe('file');

    const exported = await floeRun(['export', '--profile', 'two'], { env, ...NO_KEYCHAIN });
    const file = join(dir, 'destination.json');
    writeFileSync(file, exported.stdout);
    const imported = await floeRun(['import', file, '--profile', 'three'], { env, ...NO_KEYCHAIN });
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(`secrets in ${join(dir, 'secrets.json')}`);
    expect(Object.values(secretsFile(dir)).filter((value) => value === TOKEN)).toHaveLength(3);

    const login = await floeRun(['login', '--url', ui.url, '--password-stdin'], {
      env,
      input: PASSWORD,
      ...NO_KEYCHAIN,
    });
    expect(login.status, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Session stored in the file ${join(dir, 'secrets.json')}`);

    const shown = await floeRun(['secrets', '--json'], { env, ...NO_KEYCHAIN });
    expect(JSON.parse(shown.stdout)).toMatchObject({
      newSecrets: 'file',
      source: 'chosen',
      profiles: [
        { profile: 'one', secrets: 'file' },
        { profile: 'three', secrets: 'file' },
        { profile: 'two', secrets: 'file' },
      ],
      session: 'file',
    });
    expect(shown.stdout).not.toContain(TOKEN);
  });
});

describe('FLOE_SECRETS', () => {
  it('chooses for one run without being remembered, and a wrong value is a usage error', async () => {
    const dir = tempConfigDir();
    const env = { FLOE_CONFIG_DIR: dir };
    const once = await floeRun(setup('env'), {
      env: { ...env, FLOE_SECRETS: 'file' },
      input: TOKEN,
      ...NO_KEYCHAIN,
    });
    expect(once.status, once.stderr).toBe(0);
    expect(config(dir).profiles.env.secretStorage).toBe('file');
    expect(config(dir).secrets).toBeUndefined();

    const refused = await floeRun(setup('next'), { env, input: TOKEN, ...NO_KEYCHAIN });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Pass --insecure-storage once');
    expect(refused.stderr).toContain('FLOE_SECRETS=file');

    const wrong = await floeRun(setup('bad'), {
      env: { ...env, FLOE_SECRETS: 'plain' },
      input: TOKEN,
      ...NO_KEYCHAIN,
    });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain(
      'FLOE_SECRETS must be "keychain" or "file" (e.g. FLOE_SECRETS=file), not "plain"',
    );
  });
});

describe('a config folder that chose the keychain', () => {
  it('never falls back to the file: the save fails naming "floe secrets use file"', async () => {
    const dir = tempConfigDir();
    const env = { FLOE_CONFIG_DIR: dir };
    const chosen = await floeRun(['secrets', 'use', 'keychain'], { env, ...NO_KEYCHAIN });
    expect(chosen.status, chosen.stderr).toBe(0);
    const refused = await floeRun(setup('k'), { env, input: TOKEN, ...NO_KEYCHAIN });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('move everything to the 0600 file with "floe secrets use file"');
    expect(config(dir).profiles).toEqual({});
    // --insecure-storage is explicit: it saves that profile in the file and leaves the folder's choice.
    const flagged = await floeRun(setup('k', '--insecure-storage'), { env, input: TOKEN, ...NO_KEYCHAIN });
    expect(flagged.status, flagged.stderr).toBe(0);
    expect(config(dir).secrets).toBe('keychain');
  });

  withKeychain(
    '"floe secrets use" moves every secret both ways; a kept profile is never downgraded',
    async () => {
      const dir = tempConfigDir();
      const env = { FLOE_CONFIG_DIR: dir };
      expect((await floeRun(setup('kept'), { env, input: TOKEN, keychain: 'real' })).status).toBe(0);
      expect(config(dir).profiles.kept.secretStorage).toBe('keychain');
      expect(
        (await floeRun(setup('plain', '--insecure-storage'), { env, input: TOKEN, keychain: 'real' })).status,
      ).toBe(0);
      expect(config(dir).secrets).toBe('file');
      // Editing the keychain profile in a folder that chose the file keeps it in the keychain.
      const edited = await floeRun([...setup('kept'), '--region', 'eu-west-1'], {
        env,
        input: TOKEN,
        keychain: 'real',
      });
      expect(edited.stderr).toContain('secrets in the OS keychain');
      expect(config(dir).profiles.kept.secretStorage).toBe('keychain');

      const toFile = await floeRun(['secrets', 'use', 'file'], { env, keychain: 'real' });
      expect(toFile.status, toFile.stderr).toBe(0);
      expect(toFile.stderr).toContain('Moved the secrets of profile "kept".');
      expect(config(dir).profiles.kept.secretStorage).toBe('file');
      expect(keychainAccounts(dir)).toEqual([]);
      expect(Object.values(secretsFile(dir)).filter((value) => value === TOKEN)).toHaveLength(2);

      const toKeychain = await floeRun(['secrets', 'use', 'keychain'], { env, keychain: 'real' });
      expect(toKeychain.status, toKeychain.stderr).toBe(0);
      expect(config(dir).secrets).toBe('keychain');
      expect(secretsFile(dir)).toEqual({});
      expect(keychainAccounts(dir)).toHaveLength(2);
      const exported = await floeRun(['export', '--profile', 'plain'], { env, keychain: 'real' });
      expect(exported.stdout).toContain(TOKEN);
      await floeRun(['profiles', 'delete', 'plain'], { env, keychain: 'real' });
      await floeRun(['profiles', 'delete', 'kept'], { env, keychain: 'real' });
    },
  );
});
