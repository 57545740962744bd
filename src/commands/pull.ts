// floe pull: one of the OLake UI's destinations into a local profile, its secrets to the secret store.

import { openManagement } from '../app/management.js';
import { saveProfile } from '../app/profiles.js';
import { chooseStorage, describeSaved, keychainHint, rememberChoice } from '../app/secrets-choice.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { explained } from '../management/exit.js';
import {
  isMasked,
  JobConfigError,
  parseWriter,
  SECRET_WRITER_KEYS,
  valuesFor,
} from '../management/jobtest.js';
import { urlFlag } from '../management/session.js';
import { KeychainUnavailableError } from '../secrets/store.js';
import { sanitize } from '../text/sanitize.js';

export const HELP = `Usage: floe pull DEST_ID --profile NAME [--force] [--insecure-storage | --env-secrets]

Imports a destination of the OLake UI ("floe destinations" lists their ids) into a local profile, so
that "floe test" and "floe setup" work on it. Its secrets go where this config folder keeps them
("floe secrets" says where: the OS keychain unless you chose the 0600 file).

Flags:
  --profile NAME        profile to create (required)
  --force               replace the profile if it exists
  --insecure-storage    store secrets in a plaintext file (mode 0600); remembered for this config folder
  --env-secrets         store no secrets: read them from FLOE_* variables at run time
  --project ID          project (default: the one "floe login" saved, else 123)
  --url URL             the OLake UI (default: the one "floe login" used)
  --help                this help

Exit codes: 0 ok, 1 failure, 2 usage, 4 not logged in.`;

export type Options =
  | { help: true }
  | {
      help: false;
      /** The destination's id (a positive integer). */
      id: number;
      profile: string;
      force: boolean;
      'insecure-storage': boolean;
      'env-secrets': boolean;
      project?: string;
      url?: string;
    };

export function parse(argv: string[]): Options {
  const { values: flags, positionals } = parseCommandArgs(
    'pull',
    argv,
    {
      profile: { type: 'string' },
      force: { type: 'boolean' },
      'insecure-storage': { type: 'boolean' },
      'env-secrets': { type: 'boolean' },
      project: { type: 'string' },
      url: { type: 'string' },
      help: { type: 'boolean' },
    },
    true,
  );
  if (flags.help) return { help: true };
  const [rawId, ...extra] = positionals;
  if (rawId === undefined || !/^[1-9]\d{0,9}$/.test(rawId))
    throw new UsageError(
      [
        rawId === undefined
          ? 'give the destination id, e.g. floe pull 3 --profile lake'
          : `"${rawId}" is not a destination id`,
      ],
      'pull',
    );
  if (extra.length > 0) throw new UsageError([`unexpected argument "${extra[0]}"`], 'pull');
  if (!flags.profile) throw new UsageError(['--profile NAME is required, e.g. --profile lake'], 'pull');
  const url = urlFlag(flags.url, 'pull');
  return {
    help: false,
    id: Number(rawId),
    profile: flags.profile,
    force: flags.force === true,
    'insecure-storage': flags['insecure-storage'] === true,
    'env-secrets': flags['env-secrets'] === true,
    project: flags.project,
    url,
  };
}

export async function run(options: Options, io: Io): Promise<number> {
  if (options.help) return showHelp(HELP, io);
  const flags = options;
  const ctx = await io.openContext();
  if (ctx.config.getProfile(flags.profile) && !flags.force)
    throw new FloeError(
      `Profile "${flags.profile}" already exists.`,
      'Pass --force to replace it, or choose another name.',
    );

  const session = await openManagement(io, 'pull', flags);
  let destination: Awaited<ReturnType<typeof session.client.getDestination>>;
  try {
    destination = await explained(() => session.client.getDestination(session.project, flags.id));
  } finally {
    await session.client.close();
  }
  const label = sanitize(`destination ${destination.id} "${destination.name}"`);
  let values: ReturnType<typeof valuesFor>;
  const hidden: string[] = [];
  try {
    const writer = parseWriter(destination.config);
    for (const key of Object.keys(writer))
      if (SECRET_WRITER_KEYS.has(key) && isMasked(writer[key])) {
        hidden.push(key);
        delete writer[key];
      }
    values = valuesFor(writer, {});
  } catch (error) {
    if (error instanceof JobConfigError)
      throw new FloeError(
        `Cannot pull ${label}: ${error.message}${hidden.length > 0 ? ` (the OLake UI hides ${hidden.join(', ')})` : ''}.`,
      );
    throw error;
  }
  const own = ctx.config.getProfile(flags.profile)?.secretStorage;
  const choice = chooseStorage(ctx, flags, 'pull', own, io.env);
  const storage = choice.storage;
  try {
    await saveProfile(ctx, flags.profile, values, storage);
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
    throw new FloeError(
      `Profile "${flags.profile}" was not saved: the OS keychain cannot be used: ${error.reason}`,
      keychainHint(choice, true),
    );
  }
  rememberChoice(ctx, storage, choice);
  io.out`✓ Pulled ${label} (${destination.version || 'no version'}) into profile "${flags.profile}"; secrets ${describeSaved(ctx, storage)}.`;
  return EXIT.OK;
}
