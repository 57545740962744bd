// floe setup: the guided wizard on a terminal, or the same answers as flags for scripts and CI.

import type { Context } from '../app/context.js';
import {
  destinationFlagHelp,
  destinationOptions,
  hasDestinationFlags,
  impliedAuthType,
  issueLines,
  valuesFromFlags,
} from '../app/destination-flags.js';
import { reportLockWait, saveProfile } from '../app/profiles.js';
import { chooseStorage, describeSaved, keychainHint, rememberChoice } from '../app/secrets-choice.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { settled } from '../cli/interrupt.js';
import { floeCommand } from '../cli/invocation.js';
import { EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { profileValues, type StoredProfile } from '../config/store.js';
import {
  AUTH_TYPE_INFO,
  AUTH_TYPES,
  emptyValues,
  FIELD_BY_ID,
  FIELDS,
  type FieldId,
  type Values,
} from '../destination/fields.js';
import { PRESETS } from '../destination/presets.js';
import { validate } from '../destination/schema.js';
import { noSessionBus } from '../secrets/keychain.js';
import { accounts, fromEnv, KeychainUnavailableError } from '../secrets/store.js';
import { holdKeys } from '../text/keys.js';
import { loadScreen } from '../ui/load.js';
import type { EnvValues } from '../ui/setup/origin.js';

export const HELP = `Usage: floe setup [--profile NAME] [flags]

Creates or edits a destination profile. On a terminal, opens the guided wizard (pre-filled with an
existing profile and any flags given) and ends with the connection test ("floe test"). With --yes, or
without a terminal, the flags are the answers; without --auth-type, the authentication is the one
the secret flags imply (--credential-stdin: oauth2), the preset's only one, or the profile's own,
else --auth-type is a missing flag. The saved line names the authentication used.

Flags:
  --profile NAME        profile to create or edit (default: "default")
${destinationFlagHelp()}
  --insecure-storage    store secrets in a plaintext file (mode 0600); remembered for this config folder
  --env-secrets         store no secrets: read them from FLOE_* variables at run time
  --yes                 never prompt; fail (exit 2) naming any missing flag
  --skip-test           on a terminal, don't run the connection test after saving
  --help                this help

Secrets are never flag values: pipe one in with --token-stdin, --credential-stdin or --secret-key-stdin,
give --gcp-service-account-file PATH, or set FLOE_TOKEN, FLOE_CREDENTIAL, FLOE_ACCESS_KEY,
FLOE_SECRET_KEY, FLOE_GCP_SERVICE_ACCOUNT_JSON.`;

/**
 * Without --auth-type and without prompting: why the profile gets its auth type, or null when the
 * preset offers several and nothing says which (then --auth-type is a missing flag).
 */
function authTypeReason(
  flags: Record<string, string | boolean | undefined>,
  existing: StoredProfile | undefined,
  values: Values,
): string | null {
  const preset = PRESETS[values.preset];
  if (preset.authTypes.length === 1) return `the only one ${preset.label} offers`;
  const implied = impliedAuthType(flags, values);
  if (implied) return `implied by ${implied.by.join(', ')}`;
  if (existing?.preset === values.preset && existing.authType === values.authType) return "the profile's own";
  return null;
}

/** The secret fields of `values` that hold a value. */
function secretValues(values: Values): Partial<Record<FieldId, string>> {
  const out: Partial<Record<FieldId, string>> = {};
  for (const def of FIELDS)
    if (def.secret && typeof values.fields[def.id] === 'string' && values.fields[def.id] !== '')
      out[def.id] = values.fields[def.id] as string;
  return out;
}

/** The fields the user gave: those the profile holds and those set by a flag. */
function givenFields(flags: Record<string, string | boolean | undefined>, base: Values): FieldId[] {
  return FIELDS.filter(
    (def) =>
      (base.fields[def.id] !== undefined && base.fields[def.id] !== '') ||
      (def.flag !== undefined && flags[def.flag] !== undefined) ||
      (def.secretFlag !== undefined && flags[def.secretFlag] !== undefined) ||
      def.flagAliases?.some((alias) => flags[alias] !== undefined),
  ).map((def) => def.id);
}

/** The secret fields FLOE_* variables set, for the wizard to offer with their source. */
function secretEnvValues(env: NodeJS.ProcessEnv): EnvValues {
  const out: EnvValues = {};
  for (const def of FIELDS) {
    const value = def.secret && def.env ? fromEnv(def.env, env) : undefined;
    if (def.env && value !== undefined) out[def.id] = { name: def.env, value };
  }
  return out;
}

/** The profile's own values where FLOE_* variables won the load: the stored secret, or none. */
async function withoutEnv(
  ctx: Context,
  name: string,
  stored: StoredProfile,
  values: Values,
  envIds: readonly FieldId[],
): Promise<Values> {
  const fields = { ...values.fields };
  for (const id of envIds) {
    delete fields[id];
    if (stored.secretStorage === 'env' || !stored.storedSecrets?.includes(id)) continue;
    const own = await ctx.vault
      .backend(stored.secretStorage)
      .get(accounts.profileSecret(name, id, stored.secretsGeneration));
    if (own !== undefined) fields[id] = own;
  }
  return { ...values, fields };
}

/** A field whose need depends on the auth type: not worth naming while the auth type is unknown. */
const authDependent = (values: Values, field: string) =>
  field in FIELD_BY_ID &&
  AUTH_TYPES.some(
    (authType) =>
      FIELD_BY_ID[field as FieldId].applies({ ...values, authType }) !==
      FIELD_BY_ID[field as FieldId].applies(values),
  );

function parseFlags(argv: string[]) {
  return parseCommandArgs('setup', argv, {
    ...destinationOptions(),
    profile: { type: 'string', default: 'default' },
    'insecure-storage': { type: 'boolean' },
    'env-secrets': { type: 'boolean' },
    yes: { type: 'boolean' },
    'skip-test': { type: 'boolean' },
    help: { type: 'boolean' },
  }).values;
}

/**
 * The flags as given: the destination's (destination-flags.ts: values, secret sources; read and checked
 * against the profile by run), --profile (default "default"), the storage flags, --yes, --skip-test.
 */
export type Options = ReturnType<typeof parseFlags>;

/** The Options of `floe setup --profile NAME` (the home screen's edit and new). */
export function options(profile: string): Options {
  return { profile };
}

export function parse(argv: string[]): Options {
  const flags = parseFlags(argv);
  if (flags.help) return flags;
  if (flags['insecure-storage'] && flags['env-secrets'])
    throw new UsageError(['--insecure-storage and --env-secrets exclude each other'], 'setup');
  return flags;
}

export async function run(flags: Options, io: Io): Promise<number> {
  if (flags.help) return showHelp(HELP, io);
  const ctx = await io.openContext();
  const name = flags.profile;
  const existing = ctx.config.getProfile(name);
  const wizard = io.canPrompt() && !flags.yes;
  let base = existing ? profileValues(existing) : emptyValues();
  if (existing) {
    try {
      const loaded = await ctx.vault.loadProfileSecrets(name, base, existing);
      base = loaded.values;
      // The wizard shows what the profile holds; FLOE_* variables are offered beside it, with their source.
      if (wizard) base = await withoutEnv(ctx, name, existing, base, loaded.fromEnv);
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      io.err`floe: the stored secrets cannot be read: ${error.reason} Enter them again.`;
    }
  }
  // An existing profile keeps where its secrets go unless a flag says otherwise: editing a
  // file-backed or env profile never asks again. A new one goes where this config folder chose.
  const choice = chooseStorage(ctx, flags, 'setup', existing?.secretStorage, io.env);
  const storage = choice.storage;
  const values = await valuesFromFlags(flags, base, wizard ? {} : io.env, io.stdin);

  if (wizard) {
    const { runSetupWizard } = await loadScreen(() => import('../ui/setup/index.js'));
    const result = await runSetupWizard({
      ctx,
      profileName: name,
      initial: existing || hasDestinationFlags(flags) ? values : undefined,
      typed: givenFields(flags, base),
      env: secretEnvValues(io.env),
      save: saveProfile,
      ...(storage === 'keychain' && noSessionBus(io.env)
        ? { keychainNote: 'unreachable here (no D-Bus): saving asks where' }
        : {}),
      openOn: existing ? 'review' : 'preset',
      storage,
      insecureStorage: storage === 'file',
    });
    if (result.interrupted) {
      await settled();
      return EXIT.INTERRUPTED;
    }
    if (result.left) {
      io.err`Setup left: nothing was saved (profile "${name}" is as it was).`;
      return EXIT.OK;
    }
    if (!result.saved) return EXIT.FAILURE;
    if (result.storage) rememberChoice(ctx, result.storage, choice);
    // The wizard was on the alternate screen: what was saved stays in the shell's.
    io.err`Saved profile "${result.profileName}".`;
    if (flags['skip-test']) return EXIT.OK;
    // Keys typed while the test starts wait for its screen, unchanged.
    holdKeys();
    const test = await import('./test.js');
    // "Don't store": the secrets just typed serve this one test, in this process only.
    const typed = result.storage === 'env' && result.values ? secretValues(result.values) : undefined;
    return test.run(test.options(result.profileName, typed), io);
  }

  const given: Record<string, string | boolean | undefined> = flags;
  const authReason = given['auth-type'] === undefined ? authTypeReason(given, existing, values) : undefined;
  const result = validate(values);
  if (!result.ok || authReason === null) {
    const issues = result.ok ? [] : result.issues;
    const { missing, invalid } = issueLines(
      authReason === null ? issues.filter((issue) => !authDependent(values, issue.field)) : issues,
      values,
    );
    if (authReason === null) {
      const offered = PRESETS[values.preset].authTypes;
      missing.unshift(
        `missing authentication type: pass --auth-type, one of ${offered.join(', ')} (${PRESETS[values.preset].label} offers several; e.g. --auth-type ${offered[0]})`,
      );
    }
    const lines = [...invalid, ...missing];
    if (!io.canPrompt() && missing.length > 0 && !flags.yes)
      lines.push('no terminal to prompt on: pass the flags above (floe setup --help lists them)');
    throw new UsageError(lines, 'setup');
  }
  let stored: string[];
  try {
    stored = await saveProfile(ctx, name, result.values, storage, { onWait: reportLockWait(io.err) });
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
    throw new FloeError(
      `Profile "${name}" was not saved: the OS keychain cannot be used: ${error.reason}`,
      keychainHint(choice, true),
    );
  }
  rememberChoice(ctx, storage, choice);
  const where = stored.length === 0 ? 'no secrets to store' : `secrets ${describeSaved(ctx, storage)}`;
  const auth = `authentication: ${AUTH_TYPE_INFO[result.values.authType].label}${authReason ? `, ${authReason}` : ''}`;
  io.err`Saved profile "${name}" (${auth}; ${where}). Next: ${floeCommand(io.env)} test --profile ${name}`;
  if (storage === 'file' && stored.length > 0) io.err`! Secrets are stored in plain text.`;
  return EXIT.OK;
}
