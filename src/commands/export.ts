// floe export: a profile as OLake's destination.json, on stdout or in a 0600 file.
import { chmodSync, writeFileSync } from 'node:fs';
import { openContext } from '../cli/context.js';
import { EXIT, FloeError, parseCommandArgs } from '../cli/io.js';
import { loadProfile, requireSecrets } from '../cli/profiles.js';
import { serializeDestination, toDestinationJson } from '../destination/olake.js';
import { validate } from '../destination/schema.js';

export const HELP = `Usage: floe export [--profile NAME] [--output FILE] [--redact]

Writes the profile as OLake's destination.json ({"type":"ICEBERG","writer":{…}}), with its secrets
read from the keychain, file or FLOE_* variables. Without --output it prints to stdout.

Flags:
  --profile NAME   profile to export (default: the only one, or "default")
  --output FILE    write to FILE (created with mode 0600)
  --redact         put "<redacted>" in place of every secret, for sharing
  --help           this help`;

export async function run(argv: string[]): Promise<number> {
  const { values: flags } = parseCommandArgs('export', argv, {
    profile: { type: 'string' },
    output: { type: 'string', short: 'o' },
    redact: { type: 'boolean' },
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
  try {
    writeFileSync(flags.output, text, { mode: 0o600 });
    chmodSync(flags.output, 0o600);
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
