// Where a saving command puts secrets when no flag says: the profile's (or session's) own storage, then
// FLOE_SECRETS, then the choice remembered for the config folder, then the keychain. A flag or an answer
// that picks the file in a folder that has not chosen yet is remembered, so later saves need no flag;
// moving what is stored is "floe secrets use", never a side effect.

import { UsageError } from '../cli/io.js';
import type { SecretsChoice } from '../config/store.js';
import type { SecretStorage } from '../secrets/store.js';
import type { Context } from './context.js';

/** Why a save uses its storage: the message about a keychain failure and the saved line depend on it. */
export type ChoiceSource = 'flag' | 'own' | 'env' | 'folder' | 'default';

export interface StorageChoice {
  storage: SecretStorage;
  source: ChoiceSource;
}

export interface StorageFlags {
  'insecure-storage'?: boolean | undefined;
  'env-secrets'?: boolean | undefined;
}

/** FLOE_SECRETS, checked: anything but keychain or file is a usage error naming a valid value. */
export function secretsFromEnv(command: string, env: NodeJS.ProcessEnv): SecretsChoice | undefined {
  const raw = env.FLOE_SECRETS;
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'keychain' || raw === 'file') return raw;
  throw new UsageError(
    [`FLOE_SECRETS must be "keychain" or "file" (e.g. FLOE_SECRETS=file), not "${raw}"`],
    command,
  );
}

/** `own`: where the profile or session being replaced keeps its secrets (it stays there). */
export function chooseStorage(
  ctx: Context,
  flags: StorageFlags,
  command: string,
  own: SecretStorage | undefined,
  env: NodeJS.ProcessEnv,
): StorageChoice {
  const fromEnv = secretsFromEnv(command, env);
  if (flags['insecure-storage']) return { storage: 'file', source: 'flag' };
  if (flags['env-secrets']) return { storage: 'env', source: 'flag' };
  if (own) return { storage: own, source: 'own' };
  if (fromEnv) return { storage: fromEnv, source: 'env' };
  const folder = ctx.config.secretsChoice();
  if (folder) return { storage: folder, source: 'folder' };
  return { storage: 'keychain', source: 'default' };
}

/**
 * After a save in `storage`, first planned as `choice`: the file, when the user chose it (the flag, or an
 * answer after the keychain failed), is remembered for a folder that had no choice yet. FLOE_SECRETS is
 * for one run; a folder that chose the keychain keeps it: only "floe secrets use" changes a choice.
 */
export function rememberChoice(ctx: Context, storage: SecretStorage, choice: StorageChoice): void {
  const chosen = choice.source === 'flag' || choice.storage !== storage;
  if (storage === 'file' && chosen && ctx.config.secretsChoice() === undefined)
    ctx.config.setSecretsChoice('file');
}

/** The hint when the keychain refused a save and no one can be asked. */
export function keychainHint(choice: StorageChoice, envSecrets: boolean): string {
  const env = envSecrets ? ', or --env-secrets to read them from FLOE_* variables at run time' : '';
  if (choice.source === 'folder' || choice.source === 'env')
    return `This config folder keeps secrets in the OS keychain (${choice.source === 'env' ? 'FLOE_SECRETS=keychain' : '"floe secrets use keychain"'}): fix the keychain, or move everything to the 0600 file with "floe secrets use file"${env}.`;
  return `Pass --insecure-storage once to keep secrets in a 0600 file (floe remembers it for this config folder), or set FLOE_SECRETS=file${env}.`;
}

/** Where a save put the secrets, for the line that reports it. */
export function describeSaved(ctx: Context, storage: SecretStorage): string {
  if (storage === 'keychain') return 'in the OS keychain';
  if (storage === 'file') return `in ${ctx.config.secretsPath} (plaintext, mode 0600)`;
  return 'not stored (read from FLOE_* variables at run time)';
}
