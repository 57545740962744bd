// floe export: a profile as OLake's destination.json, on stdout or in a 0600 file.
import { lstatSync, type Stats } from 'node:fs';
import { openContext } from '../cli/context.js';
import { EXIT, FloeError, parseCommandArgs } from '../cli/io.js';
import { loadProfile, requireSecrets } from '../cli/profiles.js';
import { writePrivateFile } from '../config/files.js';
import { serializeDestination, toDestinationJson } from '../destination/olake.js';
import { validate } from '../destination/schema.js';

export const HELP = `Usage: floe export [--profile NAME] [--output FILE] [--redact]

Writes the profile as OLake's destination.json ({"type":"ICEBERG","writer":{…}}), with its secrets
read from the keychain, file or FLOE_* variables. Without --output it prints to stdout.

Flags:
  --profile NAME   profile to export (default: the only one, or "default")
  --output FILE    write to FILE (a new file of mode 0600, replaced atomically); an existing FILE
                   that is not yours or is readable by others is refused
  --force          replace such a FILE anyway (with a new 0600 file; never written through)
  --redact         put "<redacted>" in place of every secret, for sharing
  --help           this help`;

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

export async function run(argv: string[]): Promise<number> {
  const { values: flags } = parseCommandArgs('export', argv, {
    profile: { type: 'string' },
    output: { type: 'string', short: 'o' },
    redact: { type: 'boolean' },
    force: { type: 'boolean' },
    help: { type: 'boolean' },
  });
  if (flags.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.OK;
  }
  const profile = await loadProfile(openContext(), flags.profile);
  if (!flags.redact) requireSecrets(profile);
  const result = validate(profile.values);
  if (!result.ok && !flags.redact)
    throw new FloeError(
      `Profile "${profile.name}" is incomplete: ${result.issues.map((i) => i.message).join('; ')}`,
      `Fix it with "floe setup --profile ${profile.name}".`,
    );
  const text = serializeDestination(toDestinationJson(profile.values, { redact: flags.redact }));
  if (!flags.output) {
    process.stdout.write(text);
    return EXIT.OK;
  }
  refuseUnsafeTarget(flags.output, flags.force ?? false);
  try {
    writePrivateFile(flags.output, text);
  } catch (error) {
    throw new FloeError(
      `Cannot write ${flags.output}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  process.stderr.write(
    `Wrote ${flags.output} (mode 0600${flags.redact ? ', secrets redacted' : ', contains secrets'}).\n`,
  );
  return EXIT.OK;
}
