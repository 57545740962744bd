// `floe test` on a real 80x24 terminal: a test that passes against the sandbox's REST catalog and an
// S3 server (the throwaway Ceph RGW from FLOE_TEST_CEPH when there is one, else the sandbox's s3rver),
// and one that fails on a refused port with its diagnosis panel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { SANDBOX, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { cephFromEnv, createCephBucket } from '../support/ceph.js';
import { expectCleanOutput, floe, tempDir } from './support.js';

const SECRET_KEY = 'SENTINEL-e2e-s3-secret-2d8a';
let sandbox: Sandbox;
let configDir: string;
let storage: { endpoint: string; bucket: string; accessKey: string; secretKey: string };

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 0 });
  const ceph = cephFromEnv().info;
  if (ceph) {
    const { accessKey, secretKey } = ceph.users.owner;
    // The sandbox catalog serves one warehouse, s3://warehouse: the Ceph bucket takes that name.
    const bucket = SANDBOX.bucket;
    await createCephBucket(ceph, bucket);
    storage = { endpoint: ceph.endpoint, bucket, accessKey, secretKey };
  } else {
    // s3rver does not check the secret key: a sentinel shows it never reaches the screen.
    storage = {
      endpoint: sandbox.s3.url,
      bucket: SANDBOX.bucket,
      accessKey: sandbox.s3.accessKey,
      secretKey: SECRET_KEY,
    };
  }
  configDir = tempDir('floe-e2e-test-');
  const config = new ConfigStore(configDir);
  const profile = (catalogUrl: string) => ({
    preset: 'rest' as const,
    authType: 'token' as const,
    storage: 's3-compatible' as const,
    targetVersion: 'latest',
    fields: {
      catalogUrl,
      warehouse: `s3://${storage.bucket}`,
      region: 'us-east-1',
      s3Endpoint: storage.endpoint,
    },
  });
  config.saveProfile('sandbox', profile(sandbox.catalog.url), 'env', []);
  config.saveProfile('refused', profile('http://127.0.0.1:1/api/catalog'), 'env', []);
});

afterAll(() => sandbox?.stop());

const secrets = () => ({
  FLOE_TOKEN: SANDBOX.token,
  FLOE_ACCESS_KEY: storage.accessKey,
  FLOE_SECRET_KEY: storage.secretKey,
});

describe('floe test on a terminal', { timeout: 60_000 }, () => {
  it('passes against the sandbox catalog and the S3 server', async () => {
    const t = floe(configDir, { args: ['test', '--profile', 'sandbox'], env: secrets() });
    const screen = (await t.waitFor('✓ All checks passed')).join('\n');
    expect(screen).toContain('Connection test · sandbox');
    expect(screen).toMatch(/✓ List namespaces/);
    expect(screen).toMatch(/✓ Delete the probe \(DeleteObject\)/);
    expect(screen).not.toMatch(/[✗⊘]/);
    await t.press('q');
    expect(await t.exit()).toBe(0);
    expectCleanOutput(t, [SANDBOX.token, storage.secretKey]);
  });

  it('fails on a refused port and explains it in the diagnosis panel', async () => {
    const t = floe(configDir, { args: ['test', '--profile', 'refused'], env: secrets() });
    const screen = (await t.waitFor(/✗ \d+ of \d+ checks failed[\s\S]*Diagnoses/)).join('\n');
    expect(screen).toMatch(/✗ Connect to the catalog/);
    expect(screen).toContain('✗ CATALOG_CONNECTION_REFUSED (catalog.connect)');
    expect(screen).toContain('Connection to 127.0.0.1:1 was refused');
    expect(screen).toMatch(/Remedy +Start the catalog/);
    await t.press('q');
    expect(await t.exit()).toBe(1);
    expectCleanOutput(t, [SANDBOX.token, storage.secretKey]);
  });

  it('with NO_COLOR, writes no colour and still marks each state with a glyph', async () => {
    const t = floe(configDir, { args: ['test', '--profile', 'refused'], env: secrets(), color: false });
    const screen = (await t.waitFor(/checks failed[\s\S]*Diagnoses/)).join('\n');
    expect(screen).toMatch(/✗ Connect to the catalog/);
    expect(screen).toMatch(/– List namespaces/);
    expect(t.raw()).not.toMatch(/\u001B\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m/);
    await t.press('q');
    expect(await t.exit()).toBe(1);
  });
});
