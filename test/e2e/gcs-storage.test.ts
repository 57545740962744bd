// BigLake with Google Cloud Storage end to end through the built CLI: `floe setup --yes --preset biglake
// --storage gcs` with a service-account key file, then `floe test --json` against a catalog emulator
// taking Google's jwt-bearer grant and the GCS emulator (STORAGE_EMULATOR_HOST); one token endpoint
// serves both, as Google's does.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkReportSchema } from '../../src/check/types.js';
import { type CatalogEmulator, startCatalogEmulator } from '../../src/sandbox/catalog/index.js';
import { type GcsEmulator, startGcsEmulator } from '../../src/sandbox/gcs.js';
import { spawnCli, tempConfigDir } from '../support/cli.js';

const EMAIL = 'olake-biglake@floe-e2e.iam.gserviceaccount.com';
const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_KEY = key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const account = {
  clientEmail: EMAIL,
  publicKey: key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
};

let gcs: GcsEmulator;
let catalog: CatalogEmulator;
/** BigLake placing its tables under the warehouse bucket, for the write check. */
let lake: CatalogEmulator;

beforeAll(async () => {
  gcs = await startGcsEmulator({
    serviceAccounts: [account],
    buckets: [{ name: 'e2e-lake', location: 'US' }],
  });
  catalog = await startCatalogEmulator({ auth: 'bearer', trustedTokens: gcs.principalOf });
  lake = await startCatalogEmulator({
    auth: 'bearer',
    trustedTokens: gcs.principalOf,
    dataLocation: 'gs://e2e-lake/olake',
  });
});
afterAll(async () => {
  await lake.close();
  await catalog.close();
  await gcs.close();
});

function env(configDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FLOE_')));
  return { ...base, CI: 'true', FLOE_CONFIG_DIR: configDir, ...extra };
}

/** `floe setup --yes --preset biglake --storage gcs` with a key file; returns the config folder. */
async function setUp(catalogUrl: string): Promise<string> {
  const configDir = tempConfigDir();
  const keyFile = join(configDir, 'service-account.json');
  writeFileSync(
    keyFile,
    JSON.stringify({
      type: 'service_account',
      project_id: 'floe-e2e',
      private_key_id: 'e2e-key-1',
      private_key: PRIVATE_KEY,
      client_email: EMAIL,
      token_uri: gcs.tokenUrl,
    }),
    { mode: 0o600 },
  );
  const setup = await spawnCli(
    [
      'setup',
      '--yes',
      '--profile',
      'lake',
      '--preset',
      'biglake',
      '--catalog-url',
      catalogUrl,
      '--warehouse',
      'gs://e2e-lake/olake',
      '--storage',
      'gcs',
      '--gcp-service-account-file',
      keyFile,
      '--insecure-storage',
    ],
    env(configDir),
  );
  expect(setup.code, setup.stdout + setup.stderr).toBe(0);
  return configDir;
}

it('floe setup --preset biglake --storage gcs, then floe test --json: the GCS steps pass', async () => {
  const configDir = await setUp(catalog.url);

  const run = await spawnCli(
    ['test', '--profile', 'lake', '--json', '--timeout', '10'],
    env(configDir, { STORAGE_EMULATOR_HOST: gcs.url }),
  );
  const report = checkReportSchema.parse(JSON.parse(run.stdout));
  const storage = report.steps.filter((s) => s.chain === 'storage');
  expect(
    storage.map((s) => [s.id, s.state]),
    JSON.stringify(report.diagnoses),
  ).toEqual([
    ['storage.head', 'ok'],
    ['storage.list', 'ok'],
    ['storage.put', 'ok'],
    ['storage.get', 'ok'],
    ['storage.delete', 'ok'],
  ]);
  expect(storage[0]?.title).toContain('GCS');
  expect(report.diagnoses).toEqual([]);
  expect(report.ok).toBe(true);
  expect(run.code).toBe(0);
  expect(gcs.objects('e2e-lake').size).toBe(0);
  expect(
    gcs.requests.filter((r) => r.path.startsWith('/storage/v1/b/e2e-lake')).every((r) => r.email === EMAIL),
  ).toBe(true);
  // Neither the key nor a token in anything floe printed.
  for (const line of PRIVATE_KEY.split('\n').filter((l) => l && !l.startsWith('-----')))
    expect(run.stdout + run.stderr).not.toContain(line);
  expect(run.stdout + run.stderr).not.toContain('ya29.');
});

it('floe test --write --json: the write check writes, reads back and removes its gs:// files; the journal is cleared', async () => {
  const configDir = await setUp(lake.url);
  const run = await spawnCli(
    ['test', '--profile', 'lake', '--write', '--json', '--timeout', '10'],
    env(configDir, { STORAGE_EMULATOR_HOST: gcs.url }),
  );
  const report = checkReportSchema.parse(JSON.parse(run.stdout));
  expect(
    report.steps.filter((s) => s.chain === 'write').map((s) => [s.id, s.state]),
    JSON.stringify(report.diagnoses),
  ).toEqual([
    ['write.namespace', 'ok'],
    ['write.table', 'ok'],
    ['write.data', 'ok'],
    ['write.commit', 'ok'],
    ['write.verify', 'ok'],
    ['write.cleanup', 'ok'],
  ]);
  expect(report.steps.find((s) => s.id === 'write.data')?.detail).toMatch(/^gs:\/\/e2e-lake\/olake\//);
  expect(report.write?.rows).toBe(1);
  expect(report.write?.leftovers).toEqual([]);
  expect(run.code).toBe(0);
  expect(gcs.objects('e2e-lake').size).toBe(0);
  // Written before the first create, emptied as the cleanup removed everything.
  expect(JSON.parse(readFileSync(join(configDir, 'write-journal.json'), 'utf8'))).toEqual({
    version: 1,
    records: [],
  });
  for (const line of PRIVATE_KEY.split('\n').filter((l) => l && !l.startsWith('-----')))
    expect(run.stdout + run.stderr).not.toContain(line);
  expect(run.stdout + run.stderr).not.toContain('ya29.');
});
