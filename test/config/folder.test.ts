// The config folder is floe's private place: one that another user owns or may write is refused with
// the way out (a link to the folder is followed and its target checked), and a symbolic link where config.json should be is never silently replaced by a file.
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';

const VALUES = {
  preset: 'rest',
  authType: 'none',
  storage: 's3-compatible',
  targetVersion: 'latest',
  fields: {
    catalogUrl: 'http://127.0.0.1:8181/api/catalog',
    warehouse: 's3://warehouse',
    region: 'us-east-1',
  },
} as const;

describe('the config folder', () => {
  it('one other users may write (0777) is refused, naming chmod 700', async () => {
    const dir = tempConfigDir();
    chmodSync(dir, 0o777);
    const r = await floeRun(['profiles', 'list'], { env: { FLOE_CONFIG_DIR: dir } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`The config folder ${dir} may be written by other users (mode 777)`);
    expect(r.stderr).toContain(`chmod 700 ${dir}`);
  });

  it.runIf(process.getuid?.() === 0)('one that another user owns is refused', () => {
    const dir = tempConfigDir();
    chownSync(dir, 65534, 65534);
    expect(() => new ConfigStore(dir)).toThrow(
      `The config folder ${dir} belongs to another user (uid 65534)`,
    );
  });

  it('a link to a private folder (~/.config/floe -> dotfiles/floe) is followed: its target is checked and used', () => {
    const home = mkdtempSync(join(tmpdir(), 'floe-home-'));
    const target = join(home, 'dotfiles', 'floe');
    mkdirSync(target, { recursive: true, mode: 0o700 });
    const link = join(home, 'floe');
    symlinkSync(target, link);
    new ConfigStore(link).saveProfile('p', { ...VALUES, fields: { ...VALUES.fields } }, 'env', []);
    expect(new ConfigStore(target).profileNames()).toEqual(['p']);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('a link to a folder other users may write is refused, naming the folder checked', async () => {
    const home = mkdtempSync(join(tmpdir(), 'floe-home-'));
    const target = join(home, 'shared');
    mkdirSync(target);
    chmodSync(target, 0o777);
    const link = join(home, 'floe');
    symlinkSync(target, link);
    const r = await floeRun(['profiles', 'list'], { env: { FLOE_CONFIG_DIR: link } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `The config folder ${link} (really ${target}, the folder checked) may be written by other users (mode 777)`,
    );
    expect(r.stderr).toContain(`chmod 700 ${target}`);
  });

  it.runIf(process.getuid?.() === 0)("a link to another user's folder is refused", () => {
    const home = mkdtempSync(join(tmpdir(), 'floe-home-'));
    const target = join(home, 'theirs');
    mkdirSync(target, { mode: 0o700 });
    chownSync(target, 65534, 65534);
    const link = join(home, 'floe');
    symlinkSync(target, link);
    expect(() => new ConfigStore(link)).toThrow(
      `The config folder ${link} (really ${target}, the folder checked) belongs to another user (uid 65534)`,
    );
  });

  it('a config.json that is a symbolic link is refused on save, and stays a link', () => {
    const dir = tempConfigDir();
    const real = join(mkdtempSync(join(tmpdir(), 'floe-real-')), 'config.json');
    writeFileSync(real, '{}', { mode: 0o600 });
    symlinkSync(real, join(dir, 'config.json'));
    const store = new ConfigStore(dir);
    expect(() => store.saveProfile('p', { ...VALUES, fields: { ...VALUES.fields } }, 'env', [])).toThrow(
      /config\.json is a symbolic link \(to .*\); floe replaces its files whole/,
    );
    expect(readlinkSync(join(dir, 'config.json'))).toBe(real);
  });
});

describe('a hand-edited config.json', () => {
  it('a profile name with a control sequence is reported escaped, never printed raw', async () => {
    const dir = tempConfigDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        schemaVersion: 1,
        profiles: {
          'ok\u001b]0;pwned\u0007': {
            ...VALUES,
            secretStorage: 'env',
            storedSecrets: [],
            updatedAt: new Date().toISOString(),
          },
        },
      }),
      { mode: 0o600 },
    );
    const r = await floeRun(['profiles', 'list'], { env: { FLOE_CONFIG_DIR: dir } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('profiles: "ok\\u001b]0;pwned\\u0007" is not a profile name floe writes');
    expect(r.stderr + r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});
