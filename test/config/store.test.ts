import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveProfile } from '../../src/app/profiles.js';
import { ConfigError, ConfigStore, profileValues } from '../../src/config/store.js';
import { fileBackend } from '../../src/secrets/file.js';
import { accounts } from '../../src/secrets/store.js';
import { openVault } from '../../src/secrets/vault.js';
import { sample } from '../fixtures/samples.js';
import { tempConfigDir } from '../support/cli.js';

describe('config store', () => {
  it('keeps profiles without secrets, in a 0600 file', async () => {
    const dir = tempConfigDir();
    const store = new ConfigStore(dir);
    const vault = openVault(store.secretsPath, {});
    const values = sample('oauth2');
    const stored = await saveProfile({ config: store, vault }, 'p', values, 'file');
    expect([...stored].sort()).toEqual(['accessKey', 'credential', 'secretKey']);
    const text = readFileSync(store.path, 'utf8');
    expect(text).not.toContain('s3cr3t');
    expect(text).not.toContain('wJalrX');
    expect(text).toContain('PRINCIPAL_ROLE:ALL');
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(statSync(store.secretsPath).mode & 0o777).toBe(0o600);
    expect(new ConfigStore(dir).getProfile('p')?.storedSecrets).toEqual(stored);
  });

  it('reads a profile written before presets: its S3 Path is the Warehouse, its catalog generic REST', () => {
    const dir = tempConfigDir();
    const old = {
      authType: 'none',
      storage: 'aws',
      targetVersion: 'latest',
      fields: { catalogUrl: 'http://localhost:8181', s3Path: 's3://lake/olake', region: 'us-east-1' },
      secretStorage: 'env',
      storedSecrets: [],
      updatedAt: '2026-11-01T00:00:00.000Z',
    };
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ schemaVersion: 1, profiles: { old } }));
    const values = profileValues(new ConfigStore(dir).getProfile('old')!);
    expect(values).toMatchObject({ preset: 'rest', fields: { warehouse: 's3://lake/olake' } });
    expect(values.fields).not.toHaveProperty('s3Path');
  });

  it('reports a corrupt file by path, keeps a backup and does not reset it', () => {
    const dir = tempConfigDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, '{"schemaVersion": 1, "profiles": {');
    expect(() => new ConfigStore(dir)).toThrow(ConfigError);
    expect(() => new ConfigStore(dir)).toThrow(new RegExp(`${path}.*cannot be read.*A copy was kept`));
    expect(readFileSync(path, 'utf8')).toBe('{"schemaVersion": 1, "profiles": {');
    const backups = readdirSync(dir).filter((f) => f.startsWith('config.json.corrupt-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dir, backups[0]!), 'utf8')).toBe('{"schemaVersion": 1, "profiles": {');
    expect(statSync(join(dir, backups[0]!)).mode & 0o777).toBe(0o600);
  });

  it('keeps one backup per corrupt content however many runs meet it', () => {
    const dir = tempConfigDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, '[]');
    expect(() => new ConfigStore(dir)).toThrow(/root: expected an object.*A copy was kept at/);
    expect(() => new ConfigStore(dir)).toThrow(/A copy was kept earlier at .*config\.json\.corrupt-/);
    expect(readdirSync(dir).filter((f) => f.startsWith('config.json.corrupt-'))).toHaveLength(1);
    writeFileSync(path, JSON.stringify({ schemaVersion: 1, profiles: { p: { authType: 'nope' } } }));
    expect(() => new ConfigStore(dir)).toThrow(/profiles\.p\.authType/);
    expect(readdirSync(dir).filter((f) => f.startsWith('config.json.corrupt-'))).toHaveLength(2);
  });

  it('rejects a file of another schema version with its path', () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ schemaVersion: 99, profiles: {} }));
    expect(() => new ConfigStore(dir)).toThrow(/schemaVersion/);
  });

  it('rejects invalid profile names with the rule and an example', () => {
    const store = new ConfigStore(tempConfigDir());
    expect(() => store.saveProfile('has space', sample('none'), 'env', [])).toThrow(
      /use letters, digits.*e\.g\. prod-lake/,
    );
  });
});

describe('vault', () => {
  it('prefers the environment over stored secrets and reports missing ones', async () => {
    const dir = tempConfigDir();
    const vault = openVault(join(dir, 's.json'), { FLOE_TOKEN: 'from-env' });
    const values = sample('token');
    await vault.put('file', new Map([[accounts.profileSecret('p', 'token'), 'from-file']]));
    const stripped = { ...values, fields: { ...values.fields, token: undefined } };
    const stored = { secretStorage: 'file' as const, storedSecrets: ['token'] };
    const loaded = await vault.loadProfileSecrets('p', stripped, stored);
    expect(loaded.values.fields.token).toBe('from-env');
    expect(loaded.fromEnv).toEqual(['token']);
    const fromFile = await openVault(join(dir, 's.json'), {}).loadProfileSecrets('p', stripped, stored);
    expect(fromFile.values.fields.token).toBe('from-file');
    const none = await openVault(join(dir, 'other.json'), {}).loadProfileSecrets('p', stripped, {
      secretStorage: 'env',
    });
    expect(none.missing).toEqual(['token']);
  });

  it('file backend deletes what it stored', async () => {
    const path = join(tempConfigDir(), 's.json');
    const file = fileBackend(path);
    await file.set('a', 'x');
    expect(await file.get('a')).toBe('x');
    expect(await file.delete('a')).toBe(true);
    expect(await file.delete('a')).toBe(false);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({});
  });
});
