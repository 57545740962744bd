// The OLake UI session: the cookie jar kept in the secret store (one entry per origin), the remembered
// password for silent re-login, and the settings that say where both live. A login or a logout changes
// the settings and those entries together (secrets/shadow.ts). No prompts here; callers pass in how to ask.
import { CookieJar } from 'tough-cookie';
import type { ConfigStore, ManagementSettings } from '../config/store.js';
import { FloeError, UsageError } from '../errors.js';
import { managementEntries, newGeneration, sweep, switchSecrets, transaction } from '../secrets/shadow.js';
import { accounts, fromEnv, KeychainUnavailableError, type SecretBackend } from '../secrets/store.js';
import type { Vault } from '../secrets/vault.js';
import { ManagementClient, normalizeUrl } from './client.js';
import { ManagementError } from './types.js';

export const DEFAULT_URL = 'http://localhost:8000';
export const DEFAULT_USERNAME = 'admin';
export const DEFAULT_PROJECT = '123';

/** Where the session lives: the keychain, the 0600 file, or nowhere ('env': only this process). */
export type SessionStorage = NonNullable<ManagementSettings['secretStorage']>;

/** What a session needs of the command's context (app/context.ts's Context is one). */
export interface Context {
  config: ConfigStore;
  vault: Vault;
}

export function backendFor(ctx: Context, storage: SessionStorage | undefined): SecretBackend | undefined {
  return storage === 'keychain' || storage === 'file' ? ctx.vault.backend(storage) : undefined;
}

/** "stored in the OS keychain", "stored in the file …", or "not stored (this run only)". */
export function describeStorage(ctx: Context, storage: SessionStorage | undefined): string {
  const backend = backendFor(ctx, storage);
  if (!backend) return 'not stored (this run only)';
  return `stored in ${backend.kind === 'file' ? `the file ${backend.location}` : backend.location}`;
}

/** A --url flag, checked: a bad one is a usage error. */
export function urlFlag(raw: string | undefined, command: string): string | undefined {
  if (raw === undefined) return undefined;
  try {
    return normalizeUrl(raw);
  } catch (error) {
    throw new UsageError([`--url: ${(error as Error).message}`], command);
  }
}

/** The OLake UI the last login saved (else the default), checked: a hand-edited bad one names the file. */
export function savedUrl(ctx: Context): string {
  try {
    return normalizeUrl(ctx.config.getManagement()?.url ?? DEFAULT_URL);
  } catch (error) {
    throw new FloeError(
      `The OLake UI URL saved in ${ctx.config.path} cannot be used: ${(error as Error).message}.`,
      'Log in with "floe login --url URL", which replaces it.',
    );
  }
}

export function originOf(url: string): string {
  return new URL(normalizeUrl(url)).origin;
}

/** The saved settings, when they are for the same origin as `url`. */
export function settingsFor(ctx: Context, url: string): ManagementSettings | undefined {
  const settings = ctx.config.getManagement();
  return settings && originOf(settings.url) === originOf(url) ? settings : undefined;
}

/** The cookie jar as the text stored. */
export async function jarText(jar: CookieJar): Promise<string> {
  return JSON.stringify(await jar.serialize());
}

/** The stored session of the settings' origin (`settings` from settingsFor). */
export async function loadJar(
  backend: SecretBackend,
  settings: Pick<ManagementSettings, 'url' | 'secretsGeneration'>,
): Promise<CookieJar | undefined> {
  const text = await backend.get(accounts.session(originOf(settings.url), settings.secretsGeneration));
  if (!text) return undefined;
  try {
    return await CookieJar.deserialize(JSON.parse(text) as string);
  } catch {
    return undefined;
  }
}

/** What a login stores: the session, and the password when the settings remember it. */
export interface LoginSecrets {
  session: string;
  password: string;
}

/**
 * Stores a login as one switch (secrets/shadow.ts): the settings, and the session (with the password when
 * remembered) as new entries in `settings.secretStorage`; whatever the previous settings named is removed
 * afterwards. An unreachable keychain fails before anything changes.
 */
export async function storeLogin(
  ctx: Context,
  settings: Omit<ManagementSettings, 'secretsGeneration'>,
  secrets: LoginSecrets,
): Promise<void> {
  const storage = settings.secretStorage;
  const stores = storage === 'keychain' || storage === 'file';
  const generation = newGeneration();
  const origin = originOf(settings.url);
  const fresh = new Map<string, string>();
  if (stores) {
    fresh.set(accounts.session(origin, generation), secrets.session);
    if (settings.rememberPassword && settings.username !== undefined)
      fresh.set(accounts.password(origin, settings.username, generation), secrets.password);
  }
  await transaction(ctx, () =>
    switchSecrets(ctx, {
      storage: stores ? storage : 'env',
      fresh,
      stale: managementEntries(ctx.config.getManagement()),
      commit: (change) =>
        ctx.config.setManagement(
          { ...settings, ...(stores ? { secretsGeneration: generation } : {}) },
          change,
        ),
    }),
  );
}

/**
 * Forgets the stored login for `url`: one config write stops naming its session and password (listing
 * them for removal), then they are removed. Says which existed. When they are in the keychain and it
 * cannot be reached, fails (KeychainUnavailableError) before anything changes.
 */
export async function storeLogout(
  ctx: Context,
  url: string,
): Promise<{ session: boolean; password: boolean }> {
  return transaction(ctx, async () => {
    const settings = settingsFor(ctx, url);
    if (!settings) return { session: false, password: false };
    const entries = managementEntries(settings);
    const inKeychain = entries.find((entry) => entry.storage === 'keychain');
    if (inKeychain) await ctx.vault.backend('keychain').get(inKeychain.account);
    const { secretsGeneration: _, ...kept } = settings;
    ctx.config.setManagement(
      { ...kept, secretStorage: undefined, rememberPassword: false },
      { add: entries },
    );
    const removed = new Set((await sweep(ctx)).map((entry) => entry.account));
    const origin = originOf(url);
    return {
      session: removed.has(accounts.session(origin, settings.secretsGeneration)),
      password:
        settings.username !== undefined &&
        removed.has(accounts.password(origin, settings.username, settings.secretsGeneration)),
    };
  });
}

/**
 * Puts a renewed session in place of the stored one, when the settings (read again under the lock) still
 * keep one for this origin: a single entry, replaced whole, the remembered password unchanged.
 */
async function keepRenewedSession(ctx: Context, url: string, jar: CookieJar): Promise<void> {
  await ctx.config.locked(async () => {
    const settings = settingsFor(ctx, url);
    const backend = backendFor(ctx, settings?.secretStorage);
    if (!settings || !backend) return;
    await backend.set(accounts.session(originOf(url), settings.secretsGeneration), await jarText(jar));
  });
}

export interface Session {
  url: string;
  origin: string;
  username: string;
  project: string;
  storage: SessionStorage | undefined;
  client: ManagementClient;
  /**
   * Logs in again: with `password` when given, else FLOE_PASSWORD or the remembered password.
   * Throws ManagementError('unauthorized') when there is none or it is refused.
   */
  relogin(password?: string): Promise<void>;
  /**
   * Whether this server gave floe a session (a stored one, or a login in this run): a refusal then means
   * it expired; otherwise the user is signing in for the first time.
   */
  hadSession(): boolean;
}

/** What a password prompt names: the server, the user, and whether a session expired. */
export interface PasswordRequest {
  url: string;
  username: string;
  expired: boolean;
}

export interface OpenSessionOptions {
  url?: string;
  project?: string;
  /** Asks the user for the password when neither FLOE_PASSWORD nor a remembered one exists. */
  askPassword?: (request: PasswordRequest) => Promise<string | undefined>;
  /** Non-fatal problems (e.g. the keychain could not be read), one sentence each. */
  warn?: (message: string) => void;
  env?: NodeJS.ProcessEnv;
  /**
   * Fail with 'unauthorized' before any network call when there is nothing to log in with: no stored
   * session for this server, no FLOE_PASSWORD and no remembered password.
   */
  requireLogin?: boolean;
}

/** Opens the stored session for the configured (or given) OLake UI, re-logging in on a 401. */
export async function openSession(ctx: Context, options: OpenSessionOptions = {}): Promise<Session> {
  const env = options.env ?? process.env;
  const warn = options.warn ?? (() => {});
  const url = options.url === undefined ? savedUrl(ctx) : normalizeUrl(options.url);
  const origin = originOf(url);
  const settings = settingsFor(ctx, url);
  const username = settings?.username ?? DEFAULT_USERNAME;
  const project = options.project ?? settings?.project ?? DEFAULT_PROJECT;
  const storage = settings?.secretStorage;
  const backend = backendFor(ctx, storage);
  let jar: CookieJar | undefined;
  if (backend && settings) {
    try {
      jar = await loadJar(backend, settings);
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      warn(`The stored session cannot be read: ${error.reason}`);
    }
  }
  const client = new ManagementClient({ url, jar, env });
  let hadSession = jar !== undefined;

  const storedPassword = async (): Promise<string | undefined> => {
    if (!backend || !settings?.rememberPassword) return undefined;
    try {
      return await backend.get(accounts.password(origin, username, settings.secretsGeneration));
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      warn(`The remembered password cannot be read: ${error.reason}`);
      return undefined;
    }
  };

  if (options.requireLogin && !jar && !fromEnv('FLOE_PASSWORD', env) && !(await storedPassword()))
    throw new ManagementError(
      'unauthorized',
      `Not logged in to ${url}: floe has no session for it${settings?.secretStorage === 'env' ? ' (you chose not to store one) and FLOE_PASSWORD is not set' : ''}`,
    );

  const loginWith = async (password: string) => {
    await client.login(username, password);
    hadSession = true;
    if (!backend) return;
    try {
      await keepRenewedSession(ctx, url, client.jar);
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      warn(`The new session is used but not stored: ${error.reason}`);
    }
  };

  const relogin = async (password?: string) => {
    const chosen =
      password ??
      fromEnv('FLOE_PASSWORD', env) ??
      (await storedPassword()) ??
      (await options.askPassword?.({ url, username, expired: hadSession }));
    if (chosen === undefined || chosen === '')
      throw new ManagementError(
        'unauthorized',
        hadSession
          ? `The session at ${origin} has expired and no password is available to log in again as ${username}`
          : `Not logged in to ${origin}: no password to sign in as ${username} (floe login, or FLOE_PASSWORD)`,
      );
    await loginWith(chosen);
  };

  client.reauthenticate = async () => {
    await relogin();
    return true;
  };
  return { url, origin, username, project, storage, client, relogin, hadSession: () => hadSession };
}
