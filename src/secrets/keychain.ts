// The OS keychain through keytar (libsecret on Linux, Keychain on macOS, Credential Vault on Windows).
// keytar is an optional dependency loaded on first use; every call has a timeout so a hung unlock
// prompt cannot freeze the CLI. Swapping keytar for another keyring library touches only this file.
import { type KeytarLib, lazy } from '../lazy.js';
import { SEA_KEYTAR_ERROR } from './sea-keytar.js';
import { KeychainUnavailableError, type SecretBackend } from './store.js';

const TIMEOUT_MS = 3000;

/**
 * Linux without a D-Bus session bus (SSH, containers): no Secret Service can be asked, so screens can
 * say so before a save fails, and lines to paste add --insecure-storage.
 */
export function noSessionBus(env: NodeJS.ProcessEnv, platform = process.platform): boolean {
  return platform === 'linux' && !env.DBUS_SESSION_BUS_ADDRESS;
}

/** Where floe was installed without keytar: why, and the ways on (never the path of the chunk asking). */
export const KEYTAR_MISSING =
  'floe was installed without its keychain module; reinstall it letting keytar build (npm i -g --allow-scripts=keytar @olake/floe, with libsecret-1-dev, python3, make and g++ present), or keep secrets in the environment or the secrets file (--insecure-storage).';

/** Turns keytar's errors into one sentence that says why and what to do. */
export function explainKeychainError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // The single executable's keytar (sea-keytar.ts) explains itself: why, and what to install.
  if (message.startsWith(SEA_KEYTAR_ERROR)) return message;
  if (/autolaunch D-Bus|given address is empty|Failed to connect to socket/i.test(message))
    return 'there is no D-Bus session bus (usual over SSH or in containers), so no Secret Service can be reached.';
  if (/Could not connect/i.test(message))
    return 'the D-Bus session bus named in DBUS_SESSION_BUS_ADDRESS cannot be reached, so no Secret Service can be asked.';
  if (/collection\/login|does not exist at path|locked|No such secret collection/i.test(message))
    return 'the login keyring is missing or locked; unlock it (e.g. gnome-keyring-daemon --unlock) and try again.';
  // keytar (optional) not installed, or its addon not built: npm goes on when the build fails, and
  // npm 11 runs no install script of a global install unless allowed.
  if (/Cannot find (?:module|package)|MODULE_NOT_FOUND/i.test(message)) return KEYTAR_MISSING;
  if (/libsecret|cannot open shared object/i.test(message))
    return 'the keychain module cannot load libsecret; install it (Debian/Ubuntu: apt-get install libsecret-1-0) and try again.';
  if (/timed out/i.test(message))
    return 'the keychain did not answer within 3 seconds (an unlock prompt may be waiting).';
  if (/org\.freedesktop\.secrets|ServiceUnknown|was not provided by any \.service/i.test(message))
    return 'no Secret Service (gnome-keyring, KWallet, KeePassXC) is running on the session bus.';
  return `the keychain reported: ${message.split('\n')[0]}`;
}

async function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('keychain call timed out')), TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

let loaded: Promise<KeytarLib> | undefined;

function loadKeytar(): Promise<KeytarLib> {
  loaded ??= lazy.keytar();
  return loaded;
}

async function call<T>(fn: (k: KeytarLib) => Promise<T>): Promise<T> {
  try {
    return await withTimeout(loadKeytar().then(fn));
  } catch (error) {
    throw new KeychainUnavailableError(explainKeychainError(error));
  }
}

/** The entries of one keychain service (a config folder's is namespace.ts's folderKeychainService). */
export function keychainBackend(service: string): SecretBackend {
  return {
    kind: 'keychain',
    location: 'the OS keychain',
    get: (account) => call((k) => k.getPassword(service, account)).then((v) => v ?? undefined),
    set: (account, value) => call((k) => k.setPassword(service, account, value)),
    delete: (account) => call((k) => k.deletePassword(service, account)),
  };
}
