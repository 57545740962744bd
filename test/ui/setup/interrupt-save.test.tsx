// Ctrl-C while the wizard is saving aborts the save, so the secrets it wrote are undone and the
// config never switches to the half-saved profile.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveProfile } from '../../../src/app/profiles.js';
import { AUTH_TYPES } from '../../../src/destination/fields.js';
import { Wizard, type WizardResult } from '../../../src/ui/setup/Wizard.js';
import { KEY, type Rendered, renderScreen, testContext, waitUntil } from './support.js';

let rendered: Rendered | undefined;
afterEach(async () => {
  await rendered?.unmount();
  rendered = undefined;
});

describe('Ctrl-C during the save', () => {
  it('aborts the save in progress and saves nothing', async () => {
    const ctx = testContext();
    let aborted: unknown;
    let saving = false;
    const stalled = {
      ...ctx,
      vault: {
        ...ctx.vault,
        // A keychain write that never ends until the save is aborted.
        put: (_storage: unknown, _entries: unknown, signal?: AbortSignal) =>
          new Promise<never>((_, reject) => {
            saving = true;
            signal?.addEventListener('abort', () => {
              aborted = signal?.reason;
              reject(new Error('undone'));
            });
          }),
      },
    };
    const done = vi.fn<(result: WizardResult) => void>();
    rendered = await renderScreen(
      <Wizard save={saveProfile} ctx={stalled} profileName="prod" onDone={done} />,
    );
    const r = rendered;
    await r.press(KEY.enter);
    for (let i = 0; i < AUTH_TYPES.indexOf('token'); i++) await r.press(KEY.down);
    await r.press(KEY.enter);
    for (const input of ['https://lake.corp/api', 's3://warehouse', 'us-east-1', 'tok-sentinel-1234']) {
      await r.press(input);
      await r.press(KEY.enter);
    }
    for (let i = 0; i < 10; i++) await r.press(KEY.enter);
    expect(r.frame()).toContain('Review');
    await r.press(KEY.enter);
    await waitUntil(() => saving);
    await r.press(KEY.ctrlC);
    await waitUntil(() => done.mock.calls.length > 0);
    expect(done).toHaveBeenCalledWith({ saved: false, profileName: 'prod', interrupted: true });
    await waitUntil(() => aborted !== undefined);
    expect(ctx.config.getProfile('prod')).toBeUndefined();
    // What it may have written is removed, and no longer listed for removal.
    expect(ctx.keychain.size).toBe(0);
    expect(ctx.config.sweepEntries()).toEqual([]);
  });
});
