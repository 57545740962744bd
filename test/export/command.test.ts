// `floe export --format …` run in process, with secrets in the environment (--env-secrets); on a terminal
// through the built CLI in a pty.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { floe } from '../e2e/support.js';
import { tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';

const TOKEN = 'sentinel-engine-token-5b1e';
const SECRET_KEY = 'sentinel-engine-secret-key-77';
const ACCESS_KEY = 'AKIAENGINEEXAMPLE';

async function profile(authType: 'token' | 'google' = 'token'): Promise<string> {
  const dir = tempConfigDir();
  const args = [
    'setup',
    '--yes',
    '--env-secrets',
    '--catalog-url',
    'http://localhost:8181/api/catalog',
    '--warehouse',
    's3://warehouse',
    '--region',
    'us-east-1',
    '--auth-type',
    authType,
  ];
  const r = await floeRun(args, {
    env: {
      FLOE_CONFIG_DIR: dir,
      FLOE_TOKEN: TOKEN,
      FLOE_ACCESS_KEY: ACCESS_KEY,
      FLOE_SECRET_KEY: SECRET_KEY,
    },
  });
  expect(r.status, r.stderr).toBe(0);
  return dir;
}

describe('floe export --format', () => {
  it('writes placeholders or env references without --include-secrets, and names the variables', async () => {
    const dir = await profile();
    const env = {
      FLOE_CONFIG_DIR: dir,
      FLOE_TOKEN: TOKEN,
      FLOE_ACCESS_KEY: ACCESS_KEY,
      FLOE_SECRET_KEY: SECRET_KEY,
    };
    const trino = await floeRun(['export', '--format', 'trino'], { env });
    expect(trino.status, trino.stderr).toBe(0);
    expect(trino.stdout).toContain(`iceberg.rest-catalog.oauth2.token=\${ENV:FLOE_TOKEN}`);
    expect(trino.stdout + trino.stderr).not.toContain(TOKEN);
    expect(trino.stdout + trino.stderr).not.toContain(SECRET_KEY);
    expect(trino.stderr).toContain(
      "Set FLOE_TOKEN, FLOE_ACCESS_KEY, FLOE_SECRET_KEY in the Trino server's environment",
    );

    const out = join(dir, 'pyiceberg.yaml');
    const py = await floeRun(['export', '--format', 'pyiceberg', '--output', out], { env });
    expect(py.status, py.stderr).toBe(0);
    expect(py.stderr).toContain('Replace <FLOE_TOKEN> with the Token');
    expect(parse(readFileSync(out, 'utf8')).catalog.olake_iceberg.token).toBe('<FLOE_TOKEN>');
  });

  it('writes the secrets with --include-secrets, into a 0600 file', async () => {
    const dir = await profile();
    const out = join(dir, 'spark-defaults.conf');
    const r = await floeRun(['export', '--format', 'spark', '--include-secrets', '--output', out], {
      env: {
        FLOE_CONFIG_DIR: dir,
        FLOE_TOKEN: TOKEN,
        FLOE_ACCESS_KEY: ACCESS_KEY,
        FLOE_SECRET_KEY: SECRET_KEY,
      },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain(`spark.sql.catalog.olake_iceberg.token=${TOKEN}`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(r.stderr).toContain('mode 0600, contains secrets');
  });

  it('--include-secrets needs every secret; without it, missing ones are fine', async () => {
    const dir = await profile();
    const without = await floeRun(['export', '--format', 'duckdb'], { env: { FLOE_CONFIG_DIR: dir } });
    expect(without.status, without.stderr).toBe(0);
    expect(without.stdout).toContain("TOKEN '<FLOE_TOKEN>'");
    const r = await floeRun(['export', '--format', 'duckdb', '--include-secrets'], {
      env: { FLOE_CONFIG_DIR: dir },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Token (FLOE_TOKEN)');
  });

  it('fails, writing nothing, where the engine cannot express the profile', async () => {
    const dir = tempConfigDir();
    const sa = JSON.stringify({
      type: 'service_account',
      client_email: 'olake@proj-123456.iam.gserviceaccount.com',
      private_key: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n',
    });
    const setup = await floeRun(
      [
        'setup',
        '--yes',
        '--env-secrets',
        '--preset',
        'biglake',
        '--warehouse',
        'gs://my-lake',
        '--auth-type',
        'google',
      ],
      { env: { FLOE_CONFIG_DIR: dir, FLOE_GCP_SERVICE_ACCOUNT_JSON: sa } },
    );
    expect(setup.status, setup.stderr).toBe(0);
    const out = join(dir, 'duck.sql');
    const r = await floeRun(['export', '--format', 'duckdb', '--output', out], {
      env: { FLOE_CONFIG_DIR: dir },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('DuckDB cannot sign in with a Google service-account key');
    expect(() => statSync(out)).toThrow();
    const py = await floeRun(['export', '--format', 'pyiceberg'], { env: { FLOE_CONFIG_DIR: dir } });
    expect(py.status, py.stderr).toBe(0);
    expect(parse(py.stdout).catalog.olake_iceberg.auth.type).toBe('google');
  });

  it('rejects an unknown format and --redact with an engine format (exit 2)', async () => {
    const dir = await profile();
    const bad = await floeRun(['export', '--format', 'hive'], { env: { FLOE_CONFIG_DIR: dir } });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      '--format: "hive" is not one of olake, pyiceberg, pyiceberg-env, spark, trino, duckdb',
    );
    const redact = await floeRun(['export', '--format', 'spark', '--redact'], {
      env: { FLOE_CONFIG_DIR: dir },
    });
    expect(redact.status).toBe(2);
  });

  // The built CLI in a pty: the refusal is for a real terminal on stdout.
  it('--include-secrets prints nothing on a terminal: it asks for --output or a pipe (exit 2)', async () => {
    const dir = await profile();
    const t = floe(dir, {
      args: ['export', '--format', 'spark', '--include-secrets'],
      env: { FLOE_TOKEN: TOKEN, FLOE_ACCESS_KEY: ACCESS_KEY, FLOE_SECRET_KEY: SECRET_KEY },
    });
    expect(await t.exit()).toBe(2);
    expect(t.raw()).not.toContain(TOKEN);
    expect(t.raw()).not.toContain(SECRET_KEY);
    expect(t.screen().join(' ')).toMatch(/not printed to a terminal; pass --output FILE/);
  });
});
