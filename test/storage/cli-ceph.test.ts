// `floe test --json` from the built CLI (npm run build) against the real Ceph RGW: the bundled
// CLI loads the AWS SDK lazily and the storage half passes while the (absent) catalog fails.
import { beforeAll, describe, expect } from 'vitest';
import { checkReportSchema } from '../../src/check/types.js';
import { ConfigStore } from '../../src/config/store.js';
import { cephFromEnv, createCephBucket } from '../support/ceph.js';
import { runCli, tempConfigDir } from '../support/cli.js';
import { itWithService } from '../support/services.js';

const { status, info } = cephFromEnv();
const it = itWithService(status, 'Ceph RGW');
let configDir = '';

beforeAll(async () => {
  if (!info) return;
  await createCephBucket(info, 'floe-cli');
  configDir = tempConfigDir();
  new ConfigStore(configDir).saveProfile(
    'ceph',
    {
      preset: 'rest',
      authType: 'none',
      storage: 's3-compatible',
      targetVersion: 'latest',
      fields: {
        catalogUrl: 'http://127.0.0.1:9/api/catalog',
        warehouse: 's3://floe-cli/olake',
        region: info.region,
        s3Endpoint: info.endpoint,
      },
    },
    'env',
    [],
  );
});

describe('floe test against Ceph RGW', () => {
  it('--json: every storage step passes, with no secret in the output', () => {
    const { accessKey, secretKey } = info?.users.owner ?? { accessKey: '', secretKey: '' };
    const r = runCli(['test', '--json', '--timeout', '10'], {
      env: { FLOE_CONFIG_DIR: configDir, FLOE_ACCESS_KEY: accessKey, FLOE_SECRET_KEY: secretKey },
    });
    const report = checkReportSchema.parse(JSON.parse(r.stdout));
    const storage = report.steps.filter((s) => s.chain === 'storage');
    expect(storage.map((s) => [s.id, s.state])).toEqual([
      ['storage.head', 'ok'],
      ['storage.list', 'ok'],
      ['storage.put', 'ok'],
      ['storage.get', 'ok'],
      ['storage.delete', 'ok'],
    ]);
    expect(report.diagnoses.filter((d) => d.step.startsWith('storage.'))).toEqual([]);
    expect(r.stderr).toBe('');
    expect(r.stdout + r.stderr).not.toContain(secretKey);
    expect(r.stdout + r.stderr).not.toContain(accessKey);
  });
});
