// The wizard's review warns when a secret would travel over plain http:// to another host.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveProfile } from '../../../src/app/profiles.js';
import { AUTH_TYPES } from '../../../src/destination/fields.js';
import { Wizard, type WizardResult } from '../../../src/ui/setup/Wizard.js';
import { expectFits, KEY, type Rendered, renderScreen, testContext } from './support.js';

let rendered: Rendered | undefined;
afterEach(async () => {
  if (rendered) expectFits(rendered.frames());
  await rendered?.unmount();
  rendered = undefined;
});

async function reviewOfTokenProfile(catalogUrl: string): Promise<string> {
  const done = vi.fn<(result: WizardResult) => void>();
  rendered = await renderScreen(
    <Wizard save={saveProfile} ctx={testContext()} profileName="prod" onDone={done} />,
  );
  const r = rendered;
  await r.press(KEY.enter);
  for (let i = 0; i < AUTH_TYPES.indexOf('token'); i++) await r.press(KEY.down);
  await r.press(KEY.enter);
  for (const input of [catalogUrl, 's3://warehouse', 'us-east-1', 'tok-sentinel-1234']) {
    await r.press(input);
    await r.press(KEY.enter);
  }
  await r.press(KEY.enter);
  for (let i = 0; i < 4; i++) await r.press(KEY.enter);
  for (let i = 0; i < 5; i++) await r.press(KEY.enter);
  expect(r.frame()).toContain('Review');
  return r.frame();
}

describe('wizard review', () => {
  it('warns that the bearer token goes to a plain-http catalog', async () => {
    const review = await reviewOfTokenProfile('http://lake.corp:8181/api/catalog');
    expect(review).toContain('! The bearer token is sent to http://lake.corp:8181 over plain');
  });

  it('says nothing for https', async () => {
    const review = await reviewOfTokenProfile('https://lake.corp/api/catalog');
    expect(review).not.toContain('plain http');
  });
});
