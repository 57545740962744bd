// floe jobs test: floe's own connection test on the destination config the OLake UI holds for a job,
// without saving it anywhere. Secrets the server's copy lacks come from a local profile of the same
// catalog URL, or are asked for; they are never printed.

import { writeCheck } from '../app/check-output.js';
import { localProfiles } from '../app/profiles.js';
import type { Io } from '../cli/command-io.js';
import { EXIT } from '../cli/io.js';
import { line } from '../cli/output.js';
import { runCheck } from '../connection/run.js';
import { prepareJobTest } from '../management/jobtest-prepare.js';
import type { Session } from '../management/session.js';
import { loadScreen } from '../ui/load.js';
import { fileJournal } from '../write/journal-file.js';

const TIMEOUT_MS = 10_000;

export interface JobTestOptions {
  profile?: string;
  json: boolean;
  readOnly: boolean;
  /** Each request's time-out (--timeout); 10 s by default, as floe test. */
  timeoutMs?: number;
}

/** Where a job test takes hidden secrets from (the local profiles) and records what `w` makes. */
export async function jobTestSources(io: Io) {
  const ctx = await io.openContext();
  return { profiles: localProfiles(ctx), journal: fileJournal(ctx.config.dir) };
}

export async function testJob(io: Io, session: Session, id: number, opts: JobTestOptions): Promise<number> {
  const job = await session.client.getJob(session.project, id);
  const ask =
    io.canPrompt() && !opts.json
      ? (key: string, why?: string) =>
          io.prompter.password(
            line`The OLake UI's copy of ${key} is hidden or empty${why ? `, and it is ${why}` : ''}. ${key} (used once, not saved): `,
          )
      : undefined;
  const { values, title, notes, profile, differences, secretsFrom, writeWith } = await prepareJobTest(job, {
    ...(await jobTestSources(io)),
    profile: opts.profile,
    ask,
  });
  if (!opts.json && io.canPrompt()) {
    for (const note of notes) io.err`${note}`;
    const { runTestScreen } = await loadScreen(() => import('../ui/test/index.js'));
    const { report, interrupted } = await runTestScreen(values, {
      title,
      writeWith,
      timeoutMs: opts.timeoutMs ?? TIMEOUT_MS,
      env: io.env,
      readOnly: opts.readOnly,
    });
    if (interrupted) return EXIT.INTERRUPTED;
    return report.ok ? EXIT.OK : EXIT.FAILURE;
  }
  return writeCheck(
    io,
    {
      json: opts.json,
      heading: notes,
      document: (report) => ({
        job: { id, name: job.name },
        destination: job.destination.name,
        profile,
        differences,
        secretsFrom,
        report,
      }),
    },
    (onEvent) =>
      runCheck(values, {
        timeoutMs: opts.timeoutMs ?? TIMEOUT_MS,
        env: io.env,
        readOnly: opts.readOnly,
        ...(onEvent ? { onEvent } : {}),
      }),
  );
}
