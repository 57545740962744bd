// `floe tables` and `floe tables show NS.TABLE`, in the command shape of issue 31: `parse(argv)` gives
// validated Options (usage errors name the flag, the rule and an example), `execute(options, io)` acts
// with injected IO (streams, profile loading, the catalog session, the object store, clock, signal),
// so the tests run it in process; `run(options, io)` makes that IO from the command's Io.

import type { Context } from '../app/context.js';
import { loadProfile, requireSecrets } from '../app/profiles.js';
import { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS, parseTimeout } from '../app/timeout.js';
import type { CatalogSession } from '../catalog/session.js';
import type { Diagnosis } from '../check/types.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { jsonText, type Writer } from '../cli/output.js';
import type { Values } from '../destination/fields.js';
import { validate } from '../destination/schema.js';
import { DEFAULT_THRESHOLDS, parseThreshold, THRESHOLDS, type Thresholds } from '../tables/health.js';
import type { ListOptions, TableRow, TablesOptions } from '../tables/index.js';
import type { ObjectReader } from '../tables/objects.js';
import { sanitize } from '../text/sanitize.js';
import { loadScreen } from '../ui/load.js';
import type { TablesSource } from '../ui/tables/useTables.js';

/** How often `floe tables show` says how far it read, on a terminal. */
const PROGRESS_EVERY_MS = 1000;

export const HELP = `Usage: floe tables [--profile NAME] [--namespace NS] [--json] [--threshold KEY=VALUE]…
       floe tables show NS.TABLE [--profile NAME] [--json] [--budget MIB]

Lists every table of the profile's catalog (or under --namespace, nested
levels included) with its last commit, snapshots, records, data files and
their average size, delete files (position/equality) and health problems.
The numbers come from the current snapshot's summary where it gives them all
(a table without delete files), else from the manifests; "source" says which.
On a terminal without --json, the tables screen: sort, filter, a table's
detail and its maintenance to copy (also from the home screen, b, and from a
job's detail in floe jobs, b: the tables of the job's streams).

"floe tables show" reads one table exactly from its manifests: file counts,
bytes, a file-size histogram, records, deletes; the schema and its history,
the partition spec, the sort order, the write.* properties, the snapshot log,
and for each problem the maintenance to run in Spark, Trino or pyiceberg.

Flags:
  -p, --profile NAME         Profile whose catalog and object store to read
      --namespace NS         Only this namespace (levels separated by dots)
      --json                 One JSON document {tables: […]} (show: the table)
      --threshold KEY=VALUE  Override a health threshold (repeatable):
${Object.entries(THRESHOLDS)
  .map(([key, t]) => `                             ${key} (default ${t.default})`)
  .join('\n')}
      --budget MIB           show: stop reading manifests beyond this many MiB
                             (default 4096)
      --timeout SECONDS      Timeout of each request (default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS})
  -h, --help                 Show this help

Problem codes and thresholds: docs/tables.md.

Exit codes: 0 listed (health problems do not fail it), 1 the catalog could
not be read or the table could not be shown, 2 usage.
`;

export interface Options {
  verb: 'list' | 'show';
  profile?: string;
  namespace?: string[];
  table?: { namespace: string[]; name: string };
  json: boolean;
  thresholds: Thresholds;
  timeoutMs: number;
  budgetBytes?: number;
  help: boolean;
}

/** One namespace level: no dots, no control or format characters, not blank at the start. */
const LEVEL = /^[^.\s\p{C}][^.\p{C}]{0,254}$/u;

function usage(line: string): UsageError {
  return new UsageError([line], 'tables');
}

/** `a.b` → ['a', 'b'], or a usage error naming `flag`. */
function levels(value: string, flag: string, example: string): string[] {
  const parts = value.split('.');
  if (!parts.every((p) => LEVEL.test(p)))
    throw usage(`${flag}: "${sanitize(value)}" is not a namespace: names separated by dots, e.g. ${example}`);
  return parts;
}

/** The Options of `floe tables --profile NAME` (the home screen's b). */
export function options(profile: string): Options {
  return {
    verb: 'list',
    profile,
    json: false,
    help: false,
    thresholds: { ...DEFAULT_THRESHOLDS },
    timeoutMs: parseTimeout(undefined, 'tables'),
  };
}

export function parse(argv: string[]): Options {
  const { values: flags, positionals } = parseCommandArgs(
    'tables',
    argv,
    {
      profile: { type: 'string', short: 'p' },
      namespace: { type: 'string' },
      json: { type: 'boolean' },
      threshold: { type: 'string', multiple: true },
      budget: { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  const base = {
    json: flags.json ?? false,
    help: flags.help ?? false,
    ...(flags.profile ? { profile: flags.profile } : {}),
  };
  const thresholds = { ...DEFAULT_THRESHOLDS };
  for (const text of flags.threshold ?? []) {
    const parsed = parseThreshold(text);
    if ('problem' in parsed) throw usage(parsed.problem);
    thresholds[parsed.key] = parsed.value;
  }
  const timeoutMs = parseTimeout(flags.timeout, 'tables');
  const [verb, target, ...rest] = positionals;
  if (verb === undefined) {
    if (flags.budget !== undefined)
      throw usage('--budget goes with show, e.g. floe tables show olake.orders --budget 8192');
    return {
      ...base,
      verb: 'list',
      thresholds,
      timeoutMs,
      ...(flags.namespace === undefined
        ? {}
        : { namespace: levels(flags.namespace, '--namespace', '--namespace olake_db') }),
    };
  }
  if (verb !== 'show')
    throw usage(
      `unknown subcommand "${sanitize(verb)}": the one subcommand is show, e.g. floe tables show olake_db.orders`,
    );
  if (target === undefined || rest.length)
    throw usage('show takes one table as NAMESPACE.TABLE, e.g. floe tables show olake_db.orders');
  if (flags.namespace !== undefined)
    throw usage(
      '--namespace goes with the list; show names the table, e.g. floe tables show olake_db.orders',
    );
  const parts = levels(target, 'show', 'floe tables show olake_db.orders');
  if (parts.length < 2)
    throw usage(
      `show: "${sanitize(target)}" names no namespace: NAMESPACE.TABLE, e.g. floe tables show olake_db.orders`,
    );
  let budgetBytes: number | undefined;
  if (flags.budget !== undefined) {
    if (!/^\d{1,7}$/.test(flags.budget) || Number(flags.budget) < 1)
      throw usage(
        `--budget: "${sanitize(flags.budget)}" must be a whole number of MiB ≥ 1, e.g. --budget 8192`,
      );
    budgetBytes = Number(flags.budget) * 1024 * 1024;
  }
  return {
    ...base,
    verb: 'show',
    table: { namespace: parts.slice(0, -1), name: parts.at(-1)! },
    thresholds,
    timeoutMs,
    ...(budgetBytes ? { budgetBytes } : {}),
  };
}

export interface IO {
  out: Writer;
  err: Writer;
  /** The profile's values, secrets filled in and validated. */
  profile(name: string | undefined): Promise<{ name: string; values: Values }>;
  session(
    values: Values,
    opts: { signal: AbortSignal; timeoutMs: number },
  ): Promise<{ session: CatalogSession } | { diagnoses: Diagnosis[] }>;
  /** The object store; default: the profile's. */
  reader?: ObjectReader;
  now(): number;
  signal: AbortSignal;
  /** On a terminal: the list opens the tables screen (which reads the catalog itself) instead of printing. */
  browse?: (source: TablesSource) => Promise<number>;
}

/**
 * The tables screen's source over one catalog: `list` narrows the listing (a namespace, a job's
 * tables); `session` opens the catalog session when first needed (it throws when it cannot).
 */
export function catalogSource(
  common: Omit<TablesOptions, 'signal' | 'session'>,
  session: (signal: AbortSignal) => Promise<CatalogSession>,
  title: string,
  subtitle: string,
  list: (opts: ListOptions) => Promise<{ rows: TableRow[]; warnings: string[] }>,
): TablesSource {
  return {
    title,
    subtitle,
    now: common.now,
    list: async (onRow, signal) => list({ ...common, session: await session(signal), signal, onRow }),
    show: async (ref, onProgress, signal) => {
      const { showTable } = await import('../tables/index.js');
      const detail = await showTable(ref, { ...common, session: await session(signal), signal, onProgress });
      return 'problem' in detail ? { problem: detail.problem } : detail;
    },
  };
}

function printJson(io: IO, value: unknown): void {
  io.out.put(jsonText(`${JSON.stringify(value, null, 2)}\n`));
}

function printDiagnoses(io: IO, diagnoses: Diagnosis[]): void {
  for (const d of diagnoses) {
    io.err`${d.code}: ${d.what}`;
    io.err`  ${d.cause}`;
    io.err`  ${d.remedy}`;
  }
}

export async function execute(options: Options, io: IO): Promise<number> {
  const profile = await io.profile(options.profile);
  const opened = await io.session(profile.values, { signal: io.signal, timeoutMs: options.timeoutMs });
  if ('diagnoses' in opened) {
    io.err`Could not read the catalog of profile "${profile.name}":`;
    printDiagnoses(io, opened.diagnoses);
    if (options.json) printJson(io, { tables: [], error: { diagnoses: opened.diagnoses } });
    return EXIT.FAILURE;
  }
  const [{ listTables, showTable }, { catalogName }, { listLines, detailLines }] = await Promise.all([
    import('../tables/index.js'),
    import('../export/engines.js'),
    import('../tables/text.js'),
  ]);
  const common = {
    values: profile.values,
    session: opened.session,
    catalogName: catalogName(profile.values),
    thresholds: options.thresholds,
    signal: io.signal,
    timeoutMs: options.timeoutMs,
    now: io.now,
    ...(io.reader ? { reader: io.reader } : {}),
  };
  if (options.verb === 'list' && io.browse) {
    const namespace = options.namespace;
    return io.browse(
      catalogSource(
        common,
        async () => opened.session,
        `Tables of profile "${profile.name}"`,
        namespace ? `Under ${namespace.join('.')}` : 'Every namespace of the catalog',
        async (opts) => {
          const { rows, failures } = await listTables({ ...opts, ...(namespace ? { namespace } : {}) });
          return { rows, warnings: failures.map((f) => f.what) };
        },
      ),
    );
  }
  if (options.verb === 'list') {
    const { rows, failures } = await listTables({
      ...common,
      ...(options.namespace ? { namespace: options.namespace } : {}),
    });
    if (failures.length) {
      io.err`Some namespaces could not be listed:`;
      printDiagnoses(io, failures);
    }
    if (options.json) printJson(io, { tables: rows, ...(failures.length ? { failures } : {}) });
    else if (rows.length === 0)
      io.out`No tables${options.namespace ? ` under ${options.namespace.join('.')}` : ''} in the catalog of profile "${profile.name}"`;
    else for (const text of listLines(rows, io.now())) io.out`${text}`;
    return failures.length && rows.length === 0 ? EXIT.FAILURE : EXIT.OK;
  }
  const ref = options.table!;
  const progress = io.err.isTTY && !options.json;
  // A line a second at most (a table may have thousands of manifests), and the last one.
  let said = Number.NEGATIVE_INFINITY;
  const onProgress = (done: number, total: number) => {
    const now = performance.now();
    if (done < total && now - said < PROGRESS_EVERY_MS) return;
    said = now;
    io.err`Reading manifests: ${done} of ${total}`;
  };
  const detail = await showTable(ref, {
    ...common,
    ...(options.budgetBytes ? { budget: { maxManifests: 1_000_000, maxBytes: options.budgetBytes } } : {}),
    ...(progress ? { onProgress } : {}),
  });
  if ('problem' in detail) {
    io.err`Could not load ${[...ref.namespace, ref.name].join('.')}: ${detail.problem}`;
    if (detail.diagnosis) printDiagnoses(io, [detail.diagnosis]);
    if (options.json) printJson(io, { error: { message: detail.problem } });
    return EXIT.FAILURE;
  }
  if (options.json) printJson(io, detail);
  else for (const text of detailLines(detail, io.now())) io.out`${text}`;
  return detail.problems.some((p) => p.code === 'TABLE_UNREADABLE') ? EXIT.FAILURE : EXIT.OK;
}

/** The profile as `floe test` loads it: config, keychain or vault, FLOE_* environment; validated. */
async function profileFromConfig(
  ctx: Context,
  name: string | undefined,
): Promise<{ name: string; values: Values }> {
  const profile = await loadProfile(ctx, name);
  requireSecrets(profile);
  const checked = validate(profile.values);
  if (!checked.ok)
    throw new FloeError(
      `Profile "${profile.name}" is not valid: ${checked.issues.map((i) => i.message).join('; ')}`,
      `Fix it with "floe setup --profile ${profile.name}".`,
    );
  return { name: profile.name, values: checked.values };
}

export async function run(options: Options, io: Io): Promise<number> {
  if (options.help) return showHelp(HELP, io);
  const controller = new AbortController();
  return execute(options, {
    out: io.out,
    err: io.err,
    profile: async (name) => profileFromConfig(await io.openContext(), name),
    session: async (values, opts) =>
      (await import('../tables/session.js')).openSession(values, { ...opts, env: io.env }),
    now: io.now,
    signal: controller.signal,
    ...(options.verb === 'list' && !options.json && io.canPrompt()
      ? {
          browse: async (source: TablesSource) =>
            (await loadScreen(() => import('../ui/tables/index.js'))).runTablesBrowser(source),
        }
      : {}),
  });
}
