// Issue 30, item 4: --json on `login --status` and on `export --output` (what was written where).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OlakeUiEmulator, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { runCli, spawnCli, tempConfigDir } from '../support/cli.js';

const PASSWORD = 'pw-Json-5150';
const TOKEN = 'sentinel-json-token-9e01';
const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-json-bus' };

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
    const env = { ...process.env, FLOE_CONFIG_DIR: dir, ...NO_BUS };
    const before = await spawnCli(['login', '--status', '--json', '--url', ui.url], env);
    expect(before.code).toBe(4);
    expect(JSON.parse(before.stdout)).toMatchObject({ url: ui.url, loggedIn: false, session: 'none' });
    const login = await spawnCli(
      ['login', '--url', ui.url, '--password-stdin', '--insecure-storage'],
      env,
      PASSWORD,
    );
    expect(login.code, login.stderr).toBe(0);
    const after = await spawnCli(['login', '--status', '--json'], env);
    expect(after.code, after.stderr).toBe(0);
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
    expect((await spawnCli(['login', '--json'], env)).code).toBe(2);
  });
});

describe('floe export --output FILE --json', () => {
  it('says what was written where, never the secret, and needs --output', () => {
    const dir = tempConfigDir();
    const env = { FLOE_CONFIG_DIR: dir, ...NO_BUS };
    const setup = runCli(
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
      { env, input: TOKEN },
    );
    expect(setup.status, setup.stderr).toBe(0);
    const file = join(dir, 'destination.json');
    const r = runCli(['export', '--profile', 'lake', '--output', file, '--json'], { env });
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
    const spark = runCli(
      ['export', '--format', 'spark', '--profile', 'lake', '-o', `${file}.conf`, '--json'],
      { env },
    );
    expect(JSON.parse(spark.stdout)).toMatchObject({ format: 'spark', secrets: 'none' });
    const bare = runCli(['export', '--profile', 'lake', '--json', '--redact'], { env });
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain('--json says what --output wrote');
  });
});
