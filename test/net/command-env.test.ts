// Commands read the environment they are given (io.env), not the process's: floe run in process with
// HTTPS_PROXY / HTTP_PROXY or STORAGE_EMULATOR_HOST only in its Io's env uses them, while the process's
// own are set to nothing. Before issue 31's threading these clients read process.env and went direct.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkReportSchema } from '../../src/check/types.js';
import { ConfigStore } from '../../src/config/store.js';
import { sandboxSecretEnv } from '../../src/sandbox/demo.js';
import { SANDBOX, type Sandbox, sandboxValues, startSandbox } from '../../src/sandbox/index.js';
import { tempConfigDir } from '../support/cli.js';
import { ConnectProxy } from '../support/connect-proxy.js';
import { floeRun } from '../support/in-process.js';

/** The process's proxy and emulator variables, emptied ('' counts as unset, for floe and undici). */
const PROCESS_ONLY = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'STORAGE_EMULATOR_HOST'];

beforeEach(() => {
  for (const name of PROCESS_ONLY) vi.stubEnv(name, '');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('proxies from the Io env', () => {
  let sandbox: Sandbox;
  let proxy: ConnectProxy;
  let proxyUrl: string;
  let configDir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 1 });
    proxy = new ConnectProxy();
    proxyUrl = await proxy.listen();
    configDir = tempConfigDir();
    new ConfigStore(configDir).saveProfile('sandbox', sandboxValues(sandbox), 'env', []);
  });
  afterAll(async () => {
    await proxy?.close();
    await sandbox?.stop();
  });

  const through = () => ({
    HTTPS_PROXY: proxyUrl,
    https_proxy: proxyUrl,
    HTTP_PROXY: proxyUrl,
    http_proxy: proxyUrl,
    NO_PROXY: '',
    no_proxy: '',
  });

  it('floe test: the catalog and the object store are reached through the Io env proxy', async () => {
    proxy.targets.length = 0;
    const run = await floeRun(['test', '--json'], {
      env: { FLOE_CONFIG_DIR: configDir, ...sandboxSecretEnv(sandbox), ...through() },
    });
    expect(run.status, run.stderr).toBe(0);
    const report = checkReportSchema.parse(JSON.parse(run.stdout));
    expect(report.steps.find((s) => s.id === 'catalog.connect')?.detail).toContain(
      `through proxy ${proxyUrl}`,
    );
    expect(proxy.targets).toContain(new URL(sandbox.catalog.url).host);
    expect(proxy.targets).toContain(new URL(sandbox.s3.url).host);
  });

  it('floe tables: the catalog session goes through the Io env proxy', async () => {
    proxy.targets.length = 0;
    const run = await floeRun(['tables', '--json'], {
      env: { FLOE_CONFIG_DIR: configDir, ...sandboxSecretEnv(sandbox), ...through() },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(proxy.targets).toContain(new URL(sandbox.catalog.url).host);
  });

  it('floe login: the OLake UI client goes through the Io env proxy', async () => {
    proxy.targets.length = 0;
    const run = await floeRun(
      ['login', '--url', sandbox.olake.url, '--username', SANDBOX.olake.username, '--password-stdin'],
      { env: { FLOE_CONFIG_DIR: tempConfigDir(), ...through() }, input: SANDBOX.olake.password },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(proxy.targets).toContain(new URL(sandbox.olake.url).host);
  });

  it('a proxy the Io env names that refuses the tunnel is the one the diagnosis names', async () => {
    proxy.deny = true;
    try {
      const run = await floeRun(['test', '--json'], {
        env: { FLOE_CONFIG_DIR: configDir, ...sandboxSecretEnv(sandbox), ...through() },
      });
      expect(run.status).toBe(1);
      const report = checkReportSchema.parse(JSON.parse(run.stdout));
      expect(report.diagnoses.find((d) => d.step === 'catalog.connect')?.code).toBe('CATALOG_PROXY_CONNECT');
      expect(report.diagnoses.find((d) => d.step === 'storage.head')?.evidence.extra?.proxy).toBe(proxyUrl);
    } finally {
      proxy.deny = false;
    }
  });
});

describe('STORAGE_EMULATOR_HOST from the Io env', () => {
  let sandbox: Sandbox;
  let configDir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({
      ports: { catalog: 0, olake: 0, s3: 0, gcs: 0 },
      jobs: 1,
      catalog: 'biglake',
    });
    configDir = tempConfigDir();
    new ConfigStore(configDir).saveProfile('sandbox', sandboxValues(sandbox), 'env', []);
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it('floe test on a gs:// warehouse reaches the Cloud Storage emulator the Io env names', async () => {
    const env = sandboxSecretEnv(sandbox);
    expect(env.STORAGE_EMULATOR_HOST).toBe(sandbox.gcs?.url);
    const run = await floeRun(['test', '--json'], { env: { FLOE_CONFIG_DIR: configDir, ...env } });
    expect(run.status, run.stdout).toBe(0);
    const report = checkReportSchema.parse(JSON.parse(run.stdout));
    expect(report.steps.find((s) => s.id === 'storage.put')?.state).toBe('ok');
    const head = report.steps.find((s) => s.id === 'storage.head');
    expect(head?.state).toBe('ok');
  });
});
