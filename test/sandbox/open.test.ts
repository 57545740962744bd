// What `floe sandbox --open` prepares before the home screen: the "sandbox" profile and a logged-in
// OLake UI session, in the keychain when it works, else only in this process's FLOE_* variables.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../../src/app/context.js';
import { deleteProfile, loadProfile } from '../../src/app/profiles.js';
import { prepareProfile } from '../../src/commands/sandbox.js';
import { ConfigStore } from '../../src/config/store.js';
import { validate } from '../../src/destination/schema.js';
import { openSession, storeLogout } from '../../src/management/session.js';
import { PROFILE, prepareSession } from '../../src/sandbox/demo.js';
import { SANDBOX, type Sandbox, sandboxValues, startSandbox } from '../../src/sandbox/index.js';
import { accounts, KeychainUnavailableError, type SecretBackend } from '../../src/secrets/store.js';
import { openVault } from '../../src/secrets/vault.js';
import { itWithService } from '../support/services.js';

const JOBS = 9;
let sandbox: Sandbox;
const configDirs: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { catalog: 0, olake: 0, s3: 0 }, jobs: JOBS });
});

afterAll(async () => {
  await sandbox.stop();
  for (const dir of configDirs) rmSync(dir, { recursive: true, force: true });
});

function context(env: NodeJS.ProcessEnv, keychain: 'real' | 'broken'): Context {
  const dir = mkdtempSync(join(tmpdir(), 'floe-sandbox-open-'));
  configDirs.push(dir);
  const config = new ConfigStore(dir);
  if (keychain === 'real') return { config, vault: openVault(config.secretsPath, env) };
  const refuse = () => Promise.reject(new KeychainUnavailableError('no Secret Service in this test.'));
  const broken: SecretBackend = {
    kind: 'keychain',
    location: 'nowhere',
    get: refuse,
    set: refuse,
    delete: refuse,
  };
  return { config, vault: openVault(config.secretsPath, env, broken) };
}

async function jobsThroughSession(ctx: Context, env: NodeJS.ProcessEnv): Promise<number> {
  const session = await openSession(ctx, { env });
  try {
    return (await session.client.listJobs(session.project)).length;
  } finally {
    await session.client.close();
  }
}

describe('--open preparation', () => {
  it('the sandbox profile is valid: OAuth2 against the catalog, s3rver as the store', () => {
    const values = sandboxValues(sandbox);
    expect(validate(values).ok).toBe(true);
    expect(values.fields.catalogUrl).toBe(sandbox.catalog.url);
    expect(values.fields.s3Endpoint).toBe(sandbox.s3.url);
  });

  // Issue 19, item 2: the demo sets no FLOE_* variable for the profile, so none slips into the others.
  it('without a keychain: secrets in the throwaway file, no FLOE_* variable set, an in-process session', async () => {
    const env: NodeJS.ProcessEnv = {};
    const ctx = context(env, 'broken');
    const profile = await prepareProfile(ctx, sandbox);
    expect(profile).toEqual({ secrets: 'file', reason: 'no Secret Service in this test.' });
    expect(ctx.config.getProfile(PROFILE)).toMatchObject({ secretStorage: 'file' });
    expect(env).toEqual({});
    const loaded = await loadProfile(ctx, PROFILE);
    expect(loaded.missing).toEqual([]);
    expect(loaded.values).toEqual(sandboxValues(sandbox));

    const session = await prepareSession(ctx, sandbox, env);
    expect(session.storage).toBe('env');
    expect(env.FLOE_PASSWORD).toBe(SANDBOX.olake.password);
    expect(ctx.config.getManagement()).toMatchObject({
      url: sandbox.olake.url,
      secretStorage: 'env',
      rememberPassword: false,
    });
    expect(await jobsThroughSession(ctx, env)).toBe(JOBS);
  });

  itWithService(process.env.FLOE_TEST_KEYRING, 'the Secret Service')(
    'with a keychain: secrets and the session stored there, nothing put in the environment',
    async () => {
      const env: NodeJS.ProcessEnv = {};
      const ctx = context(env, 'real');
      const keychain = ctx.vault.backend('keychain');
      const origin = new URL(sandbox.olake.url).origin;
      try {
        expect(await prepareProfile(ctx, sandbox)).toEqual({ secrets: 'keychain' });
        expect(await prepareSession(ctx, sandbox, env)).toEqual({ storage: 'keychain' });
        expect(env).toEqual({});
        expect(ctx.config.getProfile(PROFILE)?.secretStorage).toBe('keychain');
        const generation = ctx.config.getProfile(PROFILE)?.secretsGeneration;
        expect(await keychain.get(accounts.profileSecret(PROFILE, 'secretKey', generation))).toBe(
          sandbox.s3.secretKey,
        );
        expect((await loadProfile(ctx, PROFILE)).values).toEqual(sandboxValues(sandbox));
        const settings = ctx.config.getManagement();
        expect(await keychain.get(accounts.session(origin, settings?.secretsGeneration))).toContain(
          'olake-session',
        );
        expect(settings).toMatchObject({ secretStorage: 'keychain', rememberPassword: true });
        expect(await jobsThroughSession(ctx, env)).toBe(JOBS);
      } finally {
        await deleteProfile(ctx, PROFILE);
        await storeLogout(ctx, sandbox.olake.url);
      }
    },
  );
});
