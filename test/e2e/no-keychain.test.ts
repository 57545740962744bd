// The wizard on a host without a keychain (no D-Bus, as over SSH), on a real 80x24 terminal:
// "Don't store" keeps the secrets just typed for the connection test right after (never written),
// and editing a file-backed profile neither asks again where secrets go nor misstates it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { runCli } from '../support/cli.js';
import { expectCleanOutput, floe, type Terminal, tempDir } from './support.js';

const TOKEN = 'SENTINEL-nokc-token-5e2a';
const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/floe-test-bus' };
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function fill(t: Terminal, label: string, value: string, shown = value): Promise<void> {
  await t.waitFor(new RegExp(`^› ${escapeRegExp(label)}\\*?( |$)`, 'm'));
  await t.press(value);
  await t.waitFor(new RegExp(`^› ${escapeRegExp(label)}\\*? +${escapeRegExp(shown)}$`, 'm'));
  await t.press('enter');
}

/** Enter until the review shows. */
async function toReview(t: Terminal): Promise<string> {
  for (let i = 0; i < 20 && !t.screen().join('\n').includes('Review: check the values'); i++)
    await t.press('enter');
  return (await t.waitFor('Review: check the values')).join('\n');
}

describe('the wizard without a keychain', { timeout: 90_000 }, () => {
  it('"Don\'t store": the automatic test runs with the token just typed, which is never written', async () => {
    const configDir = tempDir('floe-e2e-nokc-');
    const t = floe(configDir, { args: ['setup', '--profile', 'e2e'], env: NO_KEYCHAIN });
    await t.waitFor('› ● Generic REST catalog');
    await t.press('enter');
    await t.waitFor('Authentication type');
    for (let i = 0; i < 5 && !t.screen().includes('› ● Bearer token'); i++) await t.press('down');
    await t.waitFor('› ● Bearer token');
    await t.press('enter');
    await fill(t, 'REST Catalog URL', 'http://127.0.0.1:1/api/catalog');
    await fill(t, 'Warehouse', 's3://warehouse/olake');
    await fill(t, 'Region', 'us-east-1');
    await fill(t, 'Token', TOKEN, '•'.repeat(TOKEN.length));
    await toReview(t);
    await t.press('enter');
    await t.waitFor('Where should the secrets');
    await t.press('down');
    await t.waitFor("› ● Don't store them");
    await t.press('enter');
    const screen = (await t.waitFor(/checks failed/)).join('\n');
    expect(screen).toContain('Catalog');
    expect(t.raw()).not.toContain('has no value for');
    await t.press('q');
    expect(await t.exit()).toBe(1);
    expect(new ConfigStore(configDir).getProfile('e2e')).toMatchObject({
      secretStorage: 'env',
      storedSecrets: [],
    });
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).not.toContain(TOKEN);
    expectCleanOutput(t, [TOKEN], { frames: false });
  });

  it('editing a file-backed profile: the review names the file, and saving asks nothing', async () => {
    const configDir = tempDir('floe-e2e-nokc-');
    const created = runCli(
      [
        'setup',
        '--yes',
        '--profile',
        'e2e',
        '--auth-type',
        'token',
        '--token-stdin',
        '--insecure-storage',
      ].concat([
        '--catalog-url',
        'http://127.0.0.1:1/api/catalog',
        '--warehouse',
        's3://warehouse',
        '--region',
        'us-east-1',
      ]),
      { env: { FLOE_CONFIG_DIR: configDir }, input: TOKEN },
    );
    expect(created.status, created.stderr).toBe(0);
    const t = floe(configDir, { args: ['setup', '--profile', 'e2e', '--skip-test'], env: NO_KEYCHAIN });
    // An existing profile opens on its review.
    const review = (await t.waitFor('Review: check the values')).join('\n');
    expect(review).toContain('Secrets: the plaintext file');
    expect(review).not.toContain('the OS keychain');
    await t.press('enter');
    await t.waitFor('Saved profile "e2e"');
    expect(await t.exit()).toBe(0);
    expect(t.raw()).not.toContain('Where should the secrets');
    expect(new ConfigStore(configDir).getProfile('e2e')?.secretStorage).toBe('file');
  });
});
