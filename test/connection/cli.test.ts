import { beforeAll, describe, expect, it } from 'vitest';
import { checkReportSchema } from '../../src/check/types.js';
import { ConfigStore } from '../../src/config/store.js';
import type { Values } from '../../src/destination/fields.js';
import { tempConfigDir } from '../support/cli.js';
import { floeRun } from '../support/in-process.js';
import { refusedPort } from '../support/ports.js';

const TOKEN = 'SENTINEL-cli-token-4e1d';
const ACCESS = 'SENTINEL-cli-access-93a0';
const SECRET = 'SENTINEL-cli-secret-c7b2';
const SECRETS_ENV = { FLOE_TOKEN: TOKEN, FLOE_ACCESS_KEY: ACCESS, FLOE_SECRET_KEY: SECRET };

let configDir: string;

beforeAll(async () => {
  const port = await refusedPort();
  const values: Values = {
    preset: 'rest',
    authType: 'token',
    storage: 's3-compatible',
    targetVersion: 'latest',
    fields: {
      catalogUrl: `http://127.0.0.1:${port}/api/catalog`,
      warehouse: 's3://warehouse/olake',
      region: 'us-east-1',
      s3Endpoint: `http://127.0.0.1:${port}`,
    },
  };
  configDir = tempConfigDir();
  new ConfigStore(configDir).saveProfile('refused', values, 'env', []);
});

const expectNoSecret = (text: string) => {
  for (const secret of [TOKEN, ACCESS, SECRET]) expect(text).not.toContain(secret);
};

describe('floe test without a terminal', () => {
  it('--json against a refused port: exit 1, a valid report with diagnoses, no secret', async () => {
    const r = await floeRun(['test', '--json', '--timeout', '5'], {
      env: { FLOE_CONFIG_DIR: configDir, ...SECRETS_ENV },
    });
    expect(r.status, r.stderr).toBe(1);
    const report = checkReportSchema.parse(JSON.parse(r.stdout));
    expect(report.ok).toBe(false);
    expect(report.diagnoses.length).toBeGreaterThan(0);
    expect(report.steps.some((s) => s.chain === 'catalog' && s.state === 'failed')).toBe(true);
    expect(report.steps.some((s) => s.chain === 'storage' && s.state === 'failed')).toBe(true);
    expect(r.stderr).toBe('');
    expectNoSecret(r.stdout + r.stderr);
  });

  it('prints one line per finished step, then the diagnoses, and exits 1', async () => {
    const r = await floeRun(['test', '--profile', 'refused', '--read-only'], {
      env: { FLOE_CONFIG_DIR: configDir, ...SECRETS_ENV },
    });
    expect(r.status, r.stderr).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Testing profile "refused" (read-only)');
    expect(lines.filter((l) => /^✗ Catalog: /.test(l)).length).toBeGreaterThan(0);
    expect(lines.filter((l) => /^[✓✗–⊘] Object store: /.test(l)).length).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/\n {2}Remedy: {3}\S/);
    expect(r.stdout).toMatch(/✗ \d+ of \d+ checks failed\n$/);
    expect(r.stdout).not.toContain('\u001B[');
    expectNoSecret(r.stdout + r.stderr);
  });

  it('names the missing secrets instead of testing; --json says so in one JSON object too', async () => {
    const r = await floeRun(['test', '--json'], { env: { FLOE_CONFIG_DIR: configDir } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('FLOE_TOKEN');
    const out = JSON.parse(r.stdout);
    expect(checkReportSchema.parse(out)).toEqual({ ok: false, steps: [], diagnoses: [], warnings: [] });
    expect(out.error.kind).toBe('not-run');
    expect(`${out.error.message} ${out.error.hint ?? ''}`).toContain('FLOE_TOKEN');
    expect((await floeRun(['test'], { env: { FLOE_CONFIG_DIR: configDir } })).stdout).toBe('');
  });

  it('--json: an unknown profile and a usage error print a JSON error object, exit 1 and 2', async () => {
    const unknown = await floeRun(['test', '--json', '--profile', 'nope'], {
      env: { FLOE_CONFIG_DIR: configDir },
    });
    expect(unknown.status).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({
      ok: false,
      steps: [],
      error: { kind: 'not-run', message: 'Profile "nope" does not exist.' },
    });
    const usage = await floeRun(['test', '--json', '--timeout', 'soon'], {
      env: { FLOE_CONFIG_DIR: configDir },
    });
    expect(usage.status).toBe(2);
    expect(JSON.parse(usage.stdout).error).toMatchObject({ kind: 'usage' });
    expect(JSON.parse(usage.stdout).error.message).toContain('--timeout: "soon" is not a number of seconds');
  });

  it('--help lists every flag; a bad --timeout is a usage error', async () => {
    const help = await floeRun(['test', '--help']);
    expect(help.status).toBe(0);
    for (const flag of ['--profile NAME', '--json', '--timeout SECONDS', '--read-only', '--help'])
      expect(help.stdout).toContain(flag);
    const bad = await floeRun(['test', '--timeout', 'soon'], { env: { FLOE_CONFIG_DIR: configDir } });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--timeout: "soon" is not a number of seconds');
  });
});
