// Every catalog flavour end to end, as a script would do it: `floe setup --yes --preset FLAVOUR …` with the
// catalog secret on stdin, then `floe test --json` against the catalog emulator in that flavour's mode and
// a real Ceph RGW; then the same profile with a wrong secret, which must give the flavour's diagnosis.
// The commands run in process (test/support/in-process.ts); test/artifact runs each flavour on the built
// CLI, the package and the single file.
import { afterEach, beforeAll, describe, expect } from 'vitest';
import { type CheckReport, checkReportSchema } from '../../src/check/types.js';
import {
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  type CatalogFlavour,
  DEFAULT_WAREHOUSES,
  startCatalogEmulator,
} from '../../src/sandbox/catalog/index.js';
import { cephFromEnv, createCephBucket } from '../support/ceph.js';
import { tempConfigDir } from '../support/cli.js';
import { floeInProcess, keychainOf } from '../support/in-process.js';
import { itWithService } from '../support/services.js';

const { status, info } = cephFromEnv();
const it = itWithService(status, 'Ceph RGW');
const BUCKET = 'floe-flavours';
const CLIENT = { id: 'olake-client', secret: 'SENTINEL-flavour-secret-51ab' };
const TOKEN = 'SENTINEL-flavour-token-8c2d';

let emulator: CatalogEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

beforeAll(async () => {
  if (info) await createCephBucket(info, BUCKET);
});

interface Case {
  flavour: CatalogFlavour;
  emulator: () => CatalogEmulatorOptions;
  /** Flags beyond the common ones; `url` is the emulator's. */
  flags: (emu: CatalogEmulator) => string[];
  /** The catalog secret: stdin flag and value. */
  secret?: { flag: string; value: string; env: string; wrong: string };
  /** The diagnosis a wrong secret gives. */
  wrong: string;
}

const oauth2 = (tokenPath?: string): Pick<CatalogEmulatorOptions, 'auth' | 'clients' | 'tokenPath'> => ({
  auth: 'bearer',
  clients: [{ id: CLIENT.id, secret: CLIENT.secret }],
  ...(tokenPath ? { tokenPath } : {}),
});
const CREDENTIAL = {
  flag: '--credential-stdin',
  value: `${CLIENT.id}:${CLIENT.secret}`,
  env: 'FLOE_CREDENTIAL',
  wrong: `${CLIENT.id}:not-the-secret`,
};
const sigv4 = (service: string): CatalogEmulatorOptions => ({
  auth: 'sigv4',
  sigv4: {
    service,
    region: 'us-east-1',
    keys: [
      {
        accessKeyId: info?.users.owner.accessKey ?? '',
        secretAccessKey: info?.users.owner.secretKey ?? '',
        arn: 'arn:aws:iam::123456789012:user/olake',
      },
    ],
  },
});

const CASES: Case[] = [
  {
    flavour: 'polaris',
    emulator: () => ({ flavour: 'polaris', basePath: '/api/catalog', ...oauth2() }),
    flags: () => ['--warehouse', DEFAULT_WAREHOUSES.polaris],
    secret: CREDENTIAL,
    wrong: 'CATALOG_OAUTH_UNAUTHORIZED_CLIENT',
  },
  {
    flavour: 'lakekeeper',
    emulator: () => ({ flavour: 'lakekeeper', basePath: '/catalog', ...oauth2('/realms/iceberg/token') }),
    flags: (emu) => ['--warehouse', DEFAULT_WAREHOUSES.lakekeeper, '--oauth2-uri', emu.tokenUrl],
    secret: CREDENTIAL,
    wrong: 'CATALOG_OAUTH_INVALID_CLIENT',
  },
  {
    flavour: 'nessie',
    emulator: () => ({ flavour: 'nessie', basePath: '/iceberg', ...oauth2('/realms/nessie/token') }),
    flags: (emu) => ['--warehouse', DEFAULT_WAREHOUSES.nessie, '--oauth2-uri', emu.tokenUrl],
    secret: CREDENTIAL,
    wrong: 'CATALOG_OAUTH_INVALID_CLIENT',
  },
  {
    flavour: 'unity',
    emulator: () => ({
      flavour: 'unity',
      basePath: '/api/2.1/unity-catalog/iceberg',
      auth: 'bearer',
      tokens: [TOKEN],
    }),
    flags: () => ['--warehouse', DEFAULT_WAREHOUSES.unity],
    secret: { flag: '--token-stdin', value: TOKEN, env: 'FLOE_TOKEN', wrong: 'not-the-token' },
    wrong: 'CATALOG_UNAUTHORIZED',
  },
  {
    flavour: 'glue',
    emulator: () => ({ flavour: 'glue', basePath: '/iceberg', ...sigv4('glue') }),
    flags: () => ['--warehouse', DEFAULT_WAREHOUSES.glue, '--signing-region', 'us-east-1'],
    wrong: 'CATALOG_SIGV4_SIGNATURE_MISMATCH',
  },
  {
    flavour: 's3tables',
    emulator: () => ({ flavour: 's3tables', basePath: '/iceberg', ...sigv4('s3tables') }),
    flags: () => ['--warehouse', DEFAULT_WAREHOUSES.s3tables, '--signing-region', 'us-east-1'],
    wrong: 'CATALOG_SIGV4_SIGNATURE_MISMATCH',
  },
  {
    flavour: 'rest',
    emulator: () => ({ ...oauth2('/token'), warehouses: [`s3://${BUCKET}/rest`] }),
    flags: (emu) => [
      '--warehouse',
      `s3://${BUCKET}/rest`,
      '--oauth2-uri',
      emu.tokenUrl,
      '--auth-type',
      'oauth2',
    ],
    secret: CREDENTIAL,
    wrong: 'CATALOG_OAUTH_INVALID_CLIENT',
  },
];

function env(configDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('FLOE_')));
  return { ...base, CI: 'true', FLOE_CONFIG_DIR: configDir, ...extra };
}

async function setUp(c: Case, emu: CatalogEmulator, extra: string[] = []): Promise<string> {
  const configDir = tempConfigDir();
  const owner = info?.users.owner ?? { accessKey: '', secretKey: '' };
  const args = [
    'setup',
    '--yes',
    '--profile',
    c.flavour,
    '--preset',
    c.flavour,
    '--catalog-url',
    emu.url,
    '--region',
    'us-east-1',
    ...c.flags(emu),
    ...(c.secret ? [c.secret.flag] : []),
    '--storage',
    's3-compatible',
    '--s3-endpoint',
    info?.endpoint ?? '',
    '--access-key',
    owner.accessKey,
    '--insecure-storage',
    ...extra,
  ];
  const setupEnv = env(configDir, { FLOE_SECRET_KEY: owner.secretKey });
  const r = await floeInProcess(args, {
    env: setupEnv,
    stdin: c.secret?.value ?? '',
    keychain: keychainOf(setupEnv),
  });
  expect(r.code, r.stderr).toBe(0);
  return configDir;
}

async function test(c: Case, configDir: string, extra: Record<string, string> = {}) {
  const testEnv = env(configDir, extra);
  const r = await floeInProcess(['test', '--profile', c.flavour, '--json', '--timeout', '10'], {
    env: testEnv,
    keychain: keychainOf(testEnv),
  });
  const report: CheckReport = checkReportSchema.parse(JSON.parse(r.stdout));
  return { code: r.code, report, output: r.stdout + r.stderr };
}

describe('floe setup --preset, then floe test, against each catalog flavour and Ceph RGW', () => {
  describe.each(CASES)('$flavour', (c) => {
    it('passes, and a wrong secret gives the flavour’s diagnosis', async () => {
      emulator = await startCatalogEmulator(c.emulator());
      const configDir = await setUp(c, emulator, ['--data-location', `s3://${BUCKET}/${c.flavour}`]);
      const ok = await test(c, configDir);
      expect(ok.report.diagnoses).toEqual([]);
      expect(ok.report.steps.filter((s) => s.state !== 'ok').map((s) => s.id)).toEqual(
        c.flavour === 'unity' || c.flavour === 'glue' || c.flavour === 's3tables' ? ['catalog.token'] : [],
      );
      expect(ok.code).toBe(0);
      expect(ok.report.steps.find((s) => s.id === 'storage.put')?.detail).toContain(
        `${c.flavour}/.floe-probe/`,
      );

      const wrong = c.secret
        ? await test(c, configDir, { [c.secret.env]: c.secret.wrong })
        : await test(c, configDir, { FLOE_SECRET_KEY: 'not-the-secret-key' });
      expect(wrong.code).toBe(1);
      expect(wrong.report.diagnoses.map((d) => d.code)).toContain(c.wrong);
      for (const secret of [CLIENT.secret, TOKEN, info?.users.owner.secretKey ?? ''])
        expect(ok.output + wrong.output).not.toContain(secret);
    });
  });

  it('polaris without a Data Location: the storage check writes where the catalog says', async () => {
    const c = CASES[0]!;
    emulator = await startCatalogEmulator({ ...c.emulator(), dataLocation: `s3://${BUCKET}/from-polaris` });
    const configDir = await setUp(c, emulator);
    const { code, report } = await test(c, configDir);
    expect(report.diagnoses).toEqual([]);
    expect(code).toBe(0);
    expect(report.steps.find((s) => s.id === 'storage.head')?.detail).toBe(
      `bucket "${BUCKET}" exists (probing s3://${BUCKET}/from-polaris/ from the catalog's config (defaults.default-base-location))`,
    );
    expect(report.steps.find((s) => s.id === 'storage.put')?.detail).toContain('from-polaris/.floe-probe/');
  });
});
