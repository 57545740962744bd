// Loading and saving whole profiles: non-secret fields in the config file, secrets in the vault, changed
// together through the save protocol of secrets/shadow.ts.

import { guarded } from '../cli/interrupt.js';
import { FloeError } from '../cli/io.js';
import type { Writer } from '../cli/output.js';
import { profileNameProblem, profileValues, type StoredProfile } from '../config/store.js';
import { FIELD_BY_ID, type FieldId, type Values } from '../destination/fields.js';
import type { LocalProfiles } from '../management/jobtest-prepare.js';
import { newGeneration, profileEntries, sweep, switchSecrets, transaction } from '../secrets/shadow.js';
import { accounts, type SecretStorage } from '../secrets/store.js';
import { secretsToStore } from '../secrets/vault.js';
import type { Context } from './context.js';

export interface LoadedProfile {
  name: string;
  stored: StoredProfile;
  /** Values with secrets filled in from the environment or the profile's secret storage. */
  values: Values;
  /** Secrets found nowhere (by field id). */
  missing: FieldId[];
}

/** The profile to use when none is named: the only one, or one named "default". */
export function resolveProfileName(ctx: Context, name: string | undefined): string {
  if (name) return name;
  const names = ctx.config.profileNames();
  if (names.length === 1) return names[0]!;
  if (names.includes('default')) return 'default';
  if (names.length === 0) throw new FloeError('No profile exists yet.', 'Create one with "floe setup".');
  throw new FloeError(`Several profiles exist (${names.join(', ')}).`, 'Name one with --profile NAME.');
}

export async function loadProfile(ctx: Context, name: string | undefined): Promise<LoadedProfile> {
  const resolved = resolveProfileName(ctx, name);
  const stored = ctx.config.getProfile(resolved);
  if (!stored)
    throw new FloeError(
      `Profile "${resolved}" does not exist.`,
      `Known profiles: ${ctx.config.profileNames().join(', ') || 'none'}. Create it with "floe setup --profile ${resolved}".`,
    );
  const loaded = await ctx.vault.loadProfileSecrets(resolved, profileValues(stored), stored);
  return { name: resolved, stored, values: loaded.values, missing: loaded.missing };
}

/** The profiles of `ctx` as a job test reads them (management/jobtest-prepare.ts's LocalProfiles). */
export function localProfiles(ctx: Context): LocalProfiles {
  return { names: () => ctx.config.profileNames(), load: (name) => loadProfile(ctx, name) };
}

/** Fails with the env variables to set when a profile's secrets are missing. */
export function requireSecrets(profile: LoadedProfile): void {
  if (profile.missing.length === 0) return;
  const lines = profile.missing.map((id) => `${FIELD_BY_ID[id].label} (${FIELD_BY_ID[id].env})`);
  throw new FloeError(
    `Profile "${profile.name}" has no value for: ${lines.join(', ')}.`,
    profile.stored.secretStorage === 'env'
      ? 'The profile reads its secrets from the environment: set the variables named above.'
      : `Set the variables named above, or store the secrets again with "floe setup --profile ${profile.name}".`,
  );
}

/**
 * Saves a validated profile as one step: under the config lock (so concurrent saves from other floe
 * processes are serialised and none is lost), the secrets are written as new entries beside the ones in
 * use, and the config write that names them is the commit (secrets/shadow.ts). Any failure, Ctrl-C or
 * SIGTERM before it leaves the previous profile whole and removes what was written; a SIGKILL leaves it
 * whole too, and the next run removes the rest. A keychain failure (KeychainUnavailableError) happens
 * before anything is written, so the caller can offer a fallback. Returns the ids of the secrets stored.
 */
export interface SaveProfileOptions {
  /** Aborting (Ctrl-C in a screen) undoes the save if it has not finished. */
  signal?: AbortSignal;
  /** Told when another floe process holds the config lock and the save waits for it. */
  onWait?: (lockPath: string) => void;
}

export async function saveProfile(
  ctx: Context,
  name: string,
  values: Values,
  storage: SecretStorage,
  options: SaveProfileOptions = {},
): Promise<FieldId[]> {
  const problem = profileNameProblem(name);
  if (problem) throw new FloeError(problem);
  const stored = secretsToStore(values, storage);
  const generation = stored.length > 0 ? newGeneration() : undefined;
  const fresh = new Map(
    stored.map((id) => [accounts.profileSecret(name, id, generation), values.fields[id] as string]),
  );
  await guarded(
    (aborted, say) =>
      transaction(
        ctx,
        async () => {
          const previous = ctx.config.getProfile(name);
          await switchSecrets(ctx, {
            storage,
            fresh,
            stale: previous ? profileEntries(name, previous) : [],
            signal: aborted,
            commit: (sweep) => {
              ctx.config.saveProfile(name, values, storage, stored, {
                ...(generation ? { generation } : {}),
                sweep,
              });
              say(`floe: interrupted; profile "${name}" is saved, finishing…`);
            },
          });
        },
        { signal: aborted, ...(options.onWait ? { onWait: options.onWait } : {}) },
      ),
    options.signal,
  );
  return stored;
}

/** For commands without a screen: says on `to` (stderr) that the save waits for another process. */
export function reportLockWait(to: Writer): (lockPath: string) => void {
  return (lockPath) => to`floe: another floe process is saving; waiting for it (${lockPath})…`;
}

/**
 * Deletes a profile: the config write that drops it lists its entries for removal, then they are removed.
 * The keychain is asked first, so that an unreachable one leaves the profile and its secrets in place.
 */
export async function deleteProfile(ctx: Context, name: string): Promise<boolean> {
  return transaction(ctx, async () => {
    const stored = ctx.config.getProfile(name);
    if (!stored) return false;
    const entries = profileEntries(name, stored);
    const inKeychain = entries.find((entry) => entry.storage === 'keychain');
    if (inKeychain) await ctx.vault.backend('keychain').get(inKeychain.account);
    ctx.config.deleteProfile(name, { add: entries });
    await sweep(ctx);
    return true;
  });
}
