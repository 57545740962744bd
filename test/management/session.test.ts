// openSession: where the session comes from, and how it is renewed (the jobs browser's relogin).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../../src/app/context.js';
import { passwordPrompt } from '../../src/app/management.js';
import { ConfigStore } from '../../src/config/store.js';
import { ManagementClient } from '../../src/management/client.js';
import { jarText, loadJar, openSession, type PasswordRequest } from '../../src/management/session.js';
import { ManagementError } from '../../src/management/types.js';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from '../../src/sandbox/olake-ui/index.js';
import { accounts } from '../../src/secrets/store.js';
import { openVault } from '../../src/secrets/vault.js';
import { tempConfigDir } from './support.js';

let ui: OlakeUiEmulator;
const logins = () => ui.requests.filter((r) => r.path === '/login').length;

function context(): Context {
  const config = new ConfigStore(tempConfigDir());
  return { config, vault: openVault(join(config.dir, 'secrets.json'), {}) };
}

beforeAll(async () => {
  ui = await startOlakeUiEmulator({ jobs: seedJobs(4, 9), users: { ops: 'pw-ops' } });
});
afterAll(() => ui.close());

describe('openSession', () => {
  it('uses the stored jar (saved before generations), and renews it silently with the remembered password', async () => {
    const ctx = context();
    ctx.config.setManagement({
      url: ui.url,
      username: 'ops',
      project: '123',
      secretStorage: 'file',
      rememberPassword: true,
    });
    const file = ctx.vault.backend('file');
    const seeded = new ManagementClient({ url: ui.url });
    await seeded.login('ops', 'pw-ops');
    await file.set(accounts.session(new URL(ui.url).origin), await jarText(seeded.jar));
    await file.set(accounts.password(new URL(ui.url).origin, 'ops'), 'pw-ops');

    const before = logins();
    const session = await openSession(ctx, { env: {} });
    expect(await session.client.listJobs(session.project)).toHaveLength(4);
    expect(logins()).toBe(before);

    ui.expireSessions();
    expect(await session.client.listJobs(session.project)).toHaveLength(4);
    expect(logins()).toBe(before + 1);
    const stored = await loadJar(file, { url: ui.url });
    expect(await stored?.getCookieString(`${ui.url}/`)).toBe(
      await session.client.jar.getCookieString(`${ui.url}/`),
    );
    await Promise.all([seeded.close(), session.client.close()]);
  });

  it('prefers FLOE_PASSWORD, then asks; without either it reports unauthorized', async () => {
    const ctx = context();
    ctx.config.setManagement({
      url: ui.url,
      username: 'ops',
      project: '123',
      secretStorage: 'env',
      rememberPassword: false,
    });
    const fromEnv = await openSession(ctx, { env: { FLOE_PASSWORD: 'pw-ops' } });
    expect(await fromEnv.client.listJobs('123')).toHaveLength(4);

    const asked: PasswordRequest[] = [];
    const asking = await openSession(ctx, {
      env: {},
      askPassword: async (request) => {
        asked.push(request);
        return 'pw-ops';
      },
    });
    expect(asking.hadSession()).toBe(false);
    expect(await asking.client.listTasks('123', 1)).toBeDefined();
    expect(asked).toEqual([{ url: ui.url, username: 'ops', expired: false }]);
    expect(asking.hadSession()).toBe(true);
    ui.expireSessions();
    expect(await asking.client.listTasks('123', 1)).toBeDefined();
    expect(asked.at(-1)).toEqual({ url: ui.url, username: 'ops', expired: true });
    expect(passwordPrompt(asked[0]!).text).toBe(`Sign in to the OLake UI at ${ui.url}. Password for ops: `);
    expect(passwordPrompt(asked[1]!).text).toBe(`The session at ${ui.url} has expired. Password for ops: `);

    const bare = await openSession(ctx, { env: {} });
    const error = await bare.client.listJobs('123').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManagementError);
    expect((error as ManagementError).kind).toBe('unauthorized');
    expect((error as ManagementError).message).toBe(
      `Not logged in to ${new URL(ui.url).origin}: no password to sign in as ops (floe login, or FLOE_PASSWORD)`,
    );
    await expect(bare.relogin('wrong')).rejects.toThrow(/Invalid credentials/);
    await bare.relogin('pw-ops');
    expect(await bare.client.listJobs('123')).toHaveLength(4);
    await Promise.all([fromEnv.client.close(), asking.client.close(), bare.client.close()]);
  });
});
