// floe stack: writes a docker compose test stack (REST catalog, Postgres, MinIO, OLake) for a profile.

import type { Context } from '../app/context.js';
import { type LoadedProfile, loadProfile } from '../app/profiles.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { floeCommand } from '../cli/invocation.js';
import { EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { FIELD_BY_ID } from '../destination/fields.js';
import { stackFiles, writeStackFiles } from '../stack/files.js';
import { nextSteps } from '../stack/next.js';
import { planStack } from '../stack/plan.js';
import { loadYaml } from '../stack/yaml.js';

export const HELP = `Usage: floe stack [--profile NAME] [--output DIR] [--force]

Writes DIR/compose.yaml and DIR/.env: a local test stack matching the profile, with an Iceberg REST
catalog (apache/iceberg-rest-fixture on Postgres) on :8181, MinIO on :9000 with the profile's bucket,
and OLake's sync tool (compose profile "sync"), all on the docker network "olake-network".
The bucket, warehouse and region come from the profile's data location and Region, the keys from the profile
when it has them (S3-compatible storage only); anything else is a default or generated. Without a
profile (none exists and --profile is not given) the stack uses s3://warehouse and us-east-1.
Secrets go to DIR/.env only (mode 0600); compose.yaml references them as \${VAR}.

Flags:
  --profile NAME   profile to match (default: the only one, or "default"; none: defaults)
  --output DIR     where to write (default: ./floe-stack)
  --force          replace existing files
  --help           this help`;

async function chooseProfile(ctx: Context, name: string | undefined): Promise<LoadedProfile | undefined> {
  if (name === undefined && ctx.config.profileNames().length === 0) return undefined;
  const profile = await loadProfile(ctx, name);
  const missing = profile.missing.filter((id) => id === 'accessKey' || id === 'secretKey');
  if (missing.length > 0 && profile.values.storage === 's3-compatible')
    throw new FloeError(
      `Profile "${profile.name}" has no value for: ${missing.map((id) => `${FIELD_BY_ID[id].label} (${FIELD_BY_ID[id].env})`).join(', ')}.`,
      'Set the variables named above, so that the stack uses the profile’s keys.',
    );
  return profile;
}

export interface Options {
  help: boolean;
  profile?: string;
  /** The folder to write (not blank). */
  output: string;
  force: boolean;
}

export function parse(argv: string[]): Options {
  const { values: flags } = parseCommandArgs('stack', argv, {
    profile: { type: 'string' },
    output: { type: 'string', short: 'o', default: 'floe-stack' },
    force: { type: 'boolean', default: false },
    help: { type: 'boolean' },
  });
  if (flags.help) return { help: true, output: flags.output, force: flags.force };
  if (flags.output.trim() === '')
    throw new UsageError(['--output: give a directory, e.g. --output floe-stack'], 'stack');
  return {
    help: false,
    output: flags.output,
    force: flags.force,
    profile: flags.profile,
  };
}

export async function run(options: Options, io: Io): Promise<number> {
  if (options.help) return showHelp(HELP, io);
  const profile = await chooseProfile(await io.openContext(), options.profile);
  const plan = planStack(profile);
  await loadYaml();
  const files = stackFiles(options.output, plan);
  writeStackFiles(options.output, files, options.force);
  for (const f of files) io.out`Wrote ${f.path}${f.secret ? ' (mode 0600, holds the secrets)' : ''}`;
  io.out`Stack for ${profile ? `profile "${profile.name}"` : 'no profile (defaults)'}: warehouse ${plan.settings.warehouse}, region ${plan.settings.region}`;
  for (const note of plan.notes) io.out`${note}`;
  io.out``;
  for (const step of nextSteps(options.output, plan, profile, floeCommand(io.env))) io.out`${step}`;
  return EXIT.OK;
}
