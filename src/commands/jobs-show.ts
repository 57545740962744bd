// floe jobs show: a job's detail without a terminal. The detail is read size-tolerantly (its
// streams_config is only counted), configs are summarised and secret values never printed.
import { EXIT } from '../cli/io.js';
import { joined, line, printJson, type Shown, type Writer } from '../cli/output.js';
import type { ManagementClient } from '../management/client.js';
import { configLine, redactConfig } from '../management/summary.js';
import type { JobDetail } from '../management/types.js';
import { scheduleText } from '../ui/jobs/cron.js';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function endpoint(e: JobDetail['source']): string {
  return `${e.name} (${e.type}${e.version ? ` ${e.version}` : ''}${e.id !== undefined ? `, id ${e.id}` : ''})`;
}

/** The detail for `--json`: configs as objects with secrets hidden, streams as a summary. */
export function publicDetail(job: JobDetail): Record<string, unknown> {
  return {
    ...job,
    source: { ...job.source, config: redactConfig(job.source.config) },
    destination: { ...job.destination, config: redactConfig(job.destination.config) },
  };
}

export function detailLines(job: JobDetail): Shown[] {
  const streams = job.streams
    ? `${job.streams.selected.toLocaleString('en-US')} selected (streams_config ${size(job.streams.bytes)})`
    : 'none';
  const rows: [string, string][] = [
    ['Job', `${job.id} ${job.name}`],
    ['Schedule', `${job.activate ? 'active' : 'paused'}, ${scheduleText(job.frequency)}`],
    [
      'Last run',
      job.last_run_state
        ? `${job.last_run_state} ${job.last_run_time ?? ''} (${job.last_run_type ?? 'sync'})`
        : 'never ran',
    ],
    ['Source', endpoint(job.source)],
    ['', configLine(job.source.config)],
    ['Destination', endpoint(job.destination)],
    ['', configLine(job.destination.config)],
    ['Streams', streams],
    ['Created', `${job.created_at ?? '?'}${job.created_by ? ` by ${job.created_by}` : ''}`],
    ['Updated', `${job.updated_at ?? '?'}${job.updated_by ? ` by ${job.updated_by}` : ''}`],
  ];
  // One line a row: a newline in a server's value cannot forge a row of its own.
  return rows.map(([label, value]) => line`${label.padEnd(12)} ${value}`);
}

export async function showJob(
  out: Writer,
  client: ManagementClient,
  project: string,
  id: number,
  json: boolean,
): Promise<number> {
  const job = await client.getJob(project, id);
  if (json) printJson(publicDetail(job), out);
  else out`${joined(detailLines(job))}`;
  return EXIT.OK;
}
