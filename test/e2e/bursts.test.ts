// Keys in bursts on a real terminal: every key of one write is acted on, in order, like keys arriving
// over SSH, from tmux send-keys or an expect script. Each write goes out at once (no waiting for the
// screen between keys); the assertions are on the final field values and screen.
import { describe, expect, it } from 'vitest';
import { startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { runCli } from '../support/cli.js';
import { floe, tempDir } from './support.js';

const TOKEN = 'SENTINEL-burst-token-5e2a';

/** The setup wizard, on the catalog form of a bearer-token profile. */
async function wizardOnTokenForm(configDir: string) {
  const t = floe(configDir, { args: ['setup', '--profile', 'e2e', '--insecure-storage', '--skip-test'] });
  await t.waitFor('› ● Generic REST catalog');
  // The choices and the first keys of the next screen in one write: they go to the form, not the lists.
  t.burst('enter', 'down', 'enter', 'http://127.0.0.1:8181', 'tab');
  await t.waitFor(/^› Warehouse/m);
  return t;
}

describe('keys in bursts', { timeout: 90_000 }, () => {
  it('types, moves and deletes with every key of one write', async () => {
    const t = await wizardOnTokenForm(tempDir('floe-e2e-burst-'));
    t.burst('s3://warehouse/olake', 'enter', 'us-east-1xyzq', ...Array(4).fill('backspace'), 'tab');
    const form = (await t.waitFor(/^› Token/m)).join('\n');
    expect(form).toMatch(/REST Catalog URL\* +http:\/\/127\.0\.0\.1:8181$/m);
    expect(form).toMatch(/Warehouse\* +s3:\/\/warehouse\/olake$/m);
    expect(form).toMatch(/Region\* +us-east-1$/m);
    expect(form).not.toContain('✗');
  });

  it('puts the first line of a bracketed paste into the field and does not submit it', async () => {
    const t = await wizardOnTokenForm(tempDir('floe-e2e-burst-'));
    t.burst('shiftTab');
    await t.waitFor(/^› REST Catalog URL/m);
    t.burst('down', 'down', 'down');
    await t.waitFor(/^› Token/m);
    t.paste(`${TOKEN}\nsecond line of the clipboard`);
    const screen = (await t.waitFor(new RegExp(`^› Token\\* +•{${TOKEN.length}}$`, 'm'))).join('\n');
    expect(screen).toContain('step 3 of 7');
    expect(screen).not.toContain('second line');
    expect(t.raw()).not.toContain(TOKEN);
  });

  it('saves a profile typed as one write, from the home screen on', async () => {
    const configDir = tempDir('floe-e2e-burst-');
    const t = floe(configDir);
    await t.waitFor('No profiles yet');
    // "n", a name (replacing the suggested "default") and Enter leave the home screen; the rest of the
    // write goes to the wizard.
    t.burst(
      'n',
      ...Array(7).fill('backspace'),
      'burst',
      'enter',
      'enter',
      'enter',
      'http://127.0.0.1:1/api/catalog',
      'enter',
      's3://warehouse',
      'enter',
      'us-east-1',
      'enter',
    );
    await t.waitFor('step 4 of 7');
    t.burst(
      'down',
      'enter',
      'http://127.0.0.1:9000',
      'enter',
      'enter',
      'AKIABURST01',
      'enter',
      'SECRETBURST01',
      'enter',
    );
    await t.waitFor('step 6 of 7');
    for (let i = 0; i < 5 && !t.screen().join('\n').includes('Review: check the values'); i++)
      await t.press('enter');
    await t.waitFor('Review: check the values');
    t.burst('enter');
    await t.waitFor(/Profiles|Connection test/);
    t.kill();
    const result = runCli(['export', '--profile', 'burst'], { env: { FLOE_CONFIG_DIR: configDir } });
    expect(result.status, result.stderr).toBe(0);
    const exported = JSON.parse(result.stdout) as { writer: Record<string, unknown> };
    expect(exported.writer).toMatchObject({
      catalog_type: 'rest',
      rest_catalog_url: 'http://127.0.0.1:1/api/catalog',
      s3_endpoint: 'http://127.0.0.1:9000',
      aws_access_key: 'AKIABURST01',
      aws_secret_key: 'SECRETBURST01',
    });
  });

  it('answers the password prompt and the next question from one write', async () => {
    const ui = await startOlakeUiEmulator({ jobs: [], users: { admin: 'burst-pw' } });
    try {
      const t = floe(tempDir('floe-e2e-burst-'), { args: ['login', '--url', ui.url, '--insecure-storage'] });
      await t.waitFor(/Password for admin at .*:$/m);
      t.burst('burst-pw', 'enter', 'n', 'enter');
      expect(await t.exit()).toBe(0);
      expect(t.screen().join('\n')).toContain(`✓ Logged in to ${ui.url} as admin`);
    } finally {
      await ui.close();
    }
  });
});
