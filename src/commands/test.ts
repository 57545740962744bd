// `floe test`: the connection test of a profile, as a live screen on a terminal, plain lines when
// piped, or one JSON document with --json.

import { writeCheck } from '../app/check-output.js';
import { type LoadedProfile, loadProfile, requireSecrets } from '../app/profiles.js';
import { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, parseTimeout } from '../app/timeout.js';
import type { WriteOptions } from '../check/chain.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { finishGuarded, guarded } from '../cli/interrupt.js';
import { EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { printJson } from '../cli/output.js';
import { runCheck } from '../connection/run.js';
import { summaryLine, writeLines } from '../connection/text.js';
import type { FieldId } from '../destination/fields.js';
import { validate } from '../destination/schema.js';
import { OLAKE_CHECK_NAMESPACE } from '../destination/values.js';
import { sanitize } from '../text/sanitize.js';
import { loadScreen } from '../ui/load.js';
import { fileJournal } from '../write/journal-file.js';

const CLEANING_UP = 'floe: interrupted; cleaning up what the test made…';

export const HELP = `Usage: floe test [--profile NAME] [--json] [--timeout SECONDS] [--read-only]
                 [--write [--namespace NAME] [--keep]] [--cleanup]

Tests a profile's REST catalog and object store at the same time: the catalog's
connection, token, config and namespaces; the bucket's HEAD, LIST, and a
PUT/GET/DELETE of a small probe object. Each failure comes with a diagnosis.

With --write it then does what OLake's own check and every sync do: creates the
namespace test_olake if missing, a table floe_check_<time>_<random> with OLake's
raw schema, writes one Parquet record to the table's location, commits it,
loads the table and reads the record back, then drops the table with purge,
deletes every file it wrote and drops the namespace if it created it. A failure
or Ctrl-C still cleans up.

What the write check may delete: the table it created (by the name it chose),
the objects it wrote (by exact key), the namespace levels it created (only when
empty), and, when the catalog dropped without purge, the metadata files the
catalog named for that table only if they lie under the table's own metadata/
folder. Nothing else, whatever a server answers. It writes nothing into a new
table's location that already holds objects (WRITE_LOCATION_NOT_EMPTY). When a
commit's outcome is unknown and the table cannot be dropped, it keeps the table
and its files. What it makes (and the storage check's probe object) is recorded
first in write-journal.json in the config folder; whatever a cleanup could not remove (a refused drop, a killed
floe) is named with how to remove it, and the next --write run of the same
catalog and store, or --cleanup, removes it.

Flags:
  -p, --profile NAME       Profile to test (default: the only one, or "default")
      --json               Print one JSON document {ok, steps, diagnoses, warnings};
                           never opens the screen
      --timeout SECONDS    Timeout of each request (default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS})
      --read-only          Skip the object-store writes (PUT/GET/DELETE)
      --write              Also create, write, commit and read back a table, as
                           OLake does (cleaned up afterwards)
      --namespace NAME     The namespace --write uses (default test_olake, as
                           OLake's check); levels separated by dots
      --keep               Leave the --write table in place and print its
                           identifier and metadata location
      --cleanup            Make nothing: remove what earlier write checks of
                           this catalog and store left (see above)
      --allow-insecure-uri-override
                           Follow a catalog whose overrides.uri moves the bearer
                           token from https:// to plain http:// (refused otherwise)
  -h, --help               Show this help

On a terminal the test runs in a screen: r re-runs, w runs it with the write
check, v shows the HTTP trace, Esc cancels (then leaves), Ctrl-C quits (after
the write check's cleanup). Otherwise one line is printed per
finished step, then the diagnoses.

Secrets come from the profile's secret store; FLOE_TOKEN, FLOE_CREDENTIAL,
FLOE_ACCESS_KEY, FLOE_SECRET_KEY and FLOE_GCP_SERVICE_ACCOUNT_JSON override it.

With --json, a failure before the checks (unknown profile, missing secret,
keychain) prints {ok: false, steps: [], …, error: {kind, message, hint}}.

Exit codes: 0 all checks passed (also when the write check's cleanup left
something: a warning WRITE_CLEANUP_INCOMPLETE, and write.leftovers with --json),
1 a check failed or was cancelled, or the test could not start (see stderr, or
"error" with --json), 2 usage, 130 interrupted.
`;

/** `--namespace`: one or more levels separated by dots, each a plain name. */
export function parseNamespace(value: string | undefined): string[] {
  if (value === undefined) return [OLAKE_CHECK_NAMESPACE];
  const levels = value.split('.');
  if (levels.some((level) => !/^[A-Za-z0-9_][A-Za-z0-9_-]{0,127}$/.test(level)))
    throw new UsageError(
      [
        `--namespace: "${sanitize(value)}" is not a namespace: levels of letters, digits, _ and - separated by dots, e.g. --namespace test_olake or --namespace olake.checks`,
      ],
      'test',
    );
  return levels;
}

/**
 * With --json, a failure before the checks (usage, unknown or invalid profile, missing secret, no
 * keychain) still prints one JSON document, the report's shape with no steps and an `error`; the
 * error then goes to stderr and sets the exit code as usual (2 usage, else 1).
 */
function printNotRun(io: Io, error: unknown): void {
  if (error instanceof FloeError || error instanceof UsageError)
    printJson(
      {
        ok: false,
        steps: [],
        diagnoses: [],
        warnings: [],
        error: {
          kind: error instanceof UsageError ? 'usage' : 'not-run',
          message: error instanceof UsageError ? error.lines.join('\n') : error.message,
          ...(error instanceof FloeError && error.hint ? { hint: error.hint } : {}),
        },
      },
      io.out,
    );
}

/** argv that parse refused: with --json, the JSON document says so too. */
export function refused(argv: string[], error: UsageError, io: Io): void {
  if (argv.includes('--json')) printNotRun(io, error);
}

export interface Options {
  help: boolean;
  profile?: string;
  json: boolean;
  /** Each request's time-out, in ms. */
  timeoutMs: number;
  /** No object-store writes (--read-only, and --cleanup). */
  readOnly: boolean;
  write: boolean;
  /** The namespace of the write check (--namespace, or test_olake). */
  namespace: string[];
  keep: boolean;
  cleanup: boolean;
  allowInsecureUriOverride: boolean;
  /** Secrets just typed in the wizard ("Don't store them"), held in this process only. */
  typed?: Partial<Record<FieldId, string>>;
}

/** The Options of `floe test --profile NAME` (what setup and the home screen run). */
export function options(profile: string, typed?: Partial<Record<FieldId, string>>): Options {
  return {
    help: false,
    profile,
    json: false,
    timeoutMs: parseTimeout(undefined),
    readOnly: false,
    write: false,
    namespace: parseNamespace(undefined),
    keep: false,
    cleanup: false,
    allowInsecureUriOverride: false,
    ...(typed ? { typed } : {}),
  };
}

export function parse(argv: string[]): Options {
  const { values: flags } = parseCommandArgs('test', argv, {
    profile: { type: 'string', short: 'p' },
    json: { type: 'boolean' },
    timeout: { type: 'string' },
    'read-only': { type: 'boolean' },
    write: { type: 'boolean' },
    namespace: { type: 'string' },
    keep: { type: 'boolean' },
    cleanup: { type: 'boolean' },
    'allow-insecure-uri-override': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flags.help) return { ...options(''), help: true };
  const timeoutMs = parseTimeout(flags.timeout);
  // --cleanup makes nothing: the object store is only read.
  const readOnly = (flags['read-only'] || flags.cleanup) ?? false;
  if (!flags.write && (flags.namespace !== undefined || flags.keep))
    throw new UsageError(
      [`${flags.keep ? '--keep' : '--namespace'} goes with --write, e.g. floe test --write --keep`],
      'test',
    );
  if (flags.write && readOnly)
    throw new UsageError(['--write and --read-only contradict each other: pass one of them'], 'test');
  if (flags.cleanup && flags.write)
    throw new UsageError(
      [
        `--cleanup runs alone (it tests read-only, then removes what earlier write checks left), e.g. floe test --cleanup`,
      ],
      'test',
    );
  return {
    help: false,
    json: flags.json ?? false,
    timeoutMs,
    readOnly,
    write: flags.write ?? false,
    namespace: parseNamespace(flags.namespace),
    keep: flags.keep ?? false,
    cleanup: flags.cleanup ?? false,
    allowInsecureUriOverride: flags['allow-insecure-uri-override'] ?? false,
    profile: flags.profile,
  };
}

export async function run(options: Options, io: Io): Promise<number> {
  try {
    return await runTest(options, io);
  } catch (error) {
    if (options.json) printNotRun(io, error);
    throw error;
  }
}

/**
 * The profile with `typed` secrets (just typed in the wizard, not stored) filling every secret field
 * that has no value, required or not (the S3 keys are optional); the environment and the secret store
 * still win.
 */
export function withTyped(
  profile: LoadedProfile,
  typed: Partial<Record<FieldId, string>> = {},
): LoadedProfile {
  const fields = { ...profile.values.fields };
  for (const [id, value] of Object.entries(typed) as [FieldId, string][]) {
    const own = fields[id];
    if (own === undefined || own === '') fields[id] = value;
  }
  return {
    ...profile,
    values: { ...profile.values, fields },
    missing: profile.missing.filter((id) => typed[id] === undefined),
  };
}

async function runTest(flags: Options, io: Io): Promise<number> {
  if (flags.help) return showHelp(HELP, io);
  const { timeoutMs, readOnly, allowInsecureUriOverride } = flags;
  const context = await io.openContext();
  const profile = withTyped(await loadProfile(context, flags.profile), flags.typed);
  const journal = fileJournal(context.config.dir);
  const write: WriteOptions | undefined =
    flags.write || flags.cleanup
      ? {
          namespace: flags.namespace,
          keep: flags.keep,
          journal,
          profile: profile.name,
          ...(flags.cleanup ? { cleanupOnly: true } : {}),
        }
      : undefined;
  requireSecrets(profile);
  const checked = validate(profile.values);
  if (!checked.ok)
    throw new FloeError(
      `Profile "${profile.name}" is not valid: ${checked.issues.map((i) => i.message).join('; ')}`,
      `Fix it with "floe setup --profile ${profile.name}".`,
    );
  const values = checked.values;

  if (flags.json || !io.canPrompt()) {
    const how = flags.cleanup
      ? ', then removing what earlier write checks left'
      : readOnly
        ? ' (read-only)'
        : write
          ? ' with the write check'
          : '';
    return writeCheck(
      io,
      { json: flags.json, progress: true, heading: [`Testing profile "${profile.name}"${how}`] },
      (onEvent) =>
        guarded(
          (signal) =>
            runCheck(values, {
              signal,
              timeoutMs,
              env: io.env,
              readOnly,
              allowInsecureUriOverride,
              write,
              ...(onEvent ? { onEvent } : {}),
            }),
          undefined,
          CLEANING_UP,
        ),
    );
  }

  const { runTestScreen } = await loadScreen(() => import('../ui/test/index.js'));
  const { report, interrupted } = await runTestScreen(values, {
    title: profile.name,
    timeoutMs,
    env: io.env,
    readOnly,
    allowInsecureUriOverride,
    write,
    writeWith: { namespace: write?.namespace ?? parseNamespace(undefined), journal, profile: profile.name },
  });
  if (interrupted) {
    // A write check stopped by Ctrl-C is still cleaning up what it made: the exit waits for it.
    await finishGuarded();
    // As q does, a line stays in the shell's screen: what finished before Ctrl-C.
    const ok = report.steps.filter((s) => s.state === 'ok').length;
    io.out`${summaryLine(report)} (Ctrl-C) for profile "${profile.name}": ${ok} of ${report.steps.length} checks had passed`;
    return EXIT.INTERRUPTED;
  }
  // The screen was on the alternate screen: the result stays in the shell's.
  const codes = report.diagnoses.map((d) => d.code).join(', ');
  io.out`${summaryLine(report)} for profile "${profile.name}"${codes ? ` (${codes})` : ''}`;
  for (const text of writeLines(report)) io.out`${text}`;
  return report.ok ? EXIT.OK : EXIT.FAILURE;
}
