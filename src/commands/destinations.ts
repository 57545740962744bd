// floe destinations: the project's Iceberg destinations in the OLake UI, with the jobs that use each.

import { openManagement } from '../app/management.js';
import { type Io, showHelp } from '../cli/command-io.js';
import { EXIT, parseCommandArgs, UsageError } from '../cli/io.js';
import { line, printJson } from '../cli/output.js';
import { explained } from '../management/exit.js';
import { parseWriter } from '../management/jobtest.js';
import { urlFlag } from '../management/session.js';
import { redactConfig } from '../management/summary.js';
import type { Destination } from '../management/types.js';

export const HELP = `Usage: floe destinations [--json] [--project ID] [--url URL]

Lists the destinations of an OLake UI project: id, name, driver version, catalog URL and the jobs that
use each (secrets are never shown). Import one into a profile with "floe pull ID --profile NAME".

Flags:
  --project ID   project (default: the one "floe login" saved, else 123)
  --url URL      the OLake UI (default: the one "floe login" used)
  --json         machine-readable output on stdout (configs with secret values hidden)
  --help         this help

Exit codes: 0 ok, 1 failure, 2 usage, 4 not logged in.`;

function catalogOf(destination: Destination): string {
  try {
    const url = parseWriter(destination.config).rest_catalog_url;
    return typeof url === 'string' ? url : '-';
  } catch {
    return '-';
  }
}

export interface Options {
  help: boolean;
  project?: string;
  url?: string;
  json: boolean;
}

export function parse(argv: string[]): Options {
  const { values: flags, positionals } = parseCommandArgs(
    'destinations',
    argv,
    {
      project: { type: 'string' },
      url: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    true,
  );
  if (flags.help) return { help: true, json: false };
  if (positionals.length > 0)
    throw new UsageError([`unexpected argument "${positionals[0]}"`], 'destinations');
  const url = urlFlag(flags.url, 'destinations');
  return {
    help: false,
    json: flags.json === true,
    project: flags.project,
    url,
  };
}

export async function run(options: Options, io: Io): Promise<number> {
  if (options.help) return showHelp(HELP, io);
  const session = await openManagement(io, 'destinations', options);
  try {
    const list = await explained(() => session.client.listDestinations(session.project));
    if (options.json) {
      printJson(
        list.map((d) => ({ ...d, config: redactConfig(d.config) })),
        io.out,
      );
      return EXIT.OK;
    }
    if (list.length === 0) {
      io.out`No destinations in project ${session.project} at ${session.url}.`;
      return EXIT.OK;
    }
    for (const d of list) {
      io.out`${d.id}  ${d.name}  (${d.type} ${d.version})  catalog ${catalogOf(d)}`;
      if (d.jobs.length === 0) io.out`    no jobs use it`;
      for (const job of d.jobs)
        io.out`    job ${job.id} ${job.name}${job.source_name ? line` from ${job.source_name}` : ''}${job.activate === false ? ' (paused)' : ''}${job.last_run_state ? line` · last run ${job.last_run_state}` : ''}`;
    }
    return EXIT.OK;
  } finally {
    await session.client.close();
  }
}
