// What `floe login` and the sign-in screen share: the URL rule, the plain-http warning, POST /login,
// and keeping the session (and a remembered password) where the config folder's choice says.

import type { Context } from '../app/context.js';
import {
  chooseStorage,
  rememberChoice,
  type StorageChoice,
  type StorageFlags,
} from '../app/secrets-choice.js';
import { cleartextWarning } from '../catalog/transport.js';
import { FloeError } from '../cli/io.js';
import { ManagementClient } from '../management/client.js';
import { jarText, type SessionStorage, settingsFor, storeLogin } from '../management/session.js';
import { ManagementError } from '../management/types.js';
import { KeychainUnavailableError } from '../secrets/store.js';

/** The warning before the password goes to `url`, when it would go over plain http to another host. */
export function passwordWarning(url: string): string | undefined {
  return cleartextWarning(url, 'The password (and then the session cookie)');
}

/**
 * POST /login: the session's cookie jar as text. A refused password is a FloeError whose hint is
 * `retryHint` (the command names its flags, the screen its fields).
 */
export async function signIn(
  url: string,
  username: string,
  password: string,
  retryHint: string,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<string> {
  const client = new ManagementClient({ url, env });
  try {
    await client.login(username, password, signal);
    return await jarText(client.jar);
  } catch (error) {
    if (error instanceof ManagementError && error.kind === 'unauthorized')
      throw new FloeError(`${error.message}.`, retryHint);
    throw error;
  } finally {
    await client.close();
  }
}

export interface KeptLogin {
  url: string;
  username: string;
  project: string;
  session: string;
  password: string;
  remember: boolean;
}

/**
 * Stores a login as one switch where chooseStorage says (flags, the session's own storage, FLOE_SECRETS,
 * the folder's choice, the keychain). When the keychain refuses, `fallback` picks another storage (or
 * throws); the choice is remembered as `floe login` remembers it. Returns where the session went.
 */
export async function keepLogin(
  ctx: Context,
  login: KeptLogin,
  flags: StorageFlags,
  fallback: (reason: string, choice: StorageChoice) => Promise<SessionStorage>,
  env: NodeJS.ProcessEnv,
): Promise<{ storage: SessionStorage; remember: boolean }> {
  const previous = settingsFor(ctx, login.url);
  const choice = chooseStorage(ctx, flags, 'login', previous?.secretStorage, env);
  let storage: SessionStorage = choice.storage;
  for (;;) {
    try {
      await storeLogin(ctx, settings(login, storage, login.remember && storage !== 'env'), login);
      break;
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError) || storage !== 'keychain') throw error;
      storage = await fallback(error.reason, choice);
    }
  }
  rememberChoice(ctx, storage, choice);
  return { storage, remember: login.remember && storage !== 'env' };
}

/** The settings a login saves. */
export function settings(login: KeptLogin, storage: SessionStorage, remember: boolean) {
  return {
    url: login.url,
    username: login.username,
    project: login.project,
    secretStorage: storage,
    rememberPassword: remember,
  };
}
