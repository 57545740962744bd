// Issue 30, item 4: --json on `login --status` and on `export --output` (what was written where).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OlakeUiEmulator, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';

const PASSWORD = 'pw-Json-5150';
const TOKEN = 'sentinel-json-token-9e01';
/** Every keychain call fails as with no Secret Service. */
const NO_KEYCHAIN = { keychain: 'unavailable' } as const;

let ui: OlakeUiEmulator;
beforeAll(async () => {
  ui = await startOlakeUiEmulator({ users: { admin: PASSWORD } });
});
afterAll(async () => {
  await ui.close();
});

describe('floe login --status --json', () => {
  it('says logged out with exit 4, then logged in with where the session is, exit 0', async () => {
    const dir = tempConfigDir();
    const env = { FLOE_CONFIG_DIR: dir };
    const before = await floeRun(['login', '--status', '--json', '--url', ui.url], { env, ...NO_KEYCHAIN });
    expect(before.status).toBe(4);
    expect(JSON.parse(before.stdout)).toMatchObject({ url: ui.url, loggedIn: false, session: 'none' });
    const login = await floeRun(['login', '--url', ui.url, '--password-stdin', '--insecure-storage'], {
      env,
      input: PASSWORD,
      ...NO_KEYCHAIN,
    });
    expect(login.status, login.stderr).toBe(0);
    const after = await floeRun(['login', '--status', '--json'], { env, ...NO_KEYCHAIN });
    expect(after.status, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual({
      url: ui.url,
      username: 'admin',
      project: '123',
      session: 'file',
      where: `stored in the file ${join(dir, 'secrets.json')}`,
      passwordRemembered: false,
      loggedIn: true,
    });
    expect(after.stdout).not.toContain(PASSWORD);
    expect((await floeRun(['login', '--json'], { env, ...NO_KEYCHAIN })).status).toBe(2);
  });
});

describe('floe export --output FILE --json', () => {
  it('says what was written where, never the secret, and needs --output', async () => {
    const dir = tempConfigDir();
    const env = { FLOE_CONFIG_DIR: dir };
    const setup = await floeRun(
      [
        'setup',
        '--yes',
        '--profile',
        'lake',
        '--catalog-url',
        'http://localhost:8181',
        '--warehouse',
        's3://warehouse',
      ].concat(['--region', 'us-east-1', '--auth-type', 'token', '--token-stdin', '--insecure-storage']),
      { env, input: TOKEN, ...NO_KEYCHAIN },
    );
    expect(setup.status, setup.stderr).toBe(0);
    const file = join(dir, 'destination.json');
    const r = await floeRun(['export', '--profile', 'lake', '--output', file, '--json'], {
      env,
      ...NO_KEYCHAIN,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'lake',
      format: 'olake',
      output: file,
      mode: '0600',
      secrets: 'included',
      notes: [],
    });
    expect(r.stdout).not.toContain(TOKEN);
    expect(readFileSync(file, 'utf8')).toContain(TOKEN);
    const spark = await floeRun(
      ['export', '--format', 'spark', '--profile', 'lake', '-o', `${file}.conf`, '--json'],
      { env, ...NO_KEYCHAIN },
    );
    expect(JSON.parse(spark.stdout)).toMatchObject({ format: 'spark', secrets: 'none' });
    const bare = await floeRun(['export', '--profile', 'lake', '--json', '--redact'], {
      env,
      ...NO_KEYCHAIN,
    });
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain('--json says what --output wrote');
  });
});
