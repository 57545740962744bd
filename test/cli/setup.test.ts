import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderKeychainService } from '../../src/secrets/namespace.js';
import { runCli, tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';
import { itWithService } from '../support/services.js';
import { profileAccount } from '../support/stored.js';

const BASE = [
  'setup',
  '--yes',
  '--catalog-url',
  'http://localhost:8181',
  '--warehouse',
  's3://warehouse',
  '--region',
  'us-east-1',
];
const TOKEN = 'sentinel-token-7f3a9c';
const withKeychain = itWithService(process.env.FLOE_TEST_KEYRING, 'the Secret Service (gnome-keyring)');

describe('floe setup without a terminal', () => {
  it('exits 2 naming every missing flag', async () => {
    const r = await floeRun(['setup', '--auth-type', 'oauth2'], {
      env: { FLOE_CONFIG_DIR: tempConfigDir() },
    });
    expect(r.status).toBe(2);
    for (const flag of ['--catalog-url VALUE', '--warehouse VALUE', '--region VALUE', '--oauth2-uri VALUE'])
      expect(r.stderr).toContain(flag);
    expect(r.stderr).not.toContain('--scope');
    expect(r.stderr).toContain('missing REST Credential: pass --credential-stdin or FLOE_CREDENTIAL');
    expect(r.stderr).toContain('no terminal to prompt on');
  });

  it('rejects --catalog-name "My Catalog" with the rule and an example', async () => {
    const r = await floeRun([...BASE, '--catalog-name', 'My Catalog'], {
      env: { FLOE_CONFIG_DIR: tempConfigDir() },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      '--catalog-name: Catalog Name: only lowercase letters a–z and underscores (_) are allowed (e.g. olake_iceberg)',
    );
  });

  it('rejects an unknown auth type and an unknown flag with exit 2', async () => {
    const dir = tempConfigDir();
    expect(
      (await floeRun([...BASE, '--auth-type', 'basic'], { env: { FLOE_CONFIG_DIR: dir } })).stderr,
    ).toMatch(/--auth-type: "basic" is not one of none, token, oauth2, sigv4, google/);
    const unknown = await floeRun([...BASE, '--token', 'x'], { env: { FLOE_CONFIG_DIR: dir } });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--token'/);
  });

  // Spawned: the reason is keytar's own, from the D-Bus address the process inherits (none here).
  it('without D-Bus, fails with the reason and the fallback flags instead of crashing', () => {
    const r = runCli([...BASE, '--auth-type', 'token', '--token-stdin'], {
      env: { FLOE_CONFIG_DIR: tempConfigDir(), DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '' },
      input: TOKEN,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/OS keychain cannot be used: there is no D-Bus session bus/);
    expect(r.stderr).toContain('--insecure-storage');
    expect(r.stderr).toContain('--env-secrets');
    expect(r.stderr + r.stdout).not.toContain(TOKEN);
  });

  it('--insecure-storage keeps secrets in a 0600 file, never in the config file', async () => {
    const dir = tempConfigDir();
    const r = await floeRun([...BASE, '--auth-type', 'token', '--token-stdin', '--insecure-storage'], {
      env: { FLOE_CONFIG_DIR: dir },
      input: `${TOKEN}\n`,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/plain text/);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(TOKEN);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'secrets.json'), 'utf8')).toContain(TOKEN);
  });

  withKeychain(
    'stores secrets in the real keychain; export reads them back; --redact hides them',
    async () => {
      const dir = tempConfigDir();
      const r = await floeRun([...BASE, '--profile', 'kc', '--auth-type', 'token', '--token-stdin'], {
        env: { FLOE_CONFIG_DIR: dir },
        input: TOKEN,
        keychain: 'real',
      });
      expect(r.status, r.stderr).toBe(0);
      const service = folderKeychainService(dir);
      const account = profileAccount(dir, 'kc', 'token');
      const found = spawnSync('secret-tool', ['lookup', 'service', service, 'account', account], {
        encoding: 'utf8',
      });
      expect(found.stdout).toBe(TOKEN);
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(TOKEN);

      const exported = await floeRun(['export', '--profile', 'kc'], {
        env: { FLOE_CONFIG_DIR: dir },
        keychain: 'real',
      });
      expect(exported.status, exported.stderr).toBe(0);
      expect(JSON.parse(exported.stdout).writer).toMatchObject({ rest_auth_type: 'oauth2', token: TOKEN });

      const out = join(dir, 'shared.json');
      const redacted = await floeRun(['export', '--profile', 'kc', '--redact', '--output', out], {
        env: { FLOE_CONFIG_DIR: dir },
        keychain: 'real',
      });
      expect(redacted.status).toBe(0);
      expect(readFileSync(out, 'utf8')).not.toContain(TOKEN);
      expect(statSync(out).mode & 0o777).toBe(0o600);
      expect(
        (await floeRun(['profiles', 'show', 'kc'], { env: { FLOE_CONFIG_DIR: dir }, keychain: 'real' }))
          .stdout,
      ).not.toContain(TOKEN);

      expect(
        (await floeRun(['profiles', 'delete', 'kc'], { env: { FLOE_CONFIG_DIR: dir }, keychain: 'real' }))
          .status,
      ).toBe(0);
      expect(spawnSync('secret-tool', ['lookup', 'service', service, 'account', account]).stdout.length).toBe(
        0,
      );
    },
  );
});

describe('floe import', () => {
  it('imports the older form, reports ignored keys, and exports it in the current form', async () => {
    const dir = tempConfigDir();
    const file = new URL('../fixtures/import/older-form.json', import.meta.url).pathname;
    const r = await floeRun(['import', file, '--profile', 'old', '--env-secrets'], {
      env: { FLOE_CONFIG_DIR: dir },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/ignored iceberg_db/);
    expect(r.stderr).toMatch(/ignored normalization: a per-stream setting/);
    const exported = await floeRun(['export', '--profile', 'old'], {
      env: { FLOE_CONFIG_DIR: dir, FLOE_CREDENTIAL: 'id:from-env' },
    });
    expect(exported.status, exported.stderr).toBe(0);
    const writer = JSON.parse(exported.stdout).writer;
    expect(writer).toMatchObject({
      rest_auth_type: 'oauth2',
      credential: 'id:from-env',
      s3_endpoint: 'http://host.docker.internal:9000',
    });
    expect(writer.iceberg_db).toBe('olake_db');
  });

  it('imports OLake’s documented Polaris file and exports it as catalog_type polaris', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'polaris.json');
    const doc = readFileSync(new URL('../fixtures/olake-docs/polaris-oauth2.json', import.meta.url), 'utf8');
    writeFileSync(
      file,
      doc
        .replaceAll('<REST_ENDPOINT>', 'polaris.example.com')
        .replace('<POLARIS_CATALOG_NAME>', 'olake_catalog')
        .replace('<client_id>:<client_secret>', 'olake-client:sentinel-polaris-secret')
        .replace('<SCOPE>', 'PRINCIPAL_ROLE:ALL')
        .replace('<S3_REGION>', 'ap-south-1'),
    );
    const r = await floeRun(['import', file, '--profile', 'polaris', '--insecure-storage'], {
      env: { FLOE_CONFIG_DIR: dir },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toContain('"preset": "polaris"');
    const exported = await floeRun(['export', '--profile', 'polaris'], { env: { FLOE_CONFIG_DIR: dir } });
    expect(exported.status, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout).writer).toMatchObject({
      catalog_type: 'polaris',
      iceberg_s3_path: 'olake_catalog',
      credential: 'olake-client:sentinel-polaris-secret',
      scope: 'PRINCIPAL_ROLE:ALL',
    });
  });

  it('export names the missing secret and its variable', async () => {
    const dir = tempConfigDir();
    const file = new URL('../fixtures/import/older-form.json', import.meta.url).pathname;
    await floeRun(['import', file, '--env-secrets'], { env: { FLOE_CONFIG_DIR: dir } });
    const r = await floeRun(['export'], { env: { FLOE_CONFIG_DIR: dir } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('REST Credential (FLOE_CREDENTIAL)');
  });

  it('rejects a non-REST destination with the reason', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'glue.json');
    writeFileSync(
      file,
      JSON.stringify({ type: 'ICEBERG', writer: { catalog_type: 'glue', iceberg_s3_path: 's3://b' } }),
    );
    const r = await floeRun(['import', file], { env: { FLOE_CONFIG_DIR: dir } });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/only REST catalogs/);
  });
});

describe('no silent defaults', () => {
  const olderForm = new URL('../fixtures/import/older-form.json', import.meta.url).pathname;

  it('import over an existing profile without a terminal exits 2 naming --force, and keeps it', async () => {
    const dir = tempConfigDir();
    const env = { FLOE_CONFIG_DIR: dir };
    const first = await floeRun(
      [...BASE, '--profile', 'tok', '--auth-type', 'token', '--token-stdin', '--insecure-storage'],
      {
        env,
        input: TOKEN,
      },
    );
    expect(first.status, first.stderr).toBe(0);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const r = await floeRun(['import', olderForm, '--profile', 'tok', '--env-secrets'], { env });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      'floe: Profile "tok" exists (authentication: token). Pass --force to replace it, or --profile NAME to import under another name.',
    );
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);

    const forced = await floeRun(['import', olderForm, '--profile', 'tok', '--env-secrets', '--force'], {
      env,
    });
    expect(forced.status, forced.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.tok.authType).toBe('oauth2');
  });

  it('setup --yes without --auth-type: a preset with several lists it as missing, naming them', async () => {
    const r = await floeRun([...BASE, '--data-location', 's3://warehouse/x'], {
      env: { FLOE_CONFIG_DIR: tempConfigDir() },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      'floe: missing authentication type: pass --auth-type, one of none, token, oauth2, sigv4, google (Generic REST catalog offers several; e.g. --auth-type none)',
    );
  });

  it('setup --yes names the auth type it used and why', async () => {
    const dir = tempConfigDir();
    // Spawned: the command to paste next names how this process was started (the clone's launcher).
    const implied = runCli([...BASE, '--profile', 'a', '--token-stdin', '--env-secrets'], {
      env: { FLOE_CONFIG_DIR: dir },
      input: TOKEN,
    });
    expect(implied.status, implied.stderr).toBe(0);
    expect(implied.stderr).toContain(
      'Saved profile "a" (authentication: Bearer token, implied by --token-stdin;',
    );
    // No floe on this PATH: the command to paste next is the one that runs floe from the clone.
    expect(implied.stderr).toContain('Next: npx floe test --profile a');

    const only = await floeRun(
      [
        'setup',
        '--yes',
        '--profile',
        'g',
        '--preset',
        'glue',
        '--warehouse',
        '123456789012',
        '--catalog-url',
        'https://glue.us-east-1.amazonaws.com/iceberg',
      ].concat(['--region', 'us-east-1', '--signing-region', 'us-east-1', '--env-secrets']),
      { env: { FLOE_CONFIG_DIR: dir } },
    );
    expect(only.status, only.stderr).toBe(0);
    expect(only.stderr).toContain('(authentication: AWS SigV4, the only one AWS Glue (Iceberg REST) offers;');

    const kept = await floeRun(
      ['setup', '--yes', '--profile', 'a', '--region', 'eu-west-1', '--env-secrets'],
      {
        env: { FLOE_CONFIG_DIR: dir, FLOE_TOKEN: TOKEN },
      },
    );
    expect(kept.status, kept.stderr).toBe(0);
    expect(kept.stderr).toContain("(authentication: Bearer token, the profile's own;");
  });
});
