// keytar inside the single executable (scripts/build-binary.mjs aliases `keytar` to this module there;
// the npm CLI loads keytar from node_modules). The native addon travels as the SEA asset keytar.node:
// it is written into a folder floe creates for it (mkdtemp: 0700), loaded with process.dlopen and
// removed at once (the loaded library stays mapped). Whoever can rename entries in a folder on the way
// to that file can swap the module between its writing and its loading, and run code inside floe: so
// the folder is made only where every folder from it up to / belongs to this user or root and is not
// writable by other users unless sticky, first under TMPDIR, else $XDG_RUNTIME_DIR, else the config
// folder, and checked again once made (a folder of this user's, 0700, where it was asked for). It links
// libsecret: on a host without it the load fails, and keychain.ts turns that into "no keychain", as
// without keytar.
import { lstatSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { getAsset } from 'node:sea';
import { ensurePrivateDir } from '../config/files.js';
import { configDir } from '../config/store.js';

interface Native {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** The prefix keychain.ts recognises: the message after it is already the explanation. */
export const SEA_KEYTAR_ERROR = 'the single-file floe could not load its keychain module';

const firstLine = (error: unknown) =>
  error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);

/**
 * Why a folder under `parent` could be swapped by another user, or undefined when it cannot: every
 * folder from `parent` (symlinks resolved) up to / belongs to this user or root, and none is writable
 * by group or others without the sticky bit.
 */
export function unsafeParent(parent: string, uid = process.getuid?.()): string | undefined {
  let folder: string;
  try {
    folder = realpathSync(parent);
  } catch (error) {
    return `${parent} cannot be used (${firstLine(error)})`;
  }
  for (;;) {
    const stat = statSync(folder);
    if (!stat.isDirectory()) return `${folder} is not a folder`;
    if (uid !== undefined && stat.uid !== uid && stat.uid !== 0)
      return `${folder} belongs to another user (uid ${stat.uid})`;
    if ((stat.mode & 0o022) !== 0 && (stat.mode & 0o1000) === 0)
      return `${folder} may be written by other users (mode ${(stat.mode & 0o777).toString(8)}, not sticky)`;
    if (dirname(folder) === folder) return undefined;
    folder = dirname(folder);
  }
}

/**
 * A new folder for the module: under the first of `parents` that unsafeParent accepts, made by
 * mkdtemp and checked after its creation. The reasons for each parent refused when none is left.
 */
export function moduleFolder(
  parents: readonly (readonly [name: string, dir: string | undefined])[],
  uid = process.getuid?.(),
): { folder: string } | { refused: string[] } {
  const refused: string[] = [];
  for (const [name, dir] of parents) {
    if (!dir) {
      refused.push(`${name} is not set`);
      continue;
    }
    const unsafe = unsafeParent(dir, uid);
    if (unsafe) {
      refused.push(`${name}: ${unsafe}`);
      continue;
    }
    const wanted = realpathSync(dir);
    let folder: string;
    try {
      folder = mkdtempSync(join(wanted, 'floe-keytar-'));
    } catch (error) {
      refused.push(`${name}: ${firstLine(error)}`);
      continue;
    }
    const stat = lstatSync(folder);
    const own = stat.isDirectory() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o077) === 0;
    if (own && dirname(realpathSync(folder)) === wanted) return { folder };
    refused.push(`${name}: ${folder} changed after floe created it`);
  }
  return { refused };
}

/** Where the module may be unpacked, in order (the config folder is created 0700 if missing). */
function parents(): [string, string | undefined][] {
  // The addon is unpacked once for the process (whatever command loads it first): the process's folders.
  const config = configDir(process.env);
  try {
    ensurePrivateDir(config);
  } catch {
    // unsafeParent says why it cannot be used.
  }
  return [
    [`TMPDIR (${tmpdir()})`, tmpdir()],
    ['XDG_RUNTIME_DIR', process.env.XDG_RUNTIME_DIR],
    [`the config folder (${config})`, config],
  ];
}

function load(): Native {
  const chosen = moduleFolder(parents());
  if ('refused' in chosen)
    throw new Error(
      `${SEA_KEYTAR_ERROR} (no private folder to unpack it into: ${chosen.refused.join('; ')}); set TMPDIR to a folder of your own (chmod 700) to use the OS keychain.`,
    );
  const { folder } = chosen;
  try {
    const file = join(folder, 'keytar.node');
    writeFileSync(file, new Uint8Array(getAsset('keytar.node')), { mode: 0o600, flag: 'wx' });
    const module = { exports: {} as Native };
    process.dlopen(module, file);
    return module.exports;
  } catch (error) {
    const reason = firstLine(error);
    const hint = /libsecret|libglib|cannot open shared object/i.test(reason)
      ? 'install libsecret (Debian/Ubuntu: apt-get install libsecret-1-0) to use the OS keychain'
      : `check that ${dirname(folder)} is not mounted noexec to use the OS keychain`;
    throw new Error(`${SEA_KEYTAR_ERROR} (${reason}); ${hint}.`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

let native: Native | undefined;
const keytar = (): Native => {
  native ??= load();
  return native;
};

function required(value: string, name: string): void {
  if (!value) throw new Error(`${name} is required.`);
}

// keytar's own lib/keytar.js, over the addon.
export default {
  getPassword(service: string, account: string) {
    required(service, 'Service');
    required(account, 'Account');
    return keytar().getPassword(service, account);
  },
  setPassword(service: string, account: string, password: string) {
    required(service, 'Service');
    required(account, 'Account');
    required(password, 'Password');
    return keytar().setPassword(service, account, password);
  },
  deletePassword(service: string, account: string) {
    required(service, 'Service');
    required(account, 'Account');
    return keytar().deletePassword(service, account);
  },
};
