// The secrets choice remembered per config folder: chosen once (a flag or FLOE_SECRETS), used by every
// saving command without the flag, changed only by "floe secrets use", never downgraded silently.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OlakeUiEmulator, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { keychainAccounts } from '../management/support.js';
import { runCli, spawnCli, tempConfigDir } from '../support/cli.js';
import { itWithService } from '../support/services.js';

const TOKEN = 'sentinel-choice-token-41c2';
const PASSWORD = 'pw-Choice-7731';
/** No Secret Service answers here: the keychain is unusable, as over SSH on a headless server. */
const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-choice-bus', DISPLAY: '' };
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
    const env = { FLOE_CONFIG_DIR: dir, ...NO_BUS };
    const first = runCli(setup('one', '--insecure-storage'), { env, input: TOKEN });
    expect(first.status, first.stderr).toBe(0);
    expect(config(dir).secrets).toBe('file');

    const second = runCli(setup('two'), { env, input: TOKEN });
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toContain(`secrets in ${join(dir, 'secrets.json')} (plaintext, mode 0600)`);
    expect(config(dir).profiles.two.secretStorage).toBe('file');

    const exported = runCli(['export', '--profile', 'two'], { env });
    const file = join(dir, 'destination.json');
    writeFileSync(file, exported.stdout);
    const imported = runCli(['import', file, '--profile', 'three'], { env });
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(`secrets in ${join(dir, 'secrets.json')}`);
    expect(Object.values(secretsFile(dir)).filter((value) => value === TOKEN)).toHaveLength(3);

    const login = await spawnCli(
      ['login', '--url', ui.url, '--password-stdin'],
      { ...process.env, ...env },
      PASSWORD,
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Session stored in the file ${join(dir, 'secrets.json')}`);

    const shown = runCli(['secrets', '--json'], { env });
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
  it('chooses for one run without being remembered, and a wrong value is a usage error', () => {
    const dir = tempConfigDir();
    const env = { FLOE_CONFIG_DIR: dir, ...NO_BUS };
    const once = runCli(setup('env'), { env: { ...env, FLOE_SECRETS: 'file' }, input: TOKEN });
    expect(once.status, once.stderr).toBe(0);
    expect(config(dir).profiles.env.secretStorage).toBe('file');
    expect(config(dir).secrets).toBeUndefined();

    const refused = runCli(setup('next'), { env, input: TOKEN });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Pass --insecure-storage once');
    expect(refused.stderr).toContain('FLOE_SECRETS=file');

    const wrong = runCli(setup('bad'), { env: { ...env, FLOE_SECRETS: 'plain' }, input: TOKEN });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain(
      'FLOE_SECRETS must be "keychain" or "file" (e.g. FLOE_SECRETS=file), not "plain"',
    );
  });
});

describe('a config folder that chose the keychain', () => {
  it('never falls back to the file: the save fails naming "floe secrets use file"', () => {
    const dir = tempConfigDir();
    const env = { FLOE_CONFIG_DIR: dir, ...NO_BUS };
    const chosen = runCli(['secrets', 'use', 'keychain'], { env });
    expect(chosen.status, chosen.stderr).toBe(0);
    const refused = runCli(setup('k'), { env, input: TOKEN });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('move everything to the 0600 file with "floe secrets use file"');
    expect(config(dir).profiles).toEqual({});
    // --insecure-storage is explicit: it saves that profile in the file and leaves the folder's choice.
    const flagged = runCli(setup('k', '--insecure-storage'), { env, input: TOKEN });
    expect(flagged.status, flagged.stderr).toBe(0);
    expect(config(dir).secrets).toBe('keychain');
  });

  withKeychain('"floe secrets use" moves every secret both ways; a kept profile is never downgraded', () => {
    const dir = tempConfigDir();
    const env = { FLOE_CONFIG_DIR: dir };
    expect(runCli(setup('kept'), { env, input: TOKEN }).status).toBe(0);
    expect(config(dir).profiles.kept.secretStorage).toBe('keychain');
    expect(runCli(setup('plain', '--insecure-storage'), { env, input: TOKEN }).status).toBe(0);
    expect(config(dir).secrets).toBe('file');
    // Editing the keychain profile in a folder that chose the file keeps it in the keychain.
    const edited = runCli([...setup('kept'), '--region', 'eu-west-1'], { env, input: TOKEN });
    expect(edited.stderr).toContain('secrets in the OS keychain');
    expect(config(dir).profiles.kept.secretStorage).toBe('keychain');

    const toFile = runCli(['secrets', 'use', 'file'], { env });
    expect(toFile.status, toFile.stderr).toBe(0);
    expect(toFile.stderr).toContain('Moved the secrets of profile "kept".');
    expect(config(dir).profiles.kept.secretStorage).toBe('file');
    expect(keychainAccounts(dir)).toEqual([]);
    expect(Object.values(secretsFile(dir)).filter((value) => value === TOKEN)).toHaveLength(2);

    const toKeychain = runCli(['secrets', 'use', 'keychain'], { env });
    expect(toKeychain.status, toKeychain.stderr).toBe(0);
    expect(config(dir).secrets).toBe('keychain');
    expect(secretsFile(dir)).toEqual({});
    expect(keychainAccounts(dir)).toHaveLength(2);
    const exported = runCli(['export', '--profile', 'plain'], { env });
    expect(exported.stdout).toContain(TOKEN);
    runCli(['profiles', 'delete', 'plain'], { env });
    runCli(['profiles', 'delete', 'kept'], { env });
  });
});
