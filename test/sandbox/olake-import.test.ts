// Issue 29, item 1: a profile imported from the destination.json OLake holds for each sandbox flavour
// (the seeded jobs' destination: no data-location key, a warehouse that is a name for Lakekeeper, Unity,
// Glue and S3 Tables) passes `floe test` and `floe test --write`: the storage probe finds its location in
// the catalog (config, namespace) or, under --write, at the table the catalog creates. BigLake's
// warehouse is its gs:// bucket: the GCS probe checks it (through the sandbox's Cloud Storage emulator,
// STORAGE_EMULATOR_HOST from sandboxSecretEnv, in the command's env), and the write check writes its
// table there. floe runs in process (management/support.ts; the secrets are in the environment, no
// keychain is asked).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckReport, checkReportSchema } from '../../src/check/types.js';
import { toDestinationJson } from '../../src/destination/olake.js';
import { sandboxSecretEnv } from '../../src/sandbox/demo.js';
import { CATALOG_FLAVOURS, type Sandbox, sandboxValues, startSandbox } from '../../src/sandbox/index.js';
import { floe, tempConfigDir } from '../management/support.js';

const FLAVOURS = CATALOG_FLAVOURS.filter((f) => f !== 'rest');
/** Where `floe test` finds the location: Polaris's config, Nessie's warehouse (an s3:// location); else none. */
const PLAIN_SOURCE: Partial<Record<(typeof FLAVOURS)[number], string>> = {
  polaris: "the catalog's config (defaults.default-base-location)",
  nessie: 'the Warehouse',
};

/** `floe test` of the imported profile, in process. */
async function test(configDir: string, env: Record<string, string>, write: boolean) {
  const args = ['test', '--json', '--profile', 'imported', ...(write ? ['--write'] : [])];
  const run = await floe(args, { configDir, env, keychain: 'unavailable' });
  const report: CheckReport = checkReportSchema.parse(JSON.parse(run.stdout));
  return { run, report };
}

describe.each(FLAVOURS)('a profile imported from the %s sandbox’s OLake destination.json', (flavour) => {
  let sandbox: Sandbox;
  let configDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandbox({
      ports: { catalog: 0, olake: 0, s3: 0, gcs: 0 },
      jobs: 1,
      catalog: flavour,
    });
    configDir = tempConfigDir();
    env = sandboxSecretEnv(sandbox);
    const destination = toDestinationJson(sandboxValues(sandbox));
    expect(JSON.stringify(destination)).not.toMatch(/data_location/i);
    const imported = await floe(['import', '-', '--profile', 'imported', '--env-secrets'], {
      configDir,
      env,
      input: JSON.stringify(destination),
      keychain: 'unavailable',
    });
    expect(imported.code, imported.stderr).toBe(0);
  });
  afterAll(async () => {
    await sandbox.stop();
  });

  it('floe test exits 0; the probe says where its location came from, or warns what to set', async () => {
    const { run, report } = await test(configDir, env, false);
    expect(run.code, run.stdout).toBe(0);
    expect(report.diagnoses).toEqual([]);
    const head = report.steps.find((s) => s.id === 'storage.head');
    if (flavour === 'biglake') {
      expect(head?.detail).toMatch(/^bucket "warehouse" exists in US \(from the Warehouse\); signed in as /);
      return;
    }
    const source = PLAIN_SOURCE[flavour];
    if (source) expect(head?.detail).toMatch(/\(probing s3:\/\/\S+ from /);
    if (source) expect(head?.detail?.endsWith(`from ${source})`)).toBe(true);
    else {
      expect(head?.state).toBe('skipped');
      expect(report.warnings.join('\n')).toContain(
        'namespace test_olake does not exist; floe test --write would learn the location the catalog gives a new table). Set Data Location',
      );
    }
  });

  it('floe test --write exits 0 and the probe writes where the catalog put the table', async () => {
    const { run, report } = await test(configDir, env, true);
    expect(run.code, run.stdout).toBe(0);
    expect(report.ok).toBe(true);
    for (const step of report.steps)
      expect(step.state, `${step.id}: ${step.detail ?? ''}`).toMatch(/^(ok|skipped)$/);
    expect(report.steps.find((s) => s.id === 'storage.put')?.state).toBe('ok');
    expect(report.steps.find((s) => s.id === 'write.cleanup')?.state).toBe('ok');
    const head = report.steps.find((s) => s.id === 'storage.head')?.detail ?? '';
    if (flavour === 'biglake') {
      // The table at the catalog's gs:// location, its data file written and read back through GCS.
      expect(report.steps.find((s) => s.id === 'write.data')?.detail).toMatch(
        /^gs:\/\/warehouse\/test_olake\/floe_check_\w+\/data\/\S+\.parquet \(\d+ bytes, 1 record\)$/,
      );
      expect(head).toContain('(from the Warehouse)');
      return;
    }
    const table = /\sat (s3:\/\/\S+)$/.exec(report.steps.find((s) => s.id === 'write.table')?.detail ?? '');
    expect(head).toContain(
      PLAIN_SOURCE[flavour] ??
        `(probing ${table?.[1]}/ from the location the catalog gave the write check’s table)`,
    );
  });
});
