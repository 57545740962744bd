// floe destinations: the project's Iceberg destinations in the OLake UI, with the jobs that use each.
import { EXIT, parseCommandArgs, UsageError } from '../cli/io.js';
import { openManagement } from '../cli/management.js';
import { line, out, printHelp, printJson } from '../cli/output.js';
import { explained } from '../management/exit.js';
import { parseWriter } from '../management/jobtest.js';
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

export async function run(argv: string[]): Promise<number> {
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
  if (flags.help) {
    printHelp(HELP);
    return EXIT.OK;
  }
  if (positionals.length > 0)
    throw new UsageError([`unexpected argument "${positionals[0]}"`], 'destinations');
  const session = await openManagement('destinations', flags);
  try {
    const list = await explained(() => session.client.listDestinations(session.project));
    if (flags.json) {
      printJson(list.map((d) => ({ ...d, config: redactConfig(d.config) })));
      return EXIT.OK;
    }
    if (list.length === 0) {
      out`No destinations in project ${session.project} at ${session.url}.`;
      return EXIT.OK;
    }
    for (const d of list) {
      out`${d.id}  ${d.name}  (${d.type} ${d.version})  catalog ${catalogOf(d)}`;
      if (d.jobs.length === 0) out`    no jobs use it`;
      for (const job of d.jobs)
        out`    job ${job.id} ${job.name}${job.source_name ? line` from ${job.source_name}` : ''}${job.activate === false ? ' (paused)' : ''}${job.last_run_state ? line` · last run ${job.last_run_state}` : ''}`;
    }
    return EXIT.OK;
  } finally {
    await session.client.close();
  }
}
