// Secret storage behind one small interface. Backends: the OS keychain (keytar), a 0600 plaintext
// file used only with explicit consent, and the environment (read-only; it always wins).

import type { SecretStorage } from '../config/store.js';
import type { SecretEnv } from '../destination/fields.js';
import { FloeError } from '../errors.js';

export type { SecretStorage };

export interface SecretBackend {
  readonly kind: Exclude<SecretStorage, 'env'>;
  /** Where the secrets live, for messages: "the OS keychain" or the file's path. */
  readonly location: string;
  get(account: string): Promise<string | undefined>;
  set(account: string, value: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

/** The keychain cannot be used; `reason` is one sentence a user can act on. */
export class KeychainUnavailableError extends FloeError {
  constructor(readonly reason: string) {
    super(`The OS keychain cannot be used: ${reason}`);
  }
}

/**
 * Account names of the entries. A save writes new values under a new generation (`profile@<gen>/…`) beside
 * the ones in use, so that switching the config over is the one step that commits (secrets/shadow.ts);
 * entries saved before generations have none (`profile/…`).
 */
const account = (kind: string, generation: string | undefined, rest: string) =>
  generation ? `${kind}@${generation}/${rest}` : `${kind}/${rest}`;

export const accounts = {
  profileSecret: (profile: string, field: string, generation?: string) =>
    account('profile', generation, `${profile}/${field}`),
  session: (origin: string, generation?: string) => account('session', generation, origin),
  password: (origin: string, username: string, generation?: string) =>
    account('password', generation, `${origin}/${username}`),
};

export function fromEnv(name: SecretEnv | 'FLOE_PASSWORD', env: NodeJS.ProcessEnv): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}
