import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Text } from 'ink';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveProfile } from '../../../src/app/profiles.js';
import { profileValues } from '../../../src/config/store.js';
import { AUTH_TYPES, type AuthType, emptyValues, type Values } from '../../../src/destination/fields.js';
import { useKeys } from '../../../src/ui/components/useKeys.js';
import { Wizard, type WizardResult } from '../../../src/ui/setup/Wizard.js';
import {
  expectFits,
  KEY,
  type Rendered,
  renderScreen,
  storedSecret,
  type TestContext,
  testContext,
  UNAVAILABLE_REASON,
  waitUntil,
} from './support.js';

const SENTINEL = 'sentinel-Secret-Value-9XyZ';
const GOOGLE_JSON = JSON.stringify({
  type: 'service_account',
  client_email: 'olake@p.iam.gserviceaccount.com',
  private_key: `-----BEGIN PRIVATE KEY-----\\n${SENTINEL}\\n-----END PRIVATE KEY-----\\n`,
  extra: 'tail-QwEr',
});

/** What to type in the auth rows of each type, in registry order ('' leaves a row empty). */
const AUTH_INPUT: Record<AuthType, string[]> = {
  none: [],
  token: [SENTINEL],
  oauth2: ['http://localhost:8181/api/catalog/v1/oauth/tokens', `olake:${SENTINEL}`, 'PRINCIPAL_ROLE:ALL'],
  sigv4: ['glue', 'us-east-1'],
  google: [GOOGLE_JSON, '', ''],
};

let rendered: Rendered | undefined;
afterEach(async () => {
  if (rendered) expectFits(rendered.frames());
  await rendered?.unmount();
  rendered = undefined;
});

async function start(ctx: TestContext, props: { initial?: Values; profileName?: string } = {}) {
  const done = vi.fn<(result: WizardResult, error?: unknown) => void>();
  rendered = await renderScreen(
    <Wizard
      save={saveProfile}
      ctx={ctx}
      profileName={props.profileName ?? 'prod'}
      initial={props.initial}
      onDone={done}
    />,
  );
  return { r: rendered, done };
}

/** Types each value (one paste each) into the focused row and presses Enter. */
async function fill(r: Rendered, inputs: string[]) {
  for (const input of inputs) {
    if (input) await r.press(input);
    await r.press(KEY.enter);
  }
}

/** Keeps the generic REST catalog on the first screen, then chooses the auth type. */
async function chooseAuth(r: Rendered, authType: AuthType) {
  await r.press(KEY.enter);
  for (let i = 0; i < AUTH_TYPES.indexOf(authType); i++) await r.press(KEY.down);
  await r.press(KEY.enter);
}

/** From the first screen to the review: catalog + auth fields, AWS S3 with both keys, defaults after. */
async function walkToReview(r: Rendered, authType: AuthType) {
  await chooseAuth(r, authType);
  await fill(r, [
    'http://localhost:8181/api/catalog',
    's3://warehouse/olake',
    'us-east-1',
    ...AUTH_INPUT[authType],
  ]);
  expect(r.frame()).toContain('Object storage: where OLake writes');
  await r.press(KEY.enter);
  await fill(r, ['', '', 'AKIAIOSFODNN7EXAMPLE', `${SENTINEL}-s3`]);
  expect(r.frame()).toContain('Advanced');
  await fill(r, ['', '', '', '', '']);
  expect(r.frame()).toContain('Review');
}

/** A next screen: shows the keys it reads. */
function Reader() {
  const [seen, setSeen] = useState('');
  useKeys((key) => {
    setSeen((s) => s + key.raw);
  });
  return <Text>{`next=[${seen}]`}</Text>;
}

describe('setup wizard', () => {
  it.each(AUTH_TYPES)('walks to a saved profile with auth type %s', async (authType) => {
    const ctx = testContext();
    const { r, done } = await start(ctx);
    await walkToReview(r, authType);
    await r.press(KEY.enter);
    await waitUntil(() => done.mock.calls.length > 0);
    const [result, error] = done.mock.calls[0]!;
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ saved: true, profileName: 'prod', storage: 'keychain' });
    const stored = ctx.config.getProfile('prod')!;
    expect(stored.authType).toBe(authType);
    expect(stored.secretStorage).toBe('keychain');
    expect(profileValues(stored).fields.catalogUrl).toBe('http://localhost:8181/api/catalog');
    expect(await storedSecret(ctx, 'prod', 'secretKey')).toBe(`${SENTINEL}-s3`);
    if (authType === 'token') expect(await storedSecret(ctx, 'prod', 'token')).toBe(SENTINEL);
    if (authType === 'oauth2') expect(stored.fields.scope).toBe('PRINCIPAL_ROLE:ALL');
    if (authType === 'sigv4') expect(stored.fields.sigv4).toBe(true);
    if (authType === 'google')
      expect(JSON.parse((await storedSecret(ctx, 'prod', 'gcpServiceAccountJson'))!).client_email).toBe(
        'olake@p.iam.gserviceaccount.com',
      );
    expect(JSON.stringify(stored)).not.toContain(SENTINEL);
    expect(r.frame()).toContain('✓ Saved profile "prod"');
    for (const frame of r.frames()) expect(frame).not.toContain(SENTINEL);
  });

  it('blocks Enter on the last field while required fields are empty, naming field, rule and example', async () => {
    const ctx = testContext();
    const { r } = await start(ctx);
    await chooseAuth(r, 'token');
    await fill(r, ['', '', '', '']);
    const frame = r.text();
    expect(frame).toContain('Catalog and authentication: Bearer token');
    expect(frame).toContain('REST Catalog URL: is required (e.g. http://localhost:8181)');
    expect(frame).toContain('Token: is required (e.g. dapi0123456789abcdef)');
    expect(frame).toMatch(/Cannot continue: \d fields marked ✗/);
    expect(r.frame()).toMatch(/› REST Catalog URL\*/);
    await r.press('not a url', KEY.down);
    expect(r.text()).toContain('REST Catalog URL: must be an absolute http(s) URL');
    expect(ctx.config.getProfile('prod')).toBeUndefined();
  });

  it('keeps every character typed back to back, before the screen redraws', async () => {
    const { r } = await start(testContext());
    await chooseAuth(r, 'token');
    await r.burst(...'http://localhost:8181/api/catalog');
    await r.press(KEY.down);
    expect(r.frame()).toMatch(/REST Catalog URL\* +http:\/\/localhost:8181\/api\/catalog\n/);
  });

  it('goes back with Esc without losing anything typed', async () => {
    const { r } = await start(testContext());
    await chooseAuth(r, 'sigv4');
    await fill(r, ['http://localhost:8181', 's3://warehouse', 'eu-west-1', 'glue']);
    await r.press('us-east-2');
    await r.press(KEY.esc);
    expect(r.frame()).toContain('Authentication type');
    expect(r.frame()).toMatch(/› ● AWS SigV4/);
    await r.press(KEY.enter);
    const frame = r.frame();
    for (const value of ['http://localhost:8181', 's3://warehouse', 'eu-west-1', 'glue', 'us-east-2'])
      expect(frame).toContain(value);
    await r.press(KEY.enter);
    await r.press(KEY.down, KEY.enter);
    await r.press('http://minio:9000', KEY.esc, KEY.esc);
    expect(r.frame()).toContain('Catalog and authentication: AWS SigV4');
    expect(r.frame()).toMatch(/› REST Signing Region\*/);
    await r.press(KEY.enter);
    expect(r.frame()).toMatch(/› ● S3-compatible/);
    await r.press(KEY.enter);
    expect(r.frame()).toContain('http://minio:9000');
  });

  it('masks secrets while typing and on the review: only •••• and the last 4 ever show', async () => {
    const { r } = await start(testContext());
    await chooseAuth(r, 'token');
    await fill(r, ['http://localhost:8181', 's3://warehouse', 'us-east-1']);
    await r.press(SENTINEL);
    expect(r.frame()).toContain('•'.repeat(SENTINEL.length));
    await r.press(KEY.up);
    expect(r.frame()).toContain('Token*');
    expect(r.frame()).toContain('••••9XyZ');
    await r.press(KEY.down, KEY.enter, KEY.enter);
    await fill(r, ['', '', '', '']);
    await fill(r, ['', '', '', '', '']);
    const review = r.frame();
    expect(review).toMatch(/Token\s+••••9XyZ/);
    expect(review).toMatch(/Authentication Type\s+Bearer token/);
    expect(review).toMatch(/Secrets: the OS keychain/);
    for (const frame of r.frames()) expect(frame).not.toContain(SENTINEL);
  });

  it('rejects a bad catalog name with the allowed characters and an example', async () => {
    const { r } = await start(testContext());
    await chooseAuth(r, 'none');
    await fill(r, ['http://localhost:8181', 's3://warehouse', 'us-east-1']);
    await r.press(KEY.enter);
    await fill(r, ['', '', '', '']);
    await r.press(KEY.enter, 'Bad-Name', KEY.down);
    expect(r.text()).toContain(
      'Catalog Name: only lowercase letters a–z and underscores (_) are allowed (e.g. olake_iceberg)',
    );
    await r.press(KEY.up, KEY.backspace.repeat(1));
    await r.press(KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace);
    await r.press(KEY.backspace, KEY.backspace, 'my_lake');
    expect(r.frame()).not.toContain('only lowercase letters');
  });

  it('hides the catalog name, with a note, for OLake below 0.3.5', async () => {
    const { r } = await start(testContext());
    await chooseAuth(r, 'none');
    await fill(r, ['http://localhost:8181', 's3://warehouse', 'us-east-1']);
    await r.press(KEY.enter);
    await fill(r, ['', '', '', '']);
    const catalogNameRow = /^\s+Catalog Name\s{2,}/m;
    expect(r.frame()).toMatch(catalogNameRow);
    for (let i = 0; i < 'latest'.length; i++) await r.press(KEY.backspace);
    await r.press('0.3.4');
    expect(r.frame()).not.toMatch(catalogNameRow);
    expect(r.text()).toContain('Catalog Name is hidden: it needs OLake 0.3.5 or later');
    await fill(r, ['', '', '', '']);
    const review = r.frame();
    expect(review).toMatch(/Target OLake Version\s+0\.3\.4/);
    expect(review).not.toContain('Catalog Name');
  });

  it('toggles booleans with Space', async () => {
    const ctx = testContext();
    const { r, done } = await start(ctx);
    await chooseAuth(r, 'none');
    await fill(r, ['http://localhost:8181', 's3://warehouse', 'us-east-1']);
    await r.press(KEY.enter);
    await fill(r, ['', '', '', '']);
    await r.press(KEY.down, KEY.down, KEY.down);
    expect(r.frame()).toMatch(/› Enable Arrow Writes\s+\[ \] no/);
    await r.press(KEY.space);
    expect(r.frame()).toMatch(/› Enable Arrow Writes\s+\[x\] yes/);
    await r.press(KEY.enter, KEY.enter);
    expect(r.frame()).toMatch(/Enable Arrow Writes\s+yes/);
    await r.press(KEY.enter);
    await waitUntil(() => done.mock.calls.length > 0);
    expect(ctx.config.getProfile('prod')?.fields.arrowWrites).toBe(true);
  });

  it('opens an existing profile pre-filled', async () => {
    const initial: Values = {
      ...emptyValues('oauth2'),
      storage: 's3-compatible',
      targetVersion: '0.3.4',
      fields: {
        catalogUrl: 'http://polaris:8181/api/catalog',
        warehouse: 's3://lake',
        region: 'eu-central-1',
        oauth2Uri: 'http://polaris:8181/api/catalog/v1/oauth/tokens',
        credential: `client:${SENTINEL}`,
        scope: 'PRINCIPAL_ROLE:ALL',
        s3Endpoint: 'http://minio:9000',
      },
    };
    const ctx = testContext();
    const { r, done } = await start(ctx, { initial });
    expect(r.frame()).toMatch(/› ● Generic REST catalog/);
    await r.press(KEY.enter);
    expect(r.frame()).toMatch(/› ● OAuth2 client credentials/);
    await r.press(KEY.enter);
    expect(r.frame()).toContain('http://polaris:8181/api/catalog');
    expect(r.frame()).toContain('••••9XyZ');
    await fill(r, ['', '', '', '', '', '']);
    expect(r.frame()).toMatch(/› ● S3-compatible/);
    await r.press(KEY.enter);
    expect(r.frame()).toContain('http://minio:9000');
    expect(r.text()).toContain('credentials then come from the runtime environment');
    await fill(r, ['', '', '', '']);
    expect(r.frame()).toMatch(/Target OLake Version\*?\s+0\.3\.4/);
    await fill(r, ['', '', '', '']);
    await r.press(KEY.enter);
    await waitUntil(() => done.mock.calls.length > 0);
    expect(await storedSecret(ctx, 'prod', 'credential')).toBe(`client:${SENTINEL}`);
    expect(ctx.config.getProfile('prod')?.fields.s3Endpoint).toBe('http://minio:9000');
    for (const frame of r.frames()) expect(frame).not.toContain(SENTINEL);
  });

  it('reads the service-account JSON from @path', async () => {
    const ctx = testContext();
    const path = join(ctx.dir, 'key.json');
    writeFileSync(path, JSON.stringify(JSON.parse(GOOGLE_JSON), null, 2));
    const { r, done } = await start(ctx);
    await chooseAuth(r, 'google');
    await fill(r, ['http://localhost:8181', 's3://warehouse', 'us-east-1']);
    const missing = `@${join(ctx.dir, 'missing.json')}`;
    await r.press(missing, KEY.down);
    expect(r.frame()).toContain('GCP Service Account JSON: cannot read');
    expect(r.text()).toContain('missing.json (no such file)');
    expect(r.frame()).toMatch(/› GCP Service Account JSON/);
    for (let i = 0; i < missing.length; i++) await r.press(KEY.backspace);
    await r.press(`@${path}`, KEY.enter);
    expect(r.frame()).toMatch(/› GCP Auth Scopes/);
    expect(r.frame()).toContain('••••');
    await fill(r, ['', '']);
    await r.press(KEY.enter);
    await fill(r, ['', '', '', '']);
    await fill(r, ['', '', '', '', '']);
    await r.press(KEY.enter);
    await waitUntil(() => done.mock.calls.length > 0);
    expect(JSON.parse((await storedSecret(ctx, 'prod', 'gcpServiceAccountJson'))!)).toEqual(
      JSON.parse(GOOGLE_JSON),
    );
    for (const frame of r.frames()) expect(frame).not.toContain(SENTINEL);
  });

  it('scrolls the review when it is taller than the terminal', async () => {
    const done = vi.fn();
    rendered = await renderScreen(
      <Wizard save={saveProfile} ctx={testContext()} profileName="prod" onDone={done} />,
      80,
      16,
    );
    const r = rendered;
    await walkToReview(r, 'google');
    expect(r.frame()).toMatch(/↓ \d+ more/);
    expect(r.frame()).not.toContain('Disable Identifier Tables');
    expect(r.frame()).toContain('↑/↓ select');
    expectFits([r.frame()], 80, 16);
    for (let i = 0; i < 20; i++) await r.press(KEY.down);
    expect(r.frame()).toMatch(/^› Disable Identifier Tables/m);
    expect(r.frame()).toMatch(/↑ \d+ more/);
    expectFits([r.frame()], 80, 16);
    for (let i = 0; i < 20; i++) await r.press(KEY.up);
    expect(r.frame()).toMatch(/^› Catalog/m);
    expect(r.frame()).not.toContain('Disable Identifier Tables');
  });

  it('acts on every key of one chunk: text and Tab, text and Enter then more text, text and Backspaces', async () => {
    const { r } = await start(testContext());
    await chooseAuth(r, 'token');
    await r.press('http://localhost:8181\ts3://warehouse\rus-east-1xyzq\u007f\u007f\u007f\u007f\t');
    const frame = r.frame();
    expect(frame).toMatch(/REST Catalog URL\* +http:\/\/localhost:8181\n/);
    expect(frame).toMatch(/Warehouse\* +s3:\/\/warehouse\n/);
    expect(frame).toMatch(/Region\* +us-east-1\n/);
    expect(frame).toMatch(/^› Token/m);
    await r.press(`${SENTINEL}\u001b[Z\u001b[Z`);
    expect(r.frame()).toMatch(/^› Warehouse/m);
    expect(r.frame()).toMatch(/Token\* +••••9XyZ\n/);
    expect(r.frame()).not.toContain('✗');
  });

  it('hands the keys typed with Enter on the review, while saving, to the next screen', async () => {
    const { r, done } = await start(testContext());
    await walkToReview(r, 'none');
    await r.press(`${KEY.enter}vq`);
    await waitUntil(() => done.mock.calls.length > 0);
    expect(done.mock.calls[0]![0]).toMatchObject({ saved: true });
    await r.unmount();
    const next = await renderScreen(<Reader />);
    expect(next.frame()).toBe('next=[vq]');
    await next.unmount();
  });

  it('reads Esc followed by more keys in one chunk as Esc, then those keys', async () => {
    const { r } = await start(testContext());
    await chooseAuth(r, 'none');
    expect(r.frame()).toContain('Catalog and authentication: None');
    await r.press(`${KEY.esc}${KEY.down}${KEY.enter}`);
    expect(r.frame()).toContain('Catalog and authentication: Bearer token');
  });

  it('puts a bracketed paste into the focused field as text: its first line, never submitted', async () => {
    const { r } = await start(testContext());
    await chooseAuth(r, 'none');
    await r.press('\u001b[200~http://localhost:8181\r\ns3://second-line\u001b[201~');
    expect(r.frame()).toMatch(/^› REST Catalog URL\* +http:\/\/localhost:8181\n/m);
    expect(r.frame()).not.toContain('second-line');
    expect(r.frame()).not.toContain('✗');
  });

  it('takes the whole of a pasted multi-line service-account JSON', async () => {
    const { r } = await start(testContext());
    await chooseAuth(r, 'google');
    await r.press(KEY.down, KEY.down, KEY.down);
    const pasted = JSON.stringify(JSON.parse(GOOGLE_JSON), null, 2).replace(/\n/g, '\r\n');
    await r.press(`\u001b[200~${pasted}\u001b[201~`, KEY.down, KEY.up);
    expect(r.frame()).toMatch(/^› GCP Service Account JSON\* +•+/m);
    expect(r.frame()).not.toContain('GCP Service Account JSON: must');
  });

  it('leaves cleanly on Ctrl-C without saving', async () => {
    const ctx = testContext();
    const { r, done } = await start(ctx);
    await chooseAuth(r, 'token');
    await r.press('http://localhost:8181', `abc${KEY.ctrlC}`);
    await waitUntil(() => done.mock.calls.length > 0);
    expect(done).toHaveBeenCalledWith({ saved: false, profileName: 'prod', interrupted: true });
    expect(r.frame()).toContain('Nothing was saved: profile "prod" is as it was.');
    expect(ctx.config.getProfile('prod')).toBeUndefined();
  });

  describe('when the keychain is unavailable', () => {
    async function toKeychainChoice(ctx: TestContext) {
      const started = await start(ctx);
      await walkToReview(started.r, 'token');
      await started.r.press(KEY.enter);
      await waitUntil(() => started.r.frame().includes('Where should the secrets'));
      return started;
    }

    it('explains why and offers a file, the environment or cancel', async () => {
      const ctx = testContext('unavailable');
      const { r } = await toKeychainChoice(ctx);
      const frame = r.text();
      expect(frame).toContain(`The OS keychain cannot be used: ${UNAVAILABLE_REASON}`);
      expect(frame).toContain('Store them in a file');
      expect(frame).toContain('Plaintext, not encrypted: mode 0600 at');
      expect(frame).toContain("Don't store them");
      expect(frame).toContain('FLOE_TOKEN, FLOE_ACCESS_KEY, FLOE_SECRET_KEY');
      expect(frame).toContain('Cancel');
      await r.press(KEY.esc);
      expect(r.frame()).toContain('Review');
    });

    it('stores the secrets in the 0600 file when asked', async () => {
      const ctx = testContext('unavailable');
      const { r, done } = await toKeychainChoice(ctx);
      await r.press(KEY.enter);
      await waitUntil(() => done.mock.calls.length > 0);
      expect(done.mock.calls[0]![0]).toMatchObject({ saved: true, storage: 'file' });
      expect(ctx.config.getProfile('prod')?.secretStorage).toBe('file');
      expect(await storedSecret(ctx, 'prod', 'token')).toBe(SENTINEL);
      expect(statSync(ctx.config.secretsPath).mode & 0o777).toBe(0o600);
      expect(r.frame()).toContain('Secrets: the plaintext file');
    });

    it('stores no secrets and lists the variables to set when asked', async () => {
      const ctx = testContext('unavailable');
      const { r, done } = await toKeychainChoice(ctx);
      await r.press(KEY.down, KEY.enter);
      await waitUntil(() => done.mock.calls.length > 0);
      expect(done.mock.calls[0]![0]).toMatchObject({ saved: true, storage: 'env' });
      expect(ctx.config.getProfile('prod')).toMatchObject({ secretStorage: 'env', storedSecrets: [] });
      expect(r.text()).toContain('not stored: set FLOE_TOKEN, FLOE_ACCESS_KEY, FLOE_SECRET_KEY at run time');
    });

    it('saves nothing on cancel', async () => {
      const ctx = testContext('unavailable');
      const { r, done } = await toKeychainChoice(ctx);
      await r.press(KEY.up, KEY.enter);
      await waitUntil(() => done.mock.calls.length > 0);
      expect(done).toHaveBeenCalledWith({ saved: false, profileName: 'prod', interrupted: false });
      expect(ctx.config.getProfile('prod')).toBeUndefined();
    });
  });

  it('scrolls a form taller than the terminal and keeps the focused field in view', async () => {
    const done = vi.fn();
    rendered = await renderScreen(
      <Wizard save={saveProfile} ctx={testContext()} profileName="prod" onDone={done} />,
      80,
      16,
    );
    const r = rendered;
    await chooseAuth(r, 'oauth2');
    await fill(r, ['x', 'y', 'z', 'u', 'v', '']);
    expect(r.frame()).toMatch(/› REST Catalog URL/);
    expect(r.frame()).toMatch(/↓ \d more/);
    await r.press(KEY.up);
    expect(r.frame()).toMatch(/› REST Scope/);
    expect(r.frame()).toMatch(/↑ \d more/);
    expectFits([r.frame()], 80, 16);
  });
});
