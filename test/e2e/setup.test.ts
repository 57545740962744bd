// `floe setup` on a real 80x24 terminal: the wizard end to end for a bearer token and for OAuth2
// client credentials, Esc back keeping what was typed, the review with masked secrets, and the saved
// profile as `floe export` writes it.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { expectCleanOutput, floe, type Terminal, tempDir } from './support.js';

const TOKEN = 'SENTINEL-e2e-token-7c3d';
const CLIENT_SECRET = 'SENTINEL-e2e-client-9b1e';
const SECRET_KEY = 'SENTINEL-e2e-secret-key-44f0';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Types `value` into the focused row `label`, waits to see it as `shown`, then presses Enter. */
async function fill(t: Terminal, label: string, value: string, shown = value): Promise<void> {
  await t.waitFor(new RegExp(`^› ${escapeRegExp(label)}\\*?( |$)`, 'm'));
  await t.press(value);
  await t.waitFor(new RegExp(`^› ${escapeRegExp(label)}\\*? +${escapeRegExp(shown)}$`, 'm'));
  await t.press('enter');
}

/** Keeps the generic REST catalog on the first screen, then chooses the auth type. */
async function chooseAuth(t: Terminal, label: string): Promise<void> {
  await t.waitFor('› ● Generic REST catalog');
  await t.press('enter');
  await t.waitFor('Authentication type');
  for (let i = 0; i < 5 && !t.screen().includes(`› ● ${label}`); i++) await t.press('down');
  await t.waitFor(`› ● ${label}`);
  await t.press('enter');
  await t.waitFor(`Catalog and authentication: ${label}`);
}

/** From the Advanced step (defaults kept) to the review. */
async function acceptAdvanced(t: Terminal): Promise<string[]> {
  await t.waitFor('step 6 of 7');
  for (let i = 0; i < 5 && !t.screen().join('\n').includes('Review: check the values'); i++)
    await t.press('enter');
  return t.waitFor('Review: check the values');
}

function exported(configDir: string): Record<string, unknown> {
  const result = runCli(['export', '--profile', 'e2e'], { env: { FLOE_CONFIG_DIR: configDir } });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe('floe setup on a terminal', { timeout: 90_000 }, () => {
  it('creates a bearer-token profile with an S3-compatible store', async () => {
    const configDir = tempDir('floe-e2e-setup-');
    const t = floe(configDir, { args: ['setup', '--profile', 'e2e', '--insecure-storage', '--skip-test'] });
    await chooseAuth(t, 'Bearer token');
    await fill(t, 'REST Catalog URL', 'http://127.0.0.1:1/api/catalog');
    await fill(t, 'Warehouse', 's3://warehouse/olake');
    await fill(t, 'Region', 'us-east-1');
    await fill(t, 'Token', TOKEN, '•'.repeat(TOKEN.length));

    await t.waitFor('step 4 of 7');
    await t.press('down');
    await t.waitFor('› ● S3-compatible');
    await t.press('enter');
    await t.waitFor('Object storage: S3-compatible');
    await fill(t, 'S3 Endpoint', 'http://127.0.0.1:9000');
    await t.waitFor(/^› Data Location/m);
    await t.press('enter');
    await fill(t, 'Access Key', 'E2EACCESSKEY01', '•'.repeat(14));
    await t.waitFor(/^› Secret Key/m);
    await t.press(SECRET_KEY);
    await t.waitFor(new RegExp(`^› Secret Key\\*? +${'•'.repeat(SECRET_KEY.length)}$`, 'm'));

    await t.press('esc');
    await t.waitFor('step 4 of 7');
    expect(t.screen().join('\n')).toContain('› ● S3-compatible');
    await t.press('enter');
    const storage = (await t.waitFor('Object storage: S3-compatible')).join('\n');
    expect(storage).toMatch(/S3 Endpoint\*? +http:\/\/127\.0\.0\.1:9000/);
    expect(storage).toMatch(/Access Key\*? +••••EY01/);
    expect(storage).toMatch(/^› Secret Key\*? +•{28}$/m);
    await t.press('esc');
    await t.waitFor('step 4 of 7');
    await t.press('esc');
    const fields = (await t.waitFor('Catalog and authentication: Bearer token')).join('\n');
    expect(fields).toMatch(/REST Catalog URL\* +http:\/\/127\.0\.0\.1:1\/api\/catalog/);
    expect(fields).toMatch(new RegExp(`^› Token\\* +•{${TOKEN.length}}$`, 'm'));
    await t.press('enter');
    await t.waitFor('step 4 of 7');
    await t.press('enter');
    await t.waitFor('Object storage: S3-compatible');
    await t.press('enter');

    const review = (await acceptAdvanced(t)).join('\n');
    expect(review).toMatch(/Authentication Type +Bearer token/);
    expect(review).toMatch(/Token +••••7c3d/);
    expect(review).toMatch(/Secret Key +••••44f0/);
    expect(review).toMatch(/S3 Endpoint +http:\/\/127\.0\.0\.1:9000/);
    expect(review).toContain('Secrets: the plaintext file');
    await t.press('enter');
    await t.waitFor('Saved profile "e2e"');
    expect(await t.exit()).toBe(0);
    expectCleanOutput(t, [TOKEN, SECRET_KEY]);

    const destination = exported(configDir);
    expect(JSON.stringify(destination)).toContain('http://127.0.0.1:1/api/catalog');
    expect(JSON.stringify(destination)).toContain(TOKEN);
    expect(JSON.stringify(destination)).toContain(SECRET_KEY);
  });

  it('creates an OAuth2 profile on AWS S3', async () => {
    const configDir = tempDir('floe-e2e-setup-');
    const t = floe(configDir, { args: ['setup', '--profile', 'e2e', '--insecure-storage', '--skip-test'] });
    await chooseAuth(t, 'OAuth2 client credentials');
    await fill(t, 'REST Catalog URL', 'http://127.0.0.1:1/api/catalog');
    await fill(t, 'Warehouse', 's3://warehouse');
    await fill(t, 'Region', 'eu-west-1');
    await fill(t, 'REST Auth URI', 'http://127.0.0.1:1/token');
    const credential = `floe-client:${CLIENT_SECRET}`;
    await fill(t, 'REST Credential', credential, '•'.repeat(credential.length));
    await t.waitFor(/^› REST Scope/m);
    await t.press('catalog');
    await t.waitFor(/^› REST Scope\*? +catalog$/m);

    await t.press('esc');
    await t.waitFor('step 2 of 7');
    await t.press('enter');
    const fields = (await t.waitFor('Catalog and authentication: OAuth2')).join('\n');
    expect(fields).toMatch(/Region\* +eu-west-1/);
    expect(fields).toMatch(/REST Auth URI\* +http:\/\/127\.0\.0\.1:1\/token/);
    expect(fields).toMatch(/REST Credential\* +••••9b1e/);
    expect(fields).toMatch(/REST Scope\*? +catalog/);
    for (let i = 0; i < 6 && !t.screen().join('\n').includes('step 4 of 7'); i++) await t.press('enter');

    await t.waitFor('› ● AWS S3');
    await t.press('enter');
    await t.waitFor('Object storage: AWS S3');
    await t.press('enter', 'enter', 'enter', 'enter');
    const review = (await acceptAdvanced(t)).join('\n');
    expect(review).toMatch(/Authentication Type +OAuth2 client credentials/);
    expect(review).toMatch(/REST Credential +••••9b1e/);
    expect(review).toMatch(/REST Scope +catalog/);
    expect(review).toMatch(/Storage +AWS S3/);
    await t.press('enter');
    await t.waitFor('Saved profile "e2e"');
    expect(await t.exit()).toBe(0);
    expectCleanOutput(t, [CLIENT_SECRET]);

    const destination = JSON.stringify(exported(configDir));
    expect(destination).toContain('http://127.0.0.1:1/token');
    expect(destination).toContain(credential);
  });

  it('a preset fills its fields: Polaris asks for its catalog name and derives the token URL', async () => {
    const configDir = tempDir('floe-e2e-setup-');
    const t = floe(configDir, { args: ['setup', '--profile', 'e2e', '--insecure-storage', '--skip-test'] });
    await t.waitFor('› ● Generic REST catalog');
    await t.press('down');
    const presets = (await t.waitFor('› ● Apache Polaris')).join(' ').replace(/\s+/g, ' ');
    expect(presets).toContain('the scope must start with PRINCIPAL_ROLE:');
    await t.press('enter');
    const auth = (await t.waitFor('Authentication type: how floe and OLake sign in to Apache Polaris')).join(
      '\n',
    );
    expect(auth).toContain('› ● OAuth2 client credentials');
    expect(auth).not.toContain('AWS SigV4');
    await t.press('enter');
    const form = (await t.waitFor('Catalog and authentication: OAuth2')).join('\n');
    expect(form).toMatch(/REST Scope +PRINCIPAL_ROLE:ALL/);
    expect(form).toContain('Polaris Catalog Name*');
    await fill(t, 'REST Catalog URL', 'http://127.0.0.1:1/api/catalog');
    await t.waitFor(/^› Polaris Catalog Name\*/m);
    expect(t.screen().join('\n')).toContain(
      'The name of the Polaris catalog (not a bucket), e.g. olake_catalog',
    );
    await t.press('s3://lake', 'down');
    await t.waitFor('✗ Polaris Catalog Name: must be a Polaris catalog name: a name without');
    expect(t.screen().join('\n')).toMatch(
      /REST Auth URI\* +http:\/\/127\.0\.0\.1:1\/api\/catalog\/v1\/oauth\/tokens/,
    );
  });
});

describe('editing an existing profile on a terminal', { timeout: 90_000 }, () => {
  /** A profile whose secrets come from FLOE_* variables, so nothing needs a keychain. */
  function existing(): string {
    const dir = tempDir('floe-e2e-edit-');
    const created = runCli(
      [
        'setup',
        '--yes',
        '--profile',
        'lake',
        '--auth-type',
        'none',
        '--env-secrets',
        '--storage',
        's3-compatible',
      ].concat(
        [
          '--catalog-url',
          'http://127.0.0.1:1/api/catalog',
          '--warehouse',
          's3://warehouse',
          '--region',
          'us-east-1',
        ],
        ['--s3-endpoint', 'http://127.0.0.1:9000'],
      ),
      { env: { FLOE_CONFIG_DIR: dir } },
    );
    expect(created.status, created.stderr).toBe(0);
    return dir;
  }
  const regionOf = (dir: string) => {
    const shown = runCli(['profiles', 'show', 'lake'], { env: { FLOE_CONFIG_DIR: dir } });
    return /Region: (\S+)/.exec(shown.stdout)?.[1];
  };

  it('opens on the review; one line is edited and saved from there, key by key and in one burst', async () => {
    for (const burst of [false, true]) {
      const dir = existing();
      const t = floe(dir, { args: ['setup', '--profile', 'lake', '--skip-test'] });
      const review = await t.waitFor(/Review: check the values[\s\S]*e edit/);
      const lines = review.filter((line) => /^[› ] \S/.test(line));
      const downs = lines.findIndex((line) => /^[› ] Region /.test(line));
      expect(downs).toBeGreaterThan(0);
      const keys = ['\u001b[B'.repeat(downs), 'e', '\u0015', 'eu-west-3', '\r'];
      if (burst) t.write(`${keys.join('')}\r`);
      else {
        for (let i = 0; i < downs; i++) await t.press('down');
        await t.waitFor(/^› Region /m);
        await t.press('e');
        await t.waitFor(/^› Region\* +us-east-1$/m);
        await t.press('\u0015', 'eu-west-3');
        await t.waitFor(/^› Region\* +eu-west-3$/m);
        await t.press('enter');
        await t.waitFor(/^› Region +eu-west-3$/m);
        expect(t.screen().join('\n')).toContain('Review: check the values');
        await t.press('enter');
      }
      expect(await t.exit()).toBe(0);
      expect(t.raw()).toContain('Saved profile "lake"');
      expect(regionOf(dir)).toBe('eu-west-3');
    }
  });
});
