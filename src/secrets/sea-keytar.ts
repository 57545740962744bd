// keytar inside the single executable (scripts/build-binary.mjs aliases `keytar` to this module there;
// the npm CLI loads keytar from node_modules). The native addon travels as the SEA asset keytar.node:
// it is written to a private folder (mkdtemp: 0700) under the temporary directory, loaded with
// process.dlopen and removed at once (the loaded library stays mapped). It links libsecret: on a host
// without it the load fails, and keychain.ts turns that into "no keychain", as without keytar.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAsset } from 'node:sea';

interface Native {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** The prefix keychain.ts recognises: the message after it is already the explanation. */
export const SEA_KEYTAR_ERROR = 'the single-file floe could not load its keychain module';

function load(): Native {
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), 'floe-keytar-'));
    const file = join(dir, 'keytar.node');
    writeFileSync(file, new Uint8Array(getAsset('keytar.node')), { mode: 0o600 });
    const module = { exports: {} as Native };
    process.dlopen(module, file);
    return module.exports;
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    const hint = /libsecret|libglib|cannot open shared object/i.test(reason)
      ? 'install libsecret (Debian/Ubuntu: apt-get install libsecret-1-0) to use the OS keychain'
      : `check that ${tmpdir()} (TMPDIR) is writable and not mounted noexec to use the OS keychain`;
    throw new Error(`${SEA_KEYTAR_ERROR} (${reason}); ${hint}.`);
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
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
