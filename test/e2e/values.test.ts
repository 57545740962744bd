// Issue 19 on a real 80x24 terminal: what the wizard saves is what the user typed or knowingly kept.
// A derived value can be retyped, FLOE_* variables are shown with their source and saved only when
// kept, switching catalog drops the previous one's values and says so, and Esc/q leave setup. Keys
// are sent one at a time and, where it matters, in one burst.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { floe, type Terminal, tempDir } from './support.js';

const GLUE_URL = 'https://glue.us-east-1.amazonaws.com/iceberg';
const ACCESS = 'AKIAENVIRONMENTEKEY';
const SECRET = 'SENTINEL-env-secret-key-19aa';
const CTRL_U = '\u0015';

const text = (t: Terminal) => t.screen().join('\n');

async function choosePreset(t: Terminal, label: string): Promise<void> {
  await t.waitFor('Catalog: which Iceberg REST catalog');
  for (let i = 0; i < 12 && !text(t).includes(`› ● ${label}`); i++) await t.press('down');
  await t.waitFor(`› ● ${label}`);
  await t.press('enter');
  // Glue offers one authentication type (SigV4): the form follows at once, saying so (issue 30).
  await t.waitFor('Catalog and authentication');
}

/** Glue up to its form, with the URL typed: Region is then derived from the URL (us-east-1). */
async function glueWithUrl(t: Terminal): Promise<void> {
  await choosePreset(t, 'AWS Glue');
  await t.press(GLUE_URL);
  await t.press('enter');
  await t.waitFor(/› Glue Catalog ID/);
  await t.press('123456789012', 'enter');
  await t.waitFor(/^› Region\* +us-east-1$/m);
  await t.waitFor('Suggested by floe: type to replace it.');
}

function exported(
  configDir: string,
  name: string,
  env: Record<string, string> = {},
): Record<string, unknown> {
  const result = runCli(['export', '--profile', name], {
    env: { FLOE_CONFIG_DIR: configDir, ...env },
  });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe('issue 19: the wizard keeps what the user typed', { timeout: 90_000 }, () => {
  it('retypes a derived Region after Ctrl-U, key by key', async () => {
    const t = floe(tempDir('floe-e2e-i19-'), { args: ['setup', '--profile', 'g', '--skip-test'] });
    await glueWithUrl(t);
    await t.press(CTRL_U);
    await t.waitFor(/^› Region\*\s*$/m);
    for (const key of 'eu-west-1') await t.press(key);
    await t.waitFor(/^› Region\* +eu-west-1$/m);
    await t.press('backspace', 'backspace', 'backspace', 'backspace', 'backspace', 'backspace');
    await t.press('backspace', 'backspace', 'backspace');
    await t.waitFor(/^› Region\*\s*$/m);
    await t.press('x');
    await t.waitFor(/^› Region\* +x$/m);
  });

  it('retypes a derived Region after Ctrl-U, in one burst', async () => {
    const t = floe(tempDir('floe-e2e-i19-'), { args: ['setup', '--profile', 'g', '--skip-test'] });
    await glueWithUrl(t);
    t.burst(CTRL_U, 'eu-west-1', 'tab');
    await t.waitFor(/^ {2}Region\* +eu-west-1$/m);
    expect(text(t)).not.toContain('us-east-1eu-west-1');
  });

  it('switching from Glue to Lakekeeper drops the Glue URL and Catalog ID and says so', async () => {
    const t = floe(tempDir('floe-e2e-i19-'), { args: ['setup', '--profile', 'g', '--skip-test'] });
    await glueWithUrl(t);
    await t.press('esc');
    await t.waitFor('Catalog: which Iceberg REST catalog');
    for (let i = 0; i < 12 && !text(t).includes('› ● Lakekeeper'); i++) await t.press('up');
    await t.press('enter');
    await t.waitFor('Dropped what applied to AWS Glue (Iceberg REST)');
    expect(text(t)).toContain('REST Catalog URL');
    await t.press('enter');
    const form = (await t.waitFor('Catalog and authentication')).join('\n');
    expect(form).toMatch(/^ {2}REST Catalog URL\* +\(required\)$/m);
    expect(form).toMatch(/^ {2}Lakekeeper Warehouse\* +\(required\)$/m);
    expect(form).toContain('Glue Catalog ID (123456789012)');
  });

  it('Esc on the first step leaves at once; after a change it asks, and n stays', async () => {
    const dir = tempDir('floe-e2e-i19-');
    const quiet = floe(dir, { args: ['setup', '--profile', 'g'] });
    await quiet.waitFor('Catalog: which Iceberg REST catalog');
    await quiet.press('esc');
    expect(await quiet.exit()).toBe(0);
    expect(quiet.raw()).toContain('Setup left: nothing was saved');

    const asked = floe(dir, { args: ['setup', '--profile', 'g'] });
    await choosePreset(asked, 'AWS Glue');
    // On the form q is text: back on the catalog list (a choice), q asks.
    await asked.press('esc');
    await asked.waitFor('Catalog: which Iceberg REST catalog');
    await asked.press('q');
    await asked.waitFor('Leave setup?');
    await asked.press('n');
    await asked.waitFor('Catalog: which Iceberg REST catalog');
    asked.burst('esc', 'y');
    expect(await asked.exit()).toBe(0);
    expect(runCli(['profiles', 'list'], { env: { FLOE_CONFIG_DIR: dir } }).stdout).not.toContain('g ');
  });

  // Item 13: on a host without a D-Bus session the review says the keychain cannot be reached.
  it('the review of a host without a keychain says so before saving', async () => {
    const t = floe(tempDir('floe-e2e-i19-'), {
      args: [
        'setup',
        '--profile',
        'g',
        '--skip-test',
        '--auth-type',
        'none',
        '--catalog-url',
        'http://127.0.0.1:1/c',
        '--warehouse',
        'w',
        '--region',
        'us-east-1',
      ],
      env: { DBUS_SESSION_BUS_ADDRESS: '' },
    });
    await t.waitFor('Catalog: which Iceberg REST catalog');
    for (let i = 0; i < 25 && !text(t).includes('Review: check the values'); i++) await t.press('enter');
    await t.waitFor('Secrets: the OS keychain, but unreachable here (no D-Bus): saving asks where');
  });

  it('FLOE_* keys show their source on the review and are saved only when kept', async () => {
    const dir = tempDir('floe-e2e-i19-');
    const created = runCli(
      [
        'setup',
        '--profile',
        'keyless',
        '--yes',
        '--insecure-storage',
        '--preset',
        'rest',
        '--auth-type',
        'none',
        '--catalog-url',
        'http://127.0.0.1:1/api/catalog',
        '--warehouse',
        's3://warehouse/olake',
        '--region',
        'us-east-1',
      ],
      { env: { FLOE_CONFIG_DIR: dir } },
    );
    expect(created.status, created.stderr).toBe(0);
    const env = { FLOE_ACCESS_KEY: ACCESS, FLOE_SECRET_KEY: SECRET };
    const args = ['setup', '--profile', 'keyless', '--skip-test'];

    const t = floe(dir, { args, env });
    await t.waitFor('Review: check the values');
    await t.waitFor(/Access Key +••••EKEY · from FLOE_ACCESS_KEY, not saved/);
    expect(text(t)).toContain('k keep FLOE_* value');
    await t.press('enter');
    expect(await t.exit()).toBe(0);
    const kept = exported(dir, 'keyless') as { writer: Record<string, unknown> };
    expect(kept.writer.aws_access_key).toBeUndefined();
    expect(kept.writer.aws_secret_key).toBeUndefined();

    const again = floe(dir, { args, env });
    await again.waitFor('Review: check the values');
    for (let i = 0; i < 20 && !/› Access Key/.test(text(again)); i++) await again.press('down');
    await again.press('k');
    await again.waitFor(/Access Key +••••EKEY · from FLOE_ACCESS_KEY, saved/);
    await again.press('enter');
    expect(await again.exit()).toBe(0);
    // The Secret Key was not kept: the profile reads it from FLOE_SECRET_KEY, and no file holds it.
    const saved = exported(dir, 'keyless', { FLOE_SECRET_KEY: 'from-the-env' }) as {
      writer: Record<string, unknown>;
    };
    expect(saved.writer.aws_access_key).toBe(ACCESS);
    expect(saved.writer.aws_secret_key).toBe('from-the-env');
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file), 'utf8')).not.toContain(SECRET);
    expect(again.raw()).not.toContain(SECRET);
  });
});
