// The connection-test screen on a wide real terminal uses the whole width (the connect step's
// DNS/TCP timings are readable, never cut), and its HTTP trace pages with PgUp/PgDn and g/G.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { SANDBOX, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { floe, tempDir } from './support.js';

let sandbox: Sandbox;
let configDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: 0 });
  configDir = tempDir('floe-e2e-wide-');
  new ConfigStore(configDir).saveProfile(
    'sandbox',
    {
      preset: 'rest',
      authType: 'token',
      storage: 's3-compatible',
      targetVersion: 'latest',
      fields: {
        catalogUrl: sandbox.catalog.url,
        warehouse: `s3://${SANDBOX.bucket}`,
        region: 'us-east-1',
        s3Endpoint: sandbox.s3.url,
      },
    },
    'env',
    [],
  );
});

afterAll(() => sandbox?.stop());

const position = (screen: string[]) =>
  /HTTP trace \(\d+\) · lines (\d+)–(\d+) of (\d+)/.exec(screen.join('\n'));

describe('the test screen on a 160x24 terminal', { timeout: 60_000 }, () => {
  it('uses the full width and pages the HTTP trace', async () => {
    const t = floe(configDir, {
      args: ['test', '--profile', 'sandbox'],
      cols: 160,
      env: {
        FLOE_TOKEN: SANDBOX.token,
        FLOE_ACCESS_KEY: sandbox.s3.accessKey,
        FLOE_SECRET_KEY: sandbox.s3.secretKey,
      },
    });
    const screen = await t.waitFor('✓ All checks passed');
    const connect = screen.find((line) => line.includes('Connect to the catalog')) ?? '';
    expect(connect).toMatch(/TCP/);
    expect(connect).not.toContain('…');
    expect(Math.max(...screen.map((line) => line.length))).toBeGreaterThan(80);

    await t.press('v');
    const first = position(await t.waitFor(/HTTP trace \(\d+\) · lines 1–/));
    const [, , end, total] = (first ?? []).map(Number);
    expect(total).toBeGreaterThan(end as number);
    expect(t.screen().join('\n')).toContain('PgUp/Dn scroll');
    await t.press('pgdn');
    const paged = position(await t.waitFor(/HTTP trace \(\d+\) · lines (?!1–)\d+–/));
    expect(Number(paged?.[1])).toBe(end as number);
    await t.press('G');
    await t.waitFor(new RegExp(`lines \\d+–${total} of ${total}`));
    await t.press('g');
    await t.waitFor(/HTTP trace \(\d+\) · lines 1–/);
    await t.press('q');
    expect(await t.exit()).toBe(0);
    expect(t.wrappedLines()).toEqual([]);
  });
});
