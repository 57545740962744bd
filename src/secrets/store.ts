// Secret storage behind one small interface. Backends: the OS keychain (keytar), a 0600 plaintext
// file used only with explicit consent, and the environment (read-only; it always wins).
import type { SecretEnv } from '../destination/fields.js';
import { FloeError } from '../errors.js';

export type SecretStorage = 'keychain' | 'file' | 'env';

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

export const accounts = {
  profileSecret: (profile: string, field: string) => `profile/${profile}/${field}`,
  session: (origin: string) => `session/${origin}`,
  password: (origin: string, username: string) => `password/${origin}/${username}`,
};

export function fromEnv(
  name: SecretEnv | 'FLOE_PASSWORD',
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}
