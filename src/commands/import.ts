// floe import: an OLake destination.json (also the older form) into a profile; secrets to the store.

import type { Context } from '../app/context.js';
import { issueLines } from '../app/destination-flags.js';
import { reportLockWait, saveProfile } from '../app/profiles.js';
import { chooseStorage, describeSaved, keychainHint, rememberChoice } from '../app/secrets-choice.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { EXIT, FloeError, parseCommandArgs, readStdin, UsageError } from '../cli/io.js';
import { line } from '../cli/output.js';
import { KeyFileError, readKeyFile } from '../config/files.js';
import { FIELDS } from '../destination/fields.js';
import { fromDestinationJson, ImportError, REDACTED } from '../destination/olake.js';
import { validate } from '../destination/schema.js';
import { KeychainUnavailableError } from '../secrets/store.js';

export const HELP = `Usage: floe import FILE [--profile NAME] [--force] [--insecure-storage | --env-secrets]

Reads an OLake destination.json (REST catalog; also the older form with a free-text rest_auth_type,
iceberg_db or a writer-level normalization), validates it, saves it as a profile with its secrets
moved to the OS keychain, and reports the keys it ignored. FILE "-" reads stdin. An existing
profile is replaced only after a y/N question on a terminal, or with --force (else exit 2).

Flags:
  --profile NAME        profile to create or replace (default: "default")
  --force               replace an existing profile of that name without asking
  --insecure-storage    store secrets in a plaintext file (mode 0600); remembered for this config folder
  --env-secrets         store no secrets: read them from FLOE_* variables at run time
  --help                this help`;

/** At most this much is read from stdin, as from a file (readKeyFile): a destination.json is a few KiB. */
const MAX_INPUT_BYTES = 1024 * 1024;

/**
 * stdin (at most 1 MiB: `floe import - < /dev/zero` stops there), or a regular file of at most 1 MiB
 * read within a timeout (never /dev/zero or a FIFO); a UTF-8 byte-order mark is dropped.
 */
async function readInput(path: string, stdin: NodeJS.ReadStream): Promise<string> {
  try {
    const text =
      path === '-' ? await readStdin('floe import -', MAX_INPUT_BYTES, stdin) : await readKeyFile(path);
    return text.replace(/^\uFEFF/, '');
  } catch (error) {
    if (error instanceof KeyFileError) throw new FloeError(`Cannot read ${path}: ${error.message}.`);
    if (error instanceof UsageError)
      throw new FloeError(`Cannot read stdin: ${error.lines.join(' ')} (a destination.json is a few KiB).`);
    throw new FloeError(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/**
 * Whether `name` may be written: it is new, --force was given, or the user said yes on a terminal.
 * Without a terminal an existing profile is never replaced silently: a usage error names --force.
 */
async function mayReplace(io: Io, ctx: Context, name: string, force: boolean): Promise<boolean> {
  const existing = ctx.config.getProfile(name);
  if (!existing || force) return true;
  const what = `Profile "${name}" exists (authentication: ${existing.authType}).`;
  if (!io.canPrompt())
    throw new UsageError(
      [`${what} Pass --force to replace it, or --profile NAME to import under another name.`],
      'import',
    );
  return io.prompter.confirm(line`${what} Replace it?`);
}

export type Options =
  | { help: true }
  | {
      help: false;
      /** A path, or "-" for stdin. */
      file: string;
      profile: string;
      force: boolean;
      'insecure-storage': boolean;
      'env-secrets': boolean;
    };

export function parse(argv: string[]): Options {
  const { values: flags, positionals } = parseCommandArgs(
    'import',
    argv,
    {
      profile: { type: 'string', default: 'default' },
      force: { type: 'boolean' },
      'insecure-storage': { type: 'boolean' },
      'env-secrets': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    true,
  );
  if (flags.help) return { help: true };
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError(['give exactly one FILE to import'], 'import');
  return {
    help: false,
    file,
    profile: flags.profile,
    force: flags.force === true,
    'insecure-storage': flags['insecure-storage'] === true,
    'env-secrets': flags['env-secrets'] === true,
  };
}

export async function run(options: Options, io: Io): Promise<number> {
  if (options.help) return showHelp(HELP, io);
  const { file, ...flags } = options;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readInput(file, io.stdin));
  } catch (error) {
    if (error instanceof FloeError) throw error;
    throw new FloeError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  let imported: ReturnType<typeof fromDestinationJson>;
  try {
    imported = fromDestinationJson(parsed);
  } catch (error) {
    if (error instanceof ImportError) throw new FloeError(`Cannot import ${file}: ${error.message}`);
    throw error;
  }
  const redacted = FIELDS.filter((f) => f.secret && imported.values.fields[f.id] === REDACTED);
  for (const def of redacted) delete imported.values.fields[def.id];
  const result = validate(imported.values);
  if (!result.ok) {
    const { missing, invalid } = issueLines(result.issues, imported.values);
    throw new FloeError(
      `Cannot import ${file}: ${[...invalid, ...missing].map((l) => l.replace(/^--[a-z0-9-]+: /, '')).join('; ')}`,
    );
  }
  const ctx = await io.openContext();
  if (!(await mayReplace(io, ctx, flags.profile, flags.force))) {
    io.err`Profile "${flags.profile}" kept as it was; nothing imported.`;
    return EXIT.FAILURE;
  }
  const own = ctx.config.getProfile(flags.profile)?.secretStorage;
  const choice = chooseStorage(ctx, flags, 'import', own, io.env);
  const storage = choice.storage;
  try {
    await saveProfile(ctx, flags.profile, result.values, storage, { onWait: reportLockWait(io.err) });
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
    throw new FloeError(
      `Profile "${flags.profile}" was not saved: the OS keychain cannot be used: ${error.reason}`,
      keychainHint(choice, true),
    );
  }
  rememberChoice(ctx, storage, choice);
  io.err`Imported ${file} as profile "${flags.profile}" (authentication: ${result.values.authType}; secrets ${describeSaved(ctx, storage)}).`;
  for (const note of imported.notes) io.err`  note: ${note}`;
  for (const { key, why } of imported.ignored) io.err`  ignored ${key}: ${why}`;
  for (const def of redacted)
    io.err`  ${def.label} was redacted in the file: set ${def.env!} or run floe setup`;
  return EXIT.OK;
}
