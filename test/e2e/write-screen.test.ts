// The write check on the connection-test screen (built CLI, real pseudo-terminal, 80x24): w runs it
// and the screen fits; Ctrl-C in the middle of it leaves the screen at once, says it is cleaning up,
// and exits 130 only once the table and every file are gone.
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startTerminal } from '../../scripts/lib/terminal.mjs';
import { ConfigStore } from '../../src/config/store.js';
import { SANDBOX, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { sandboxProfile } from '../../src/sandbox/profile.js';
import { tempConfigDir } from '../support/cli.js';

let sandbox: Sandbox;
let configDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ catalog: 'polaris', jobs: 0, ports: { catalog: 0, olake: 0, s3: 0 } });
  const { catalog, s3 } = sandbox;
  const values = sandboxProfile({
    flavour: 'polaris',
    facts: catalog.facts,
    catalogUrl: catalog.url,
    tokenUrl: catalog.tokenUrl,
    s3,
  });
  configDir = tempConfigDir();
  new ConfigStore(configDir).saveProfile('sandbox', values, 'env', ['credential', 'accessKey', 'secretKey']);
});

afterAll(async () => {
  await sandbox.stop();
});

function startFloe(args: string[]) {
  const terminal = startTerminal({
    args,
    env: {
      FLOE_CONFIG_DIR: configDir,
      FLOE_CREDENTIAL: `${SANDBOX.oauth.clientId}:${SANDBOX.oauth.clientSecret}`,
      FLOE_ACCESS_KEY: sandbox.s3.accessKey,
      FLOE_SECRET_KEY: sandbox.s3.secretKey,
    },
  });
  onTestFailed(() => {
    console.error(`screen at failure:\n${terminal.screen().join('\n')}`);
  });
  return terminal;
}

async function objects(): Promise<string[]> {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: sandbox.s3.url,
    forcePathStyle: true,
    credentials: { accessKeyId: sandbox.s3.accessKey, secretAccessKey: sandbox.s3.secretKey },
  });
  try {
    const out = await client.send(new ListObjectsV2Command({ Bucket: sandbox.s3.bucket }));
    return (out.Contents ?? []).map((o) => o.Key ?? '');
  } finally {
    client.destroy();
  }
}

describe('the write check on the test screen', () => {
  it('w runs it: three chains fit 80x24, the passed ones folded; q leaves with exit 0', async () => {
    const floe = startFloe(['test', '--profile', 'sandbox']);
    await floe.waitFor('All checks passed');
    expect(floe.screen().join('\n')).toContain('w write');
    floe.write('w');
    await floe.waitFor('with write check');
    await floe.waitFor('All checks passed');
    const screen = floe.screen().join('\n');
    expect(screen).toContain('Catalog ✓ 4 steps passed');
    expect(screen).toMatch(/✓ Drop the table and its files +\d+ ms/);
    for (const line of floe.screen()) expect(line.length).toBeLessThanOrEqual(80);
    floe.write('q');
    expect(await floe.exit()).toBe(0);
    expect(await objects()).toEqual([]);
  });

  it('Ctrl-C during the commit: the screen leaves, the cleanup finishes, then exit 130', async () => {
    sandbox.catalog.bearer.setFault({ kind: 'slow', delayMs: 20_000 }, 'commit');
    try {
      const floe = startFloe(['test', '--profile', 'sandbox', '--write', '--timeout', '30']);
      await floe.waitFor(/✓ Write a Parquet data file/);
      floe.write('\x03');
      expect(await floe.exit()).toBe(130);
      expect(floe.raw()).toContain('floe: interrupted; cleaning up what the test made…');
      expect(floe.raw()).toContain('\u001B[?25h');
      expect(await objects()).toEqual([]);
      const deleted = sandbox.catalog.bearer.requests
        .filter((r) => r.method === 'DELETE')
        .map((r) => r.url.split('?')[0] ?? '');
      expect(deleted.some((u) => u.endsWith('/namespaces/test_olake'))).toBe(true);
    } finally {
      sandbox.catalog.bearer.setFault(null, 'commit');
    }
  });
});
