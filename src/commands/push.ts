// floe push: create a profile as an Iceberg destination in the OLake UI. Like the OLake UI itself, it
// runs the connection test first and creates the destination only when the test succeeded.

import { openManagement } from '../app/management.js';
import { loadProfile, requireSecrets } from '../app/profiles.js';
import { cleartextWarning } from '../catalog/transport.js';
import { SecretScrubber } from '../check/scrub.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { line } from '../cli/output.js';
import { REDACTED, serializeDestination, toDestinationJson } from '../destination/olake.js';
import { validate } from '../destination/schema.js';
import { explained } from '../management/exit.js';
import { urlFlag } from '../management/session.js';
import { ManagementError } from '../management/types.js';
import { chooseVersion } from '../management/versions.js';

export const HELP = `Usage: floe push [--profile NAME] [--name NAME] [--project ID] [--version VERSION] [--force]

Creates the profile as an Iceberg destination in the OLake UI ("floe login" first). The OLake UI first
runs "olake check" against the catalog (this can take minutes); the destination is created only when
that test succeeds.

Flags:
  --profile NAME      profile to push (default: the only one, or "default")
  --name NAME         destination name in the OLake UI (default: the profile name)
  --project ID        project (default: the one "floe login" saved, else 123)
  --version VERSION   OLake driver version, e.g. v0.9.4 (default: the profile's target version when the
                      OLake UI offers it, else the newest release it offers)
  --url URL           the OLake UI (default: the one "floe login" used)
  --force             create the destination even when the connection test failed
  --full-log          print the whole log of the OLake UI's test (by default: its error lines)
  --help              this help

Exit codes: 0 created, 1 failure (test failed, name taken, …), 2 usage, 4 not logged in.`;

/** A failed test's log is printed whole only on request or when it is short. */
const SHORT_LOG = 12;

export interface Options {
  help: boolean;
  profile?: string;
  /** The destination's name (not blank); default: the profile's. */
  name?: string;
  project?: string;
  version?: string;
  url?: string;
  force: boolean;
  'full-log': boolean;
}

export function parse(argv: string[]): Options {
  const { values: flags } = parseCommandArgs('push', argv, {
    profile: { type: 'string' },
    name: { type: 'string' },
    project: { type: 'string' },
    version: { type: 'string' },
    url: { type: 'string' },
    force: { type: 'boolean' },
    'full-log': { type: 'boolean' },
    help: { type: 'boolean' },
  });
  if (flags.help) return { help: true, force: false, 'full-log': false };
  if (flags.name !== undefined && flags.name.trim() === '')
    throw new UsageError(['--name must not be empty'], 'push');
  const url = urlFlag(flags.url, 'push');
  return {
    help: false,
    force: flags.force === true,
    'full-log': flags['full-log'] === true,
    profile: flags.profile,
    name: flags.name,
    project: flags.project,
    version: flags.version,
    url,
  };
}

export async function run(flags: Options, io: Io): Promise<number> {
  if (flags.help) return showHelp(HELP, io);
  const ctx = await io.openContext();
  const profile = await loadProfile(ctx, flags.profile);
  requireSecrets(profile);
  const result = validate(profile.values);
  if (!result.ok)
    throw new FloeError(
      `Profile "${profile.name}" is incomplete: ${result.issues.map((i) => i.message).join('; ')}`,
      `Fix it with "floe setup --profile ${profile.name}".`,
    );
  const config = serializeDestination(toDestinationJson(profile.values));
  // The server's echo may quote the config: secrets appear JSON-escaped (`"` and `\` in a secret).
  const scrubber = new SecretScrubber(() => REDACTED).addProfileSecrets(profile.values);
  const redact = (text: string) => scrubber.scrub(text);
  const name = flags.name ?? profile.name;

  const session = await openManagement(io, 'push', flags, { requireLogin: false });
  const { client, project } = session;
  try {
    return await explained(async () => {
      if (!(await client.isNameUnique(project, name, 'destination')))
        throw new FloeError(
          `A destination named "${name}" already exists in project ${project} at ${session.url}.`,
          'Choose another name with --name NAME (floe does not overwrite destinations).',
        );
      let version = flags.version;
      if (!version) {
        const offered = await client.destinationVersions(project);
        version = chooseVersion(offered, profile.values.targetVersion);
        const target = profile.values.targetVersion;
        if (version && target !== 'latest' && version.replace(/^v/, '') !== target.replace(/^v/, ''))
          io.err`! The OLake UI does not offer the profile's target version ${target}; using ${version}.`;
        if (!version)
          throw new FloeError(
            'The OLake UI offers no Iceberg driver version.',
            'Name one with --version, e.g. v0.9.4.',
          );
      }
      const clear = cleartextWarning(session.url, "The destination's secrets (and the session cookie)");
      if (clear) io.err`! ${clear}`;
      io.err`Testing "${profile.name}" from the OLake UI at ${session.url} (olake check, iceberg ${version}; this can take a few minutes)…`;
      const test = await client.testDestination(project, { type: 'iceberg', version, config });
      const status = test.connection_result.status.toUpperCase();
      const passed = status === 'SUCCEEDED';
      const said = test.connection_result.message;
      io.out`${passed ? '✓' : '✗'} Connection test ${status}${said ? line`: ${redact(said)}` : ''}`;
      const whole = flags['full-log'] || test.logs.length <= SHORT_LOG;
      for (const entry of whole ? test.logs : [])
        io.out`  ${entry.time} ${entry.level.toUpperCase().padEnd(5)} ${redact(entry.message)}`;
      if (!whole)
        io.out`  (${test.logs.length} log lines; full log: floe push --profile ${profile.name}${flags.name ? ` --name ${flags.name}` : ''} --version ${version} --full-log)`;
      if (!passed && !flags.force)
        throw new FloeError(
          `The destination was not created because the connection test failed.`,
          `Fix the profile ("floe test --profile ${profile.name}" shows where it breaks), or pass --force to create it anyway.`,
        );
      if (!passed) io.err`! Creating it anyway (--force).`;
      try {
        const message = await client.createDestination(project, { name, type: 'iceberg', version, config });
        io.out`✓ ${message} (iceberg ${version}, project ${project}).`;
      } catch (error) {
        if (error instanceof ManagementError && /not unique/i.test(error.serverMessage ?? ''))
          throw new FloeError(
            `A destination named "${name}" already exists in project ${project} (the OLake UI said: ${error.serverMessage}).`,
            'Choose another name with --name NAME.',
          );
        throw error;
      }
      return EXIT.OK;
    });
  } finally {
    await client.close();
  }
}
