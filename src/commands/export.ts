// floe export: a profile as OLake's destination.json, or as another engine's configuration
// (pyiceberg, Spark, Trino, DuckDB), on stdout or in a 0600 file.
import { lstatSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { type LoadedProfile, loadProfile, requireSecrets } from '../app/profiles.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { block, jsonText, printJson } from '../cli/output.js';
import { writePrivateFile } from '../config/files.js';
import type { FieldId, Values } from '../destination/fields.js';
import { serializeDestination, toDestinationJson } from '../destination/olake.js';
import { normalize, validate } from '../destination/schema.js';
import { ENGINE_FORMATS, type EngineFormat, renderEngine, UnsupportedError } from '../export/engines.js';
import { ENGINE_VERSIONS, ENGINES } from '../export/table.js';
import { loadYaml } from '../stack/yaml.js';

export const FORMATS = ['olake', ...ENGINE_FORMATS] as const;
type Format = (typeof FORMATS)[number];

/** The releases each engine format is written for, and where property names change. */
const TARGETS = ENGINES.map((engine) => {
  const v = ENGINE_VERSIONS[engine];
  return [
    `  ${engine.padEnd(18)}${v.product} ${v.latest} (default) down to ${v.oldest}`,
    ...v.changes.map((c) => `    from ${c.at.padEnd(12)}${c.what}`),
  ].join('\n');
}).join('\n');

export const HELP = `Usage: floe export [--format FORMAT] [--profile NAME] [--output FILE]
                   [--engine-version RELEASE] [--include-secrets | --redact]

Writes the profile for OLake or for an engine that reads the same tables. Secrets come from the
keychain, file or FLOE_* variables. Without --output it prints to stdout.

Formats:
  olake           OLake's destination.json (default); includes secrets unless --redact
  pyiceberg       a ~/.pyiceberg.yaml catalog block
  pyiceberg-env   the same as PYICEBERG_CATALOG__<NAME>__… variables (a file to source)
  spark           spark.sql.catalog.<name>.* lines (spark-defaults.conf, or --conf flags)
  trino           an etc/catalog/<name>.properties file
  duckdb          INSTALL/LOAD, CREATE SECRET and ATTACH statements

Flags:
  --format FORMAT     one of ${FORMATS.join(', ')}
  --engine-version R  engine formats: the engine release to write property names for
                      (default: the newest below; the file's first lines name the releases)
  --profile NAME      profile to export (default: the only one, or "default")
  --output FILE       write to FILE (a new file of mode 0600, replaced atomically); an existing FILE
                      that is not yours or is readable by others is refused when it gets secrets
  --force             replace such a FILE anyway (with a new 0600 file; never written through)
  --include-secrets   engine formats: write the secrets themselves instead of placeholders or
                      environment references (then only into a 0600 file or a pipe)
  --redact            olake: put "<redacted>" in place of every secret, for sharing
  --json              with --output: say on stdout, as JSON, what was written where
  --help              this help

Engine releases (--engine-version):
${TARGETS}`;

/**
 * Writes an export: a new 0600 file renamed into place. A target that holds secrets is first checked
 * (refuseUnsafeTarget).
 */
function writeExport(path: string, text: string, holdsSecrets: boolean, force: boolean): void {
  if (holdsSecrets) refuseUnsafeTarget(path, force);
  try {
    writePrivateFile(path, text);
  } catch (error) {
    throw new FloeError(`Cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** The profile's values for an engine format; secrets found nowhere only matter when they are written. */
function engineValues(profile: LoadedProfile, includeSecrets: boolean): Values {
  if (includeSecrets) requireSecrets(profile);
  const values: Values = { ...profile.values, fields: { ...profile.values.fields } };
  // Stand-ins for missing secrets, so that the rows they select are chosen; they are never written.
  for (const id of profile.missing) values.fields[id] = id === 'credential' ? 'id:secret' : id;
  const result = validate(values);
  if (result.ok) return result.values;
  const issues = result.issues.filter((i) => !profile.missing.includes(i.field as FieldId));
  if (issues.length === 0) return normalize(values);
  throw new FloeError(
    `Profile "${profile.name}" is incomplete: ${issues.map((i) => i.message).join('; ')}`,
    `Fix it with "floe setup --profile ${profile.name}".`,
  );
}

/**
 * An existing --output another user could read or swap (not ours, wider than 0600, not a regular file)
 * is refused without --force; with it, the file is replaced by a new 0600 one (rename), never written through.
 */
function refuseUnsafeTarget(path: string, force: boolean): void {
  let stat: Stats;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new FloeError(`Cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (stat.isDirectory()) throw new FloeError(`Cannot write ${path}: it is a folder.`);
  const problems: string[] = [];
  if (!stat.isFile()) problems.push('it is not a regular file');
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
    problems.push(`it belongs to another user (uid ${stat.uid})`);
  if ((stat.mode & 0o077) !== 0)
    problems.push(`its mode ${(stat.mode & 0o777).toString(8)} lets others read it`);
  if (problems.length === 0 || force) return;
  throw new FloeError(
    `Not writing secrets into the existing ${path}: ${problems.join(', and ')}.`,
    'Choose a new file, or pass --force to replace it with a new file of mode 0600 (the old one is not written to).',
  );
}

export interface Options {
  help: boolean;
  format: Format;
  profile?: string;
  output?: string;
  'include-secrets': boolean;
  redact: boolean;
  force: boolean;
  'engine-version'?: string;
  json: boolean;
}

/** The Options of `floe export --profile NAME --output FILE` (the home screen's export). */
export function options(profile: string, output: string): Options {
  return {
    help: false,
    format: 'olake',
    profile,
    output,
    'include-secrets': false,
    redact: false,
    force: false,
    json: false,
  };
}

/** The flags, checked against each other (where the output may go is checked by run: it needs the Io). */
export function parse(argv: string[]): Options {
  const { values: flags } = parseCommandArgs('export', argv, {
    format: { type: 'string', short: 'f' },
    profile: { type: 'string' },
    output: { type: 'string', short: 'o' },
    'include-secrets': { type: 'boolean' },
    redact: { type: 'boolean' },
    force: { type: 'boolean' },
    'engine-version': { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean' },
  });
  const format = (flags.format ?? 'olake') as Format;
  const options: Options = {
    help: flags.help === true,
    format,
    'include-secrets': flags['include-secrets'] === true,
    redact: flags.redact === true,
    force: flags.force === true,
    json: flags.json === true,
    profile: flags.profile,
    output: flags.output,
    'engine-version': flags['engine-version'],
  };
  if (options.help) return options;
  if (!FORMATS.includes(format))
    throw new UsageError([`--format: "${flags.format}" is not one of ${FORMATS.join(', ')}`], 'export');
  if (format !== 'olake' && flags.redact)
    throw new UsageError(
      [`--redact is for --format olake; ${format} writes placeholders unless --include-secrets`],
      'export',
    );
  if (format === 'olake' && flags['engine-version'] !== undefined)
    throw new UsageError(
      ["--engine-version is for the engine formats; for OLake set the profile's Target OLake Version"],
      'export',
    );
  if (format === 'olake' && flags['include-secrets'] && flags.redact)
    throw new UsageError(['--include-secrets and --redact contradict each other'], 'export');
  return options;
}

export async function run(flags: Options, io: Io): Promise<number> {
  if (flags.help) return showHelp(HELP, io);
  const { format } = flags;
  // A file with secrets goes to a file (0600) or a pipe, never onto a terminal's screen and scrollback.
  if (format === 'olake' && !flags.redact && !flags.output && io.out.isTTY)
    throw new UsageError(
      [
        'destination.json holds the secrets: not printed to a terminal; pass --output FILE (written 0600), pipe the output, or add --redact',
      ],
      'export',
    );
  if (flags.json && !flags.output)
    throw new UsageError(
      [
        '--json says what --output wrote: without --output the export itself is on stdout (e.g. --output lake.json --json)',
      ],
      'export',
    );
  const profile = await loadProfile(await io.openContext(), flags.profile);
  const { force, json } = flags;
  if (format === 'olake') return exportOlake(io, profile, flags.output, flags.redact, force, json);
  const includeSecrets = flags['include-secrets'];
  if (includeSecrets && !flags.output && io.out.isTTY)
    throw new UsageError(
      ['--include-secrets: not printed to a terminal; pass --output FILE (written 0600) or pipe the output'],
      'export',
    );
  if (format === 'pyiceberg') await loadYaml();
  let rendered: ReturnType<typeof renderEngine>;
  try {
    rendered = renderEngine(format as EngineFormat, engineValues(profile, includeSecrets), {
      includeSecrets,
      ...(flags['engine-version'] !== undefined ? { engineVersion: flags['engine-version'] } : {}),
    });
  } catch (error) {
    if (error instanceof UnsupportedError)
      throw new FloeError(
        error.message,
        'Nothing was written. Export another format, or change the profile.',
      );
    throw error;
  }
  if (flags.output) writeExport(flags.output, rendered.text, includeSecrets, force);
  else io.out.put(block(rendered.text));
  if (flags.output && json)
    printJson(
      written(profile, format, flags.output, includeSecrets ? 'included' : 'none', rendered.notes),
      io.out,
    );
  else if (flags.output)
    io.err`Wrote ${flags.output} (${includeSecrets ? 'mode 0600, contains secrets' : 'no secrets'}).`;
  if (!json) for (const note of rendered.notes) io.err`${note}`;
  return EXIT.OK;
}

function exportOlake(
  io: Io,
  profile: LoadedProfile,
  output: string | undefined,
  redact: boolean,
  force: boolean,
  json: boolean,
): number {
  if (!redact) requireSecrets(profile);
  const result = validate(profile.values);
  if (!result.ok && !redact)
    throw new FloeError(
      `Profile "${profile.name}" is incomplete: ${result.issues.map((i) => i.message).join('; ')}`,
      `Fix it with "floe setup --profile ${profile.name}".`,
    );
  const text = serializeDestination(toDestinationJson(profile.values, { redact }));
  if (!output) {
    io.out.put(jsonText(text));
    return EXIT.OK;
  }
  writeExport(output, text, !redact, force);
  if (json) printJson(written(profile, 'olake', output, redact ? 'redacted' : 'included', []), io.out);
  else io.err`Wrote ${output} (mode 0600${redact ? ', secrets redacted' : ', contains secrets'}).`;
  return EXIT.OK;
}

/** What `--json` says about a written export (never a secret: where they went, not what they are). */
function written(
  profile: LoadedProfile,
  format: Format,
  output: string,
  secrets: 'included' | 'redacted' | 'none',
  notes: readonly string[],
) {
  return { profile: profile.name, format, output: resolve(output), mode: '0600', secrets, notes };
}
