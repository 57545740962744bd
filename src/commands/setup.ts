// floe setup: the guided wizard on a terminal, or the same answers as flags for scripts and CI.
import { openContext } from '../cli/context.js';
import {
  destinationFlagHelp,
  destinationOptions,
  hasDestinationFlags,
  issueLines,
  valuesFromFlags,
} from '../cli/destination-flags.js';
import { settled } from '../cli/interrupt.js';
import { canPrompt, EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { reportLockWait, saveProfile } from '../cli/profiles.js';
import { profileValues } from '../config/store.js';
import { emptyValues } from '../destination/fields.js';
import { validate } from '../destination/schema.js';
import { KeychainUnavailableError, type SecretStorage } from '../secrets/store.js';

export const HELP = `Usage: floe setup [--profile NAME] [flags]

Creates or edits a destination profile. On a terminal, opens the guided wizard (pre-filled with an
existing profile and any flags given) and ends with the connection test ("floe test"). With --yes, or
without a terminal, the flags are the answers.

Flags:
  --profile NAME        profile to create or edit (default: "default")
${destinationFlagHelp()}
  --insecure-storage    store secrets in a plaintext file (mode 0600) instead of the OS keychain
  --env-secrets         store no secrets: read them from FLOE_* variables at run time
  --yes                 never prompt; fail (exit 2) naming any missing flag
  --skip-test           on a terminal, don't run the connection test after saving
  --help                this help

Secrets are never flag values: pipe one in with --token-stdin, --credential-stdin or --secret-key-stdin,
give --gcp-service-account-file PATH, or set FLOE_TOKEN, FLOE_CREDENTIAL, FLOE_ACCESS_KEY,
FLOE_SECRET_KEY, FLOE_GCP_SERVICE_ACCOUNT_JSON.`;

export async function run(argv: string[]): Promise<number> {
  const { values: flags } = parseCommandArgs('setup', argv, {
    ...destinationOptions(),
    profile: { type: 'string', default: 'default' },
    'insecure-storage': { type: 'boolean' },
    'env-secrets': { type: 'boolean' },
    yes: { type: 'boolean' },
    'skip-test': { type: 'boolean' },
    help: { type: 'boolean' },
  });
  if (flags.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.OK;
  }
  if (flags['insecure-storage'] && flags['env-secrets'])
    throw new UsageError(['--insecure-storage and --env-secrets exclude each other'], 'setup');
  const ctx = openContext();
  const name = flags.profile;
  const existing = ctx.config.getProfile(name);
  let base = existing ? profileValues(existing) : emptyValues();
  if (existing) {
    try {
      base = (await ctx.vault.loadProfileSecrets(name, base, existing.secretStorage, existing.storedSecrets))
        .values;
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      process.stderr.write(`floe: the stored secrets cannot be read: ${error.reason} Enter them again.\n`);
    }
  }
  const storage: SecretStorage = flags['insecure-storage']
    ? 'file'
    : flags['env-secrets']
      ? 'env'
      : 'keychain';
  const values = await valuesFromFlags(flags, base);

  if (canPrompt() && !flags.yes) {
    const { runSetupWizard } = await import('../ui/setup/index.js');
    const result = await runSetupWizard({
      ctx,
      profileName: name,
      initial: existing || hasDestinationFlags(flags) ? values : undefined,
      storage,
      insecureStorage: storage === 'file',
    });
    if (result.interrupted) {
      await settled();
      return EXIT.INTERRUPTED;
    }
    if (!result.saved) return EXIT.FAILURE;
    if (flags['skip-test']) return EXIT.OK;
    const test = await import('./test.js');
    return test.run(['--profile', result.profileName]);
  }

  const result = validate(values);
  if (!result.ok) {
    const { missing, invalid } = issueLines(result.issues);
    const lines = [...invalid, ...missing];
    if (!canPrompt() && missing.length > 0 && !flags.yes)
      lines.push('no terminal to prompt on: pass the flags above (floe setup --help lists them)');
    throw new UsageError(lines, 'setup');
  }
  let stored: string[];
  try {
    stored = await saveProfile(ctx, name, result.values, storage, { onWait: reportLockWait });
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
    throw new FloeError(
      `Profile "${name}" was not saved: the OS keychain cannot be used: ${error.reason}`,
      'Pass --insecure-storage to keep secrets in a 0600 file, or --env-secrets to read them from FLOE_* variables at run time.',
    );
  }
  const where =
    stored.length === 0
      ? 'no secrets to store'
      : storage === 'keychain'
        ? 'secrets in the OS keychain'
        : storage === 'file'
          ? `secrets in ${ctx.config.secretsPath} (plaintext, mode 0600)`
          : 'secrets read from FLOE_* variables at run time';
  process.stderr.write(`Saved profile "${name}" (${where}). Next: floe test --profile ${name}\n`);
  if (storage === 'file' && stored.length > 0) process.stderr.write('! Secrets are stored in plain text.\n');
  return EXIT.OK;
}
