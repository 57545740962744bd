// floe push: create a profile as an Iceberg destination in the OLake UI. Like the OLake UI itself, it
// runs the connection test first and creates the destination only when the test succeeded.
import { SecretScrubber } from '../check/scrub.js';
import { openContext } from '../cli/context.js';
import { canPrompt, EXIT, FloeError, parseCommandArgs, UsageError } from '../cli/io.js';
import { loadProfile, requireSecrets } from '../cli/profiles.js';
import { REDACTED, serializeDestination, toDestinationJson } from '../destination/olake.js';
import { validate } from '../destination/schema.js';
import { explained } from '../management/exit.js';
import { promptPassword } from '../management/prompt.js';
import { openSession, urlFlag } from '../management/session.js';
import { ManagementError } from '../management/types.js';
import { sanitize } from '../text/sanitize.js';

export const HELP = `Usage: floe push [--profile NAME] [--name NAME] [--project ID] [--version VERSION] [--force]

Creates the profile as an Iceberg destination in the OLake UI ("floe login" first). The OLake UI first
runs "olake check" against the catalog (this can take minutes); the destination is created only when
that test succeeds.

Flags:
  --profile NAME      profile to push (default: the only one, or "default")
  --name NAME         destination name in the OLake UI (default: the profile name)
  --project ID        project (default: the one "floe login" saved, else 123)
  --version VERSION   OLake driver version, e.g. v0.9.4 (default: the newest the OLake UI offers)
  --url URL           the OLake UI (default: the one "floe login" used)
  --force             create the destination even when the connection test failed
  --help              this help

Exit codes: 0 created, 1 failure (test failed, name taken, …), 2 usage, 4 not logged in.`;

/** Newest first: v0.10.0 before v0.9.4. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) =>
    v
      .replace(/^v/i, '')
      .split(/[.-]/)
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const pa = parse(a);
  const pb = parse(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    if (x === undefined) return 1;
    if (y === undefined) return -1;
    if (typeof x === 'number' && typeof y === 'number') return y - x;
    return String(y).localeCompare(String(x));
  }
  return 0;
}

export async function run(argv: string[]): Promise<number> {
  const { values: flags } = parseCommandArgs('push', argv, {
    profile: { type: 'string' },
    name: { type: 'string' },
    project: { type: 'string' },
    version: { type: 'string' },
    url: { type: 'string' },
    force: { type: 'boolean' },
    help: { type: 'boolean' },
  });
  if (flags.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.OK;
  }
  if (flags.name !== undefined && flags.name.trim() === '')
    throw new UsageError(['--name must not be empty'], 'push');
  const ctx = openContext();
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

  const session = await explained(() =>
    openSession(ctx, {
      url: urlFlag(flags.url, 'push'),
      project: flags.project,
      askPassword: canPrompt()
        ? () =>
            promptPassword(
              `The OLake UI session has expired. Password for ${ctx.config.getManagement()?.username ?? 'admin'}: `,
            )
        : undefined,
      warn: (message) => process.stderr.write(`floe: ${sanitize(message)}\n`),
    }),
  );
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
        const versions = [...(await client.destinationVersions(project))].sort(compareVersions);
        version = versions[0];
        if (!version)
          throw new FloeError(
            'The OLake UI offers no Iceberg driver version.',
            'Name one with --version, e.g. v0.9.4.',
          );
      }
      process.stderr.write(
        `Testing "${profile.name}" from the OLake UI at ${session.url} (olake check, iceberg ${version}; this can take a few minutes)…\n`,
      );
      const test = await client.testDestination(project, { type: 'iceberg', version, config });
      const status = test.connection_result.status.toUpperCase();
      const passed = status === 'SUCCEEDED';
      process.stdout.write(
        `${passed ? '✓' : '✗'} Connection test ${sanitize(status)}${test.connection_result.message ? `: ${sanitize(redact(test.connection_result.message), { multiline: true })}` : ''}\n`,
      );
      for (const line of test.logs)
        process.stdout.write(
          `  ${sanitize(`${line.time} ${line.level.toUpperCase().padEnd(5)}`)} ${sanitize(redact(line.message), { multiline: true })}\n`,
        );
      if (!passed && !flags.force)
        throw new FloeError(
          `The destination was not created because the connection test failed.`,
          `Fix the profile ("floe test --profile ${profile.name}" shows where it breaks), or pass --force to create it anyway.`,
        );
      if (!passed) process.stderr.write('! Creating it anyway (--force).\n');
      try {
        const message = await client.createDestination(project, { name, type: 'iceberg', version, config });
        process.stdout.write(`✓ ${sanitize(message)} (iceberg ${sanitize(version)}, project ${project}).\n`);
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
