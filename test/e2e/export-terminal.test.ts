// floe export never prints a file with secrets onto a terminal: OLake's destination.json as
// --include-secrets already did, on a real pseudo-terminal.
import { expect, it } from 'vitest';
import { startTerminal } from '../../scripts/lib/terminal.mjs';
import { ConfigStore } from '../../src/config/store.js';
import { tempConfigDir } from '../support/cli.js';

it('floe export to a terminal: exit 2 naming --output, --redact or a pipe; the token is nowhere on screen', async () => {
  const dir = tempConfigDir();
  new ConfigStore(dir).saveProfile(
    'p',
    {
      preset: 'rest',
      authType: 'token',
      storage: 's3-compatible',
      targetVersion: 'latest',
      fields: {
        catalogUrl: 'http://127.0.0.1:8181/api/catalog',
        warehouse: 's3://warehouse',
        region: 'us-east-1',
        s3Endpoint: 'http://127.0.0.1:9000',
      },
    },
    'env',
    ['token'],
  );
  const t = startTerminal({
    args: ['export', '--profile', 'p'],
    env: { FLOE_CONFIG_DIR: dir, FLOE_TOKEN: 'SENTINEL-export-token-7711' },
  });
  expect(await t.exit()).toBe(2);
  expect(t.raw()).toContain('not printed to a terminal');
  expect(t.raw()).not.toContain('SENTINEL-export-token-7711');
  const redacted = startTerminal({
    args: ['export', '--profile', 'p', '--redact'],
    env: { FLOE_CONFIG_DIR: dir, FLOE_TOKEN: 'SENTINEL-export-token-7711' },
  });
  expect(await redacted.exit()).toBe(0);
  expect(redacted.raw()).toContain('"rest_catalog_url"');
  expect(redacted.raw()).not.toContain('SENTINEL-export-token-7711');
});
