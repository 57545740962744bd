// A job's detail: its fields, then the Runs and Logs panes (Tab switches).
import { Box } from 'ink';
import type { ReactNode } from 'react';
import { serverText } from '../../management/text.js';
import type { JobDetail } from '../../management/types.js';
import { Text } from '../components/Text.js';
import { scheduleText } from './cron.js';
import { endpoint, relativeTime, settingsSummary } from './format.js';
import { ActiveText, Cell, StateText } from './JobTable.js';
import { LogPane } from './LogPane.js';
import { type DetailState, detailJob, type Failure, type JobsState } from './state.js';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text wrap="truncate-end">
      <Text dimColor>{label.padEnd(13)}</Text>
      {children}
    </Text>
  );
}

/** The detail's stream count (its streams_config is only counted, see management/detail.ts). */
function streamsText(job: JobDetail): string {
  if (!job.streams) return '—';
  const mib = job.streams.bytes / 1024 / 1024;
  return `${job.streams.selected.toLocaleString('en-US')} selected${mib >= 1 ? ` (${mib.toFixed(1)} MiB catalog)` : ''}`;
}

function byWho(at: string | undefined, by: string | undefined, now: number): string {
  if (!at && !by) return '—';
  const when = at ? `${at}${relativeTime(at, now) ? ` (${relativeTime(at, now)})` : ''}` : '';
  return [when, by ? `by ${by}` : ''].filter(Boolean).join(' ');
}

function JobFields({ job, now }: { job: JobDetail; now: number }) {
  const ran = relativeTime(job.last_run_time, now);
  return (
    <Box flexDirection="column">
      <Field label="Source">{serverText(endpoint(job.source))}</Field>
      <Field label="Destination">{serverText(endpoint(job.destination))}</Field>
      <Field label="Frequency">{scheduleText(job.frequency)}</Field>
      <Field label="Status">
        <ActiveText active={job.activate} />
      </Field>
      <Field label="Last run">
        <StateText state={job.last_run_state} />
        {job.last_run_type && ` · ${job.last_run_type}`}
        {job.last_run_time && ` · ${job.last_run_time}`}
        {ran && ` (${ran})`}
      </Field>
      <Field label="Created">{byWho(job.created_at, job.created_by, now)}</Field>
      <Field label="Updated">{byWho(job.updated_at, job.updated_by, now)}</Field>
      <Field label="Advanced">{settingsSummary(job.advanced_settings)}</Field>
      <Field label="Streams">{streamsText(job)}</Field>
    </Box>
  );
}

export function FailureLine({ failure }: { failure: Failure }) {
  return (
    <Text color="red" wrap="truncate-end">
      ✗ {serverText(failure.message)}
    </Text>
  );
}

function RunsPane({ detail, height, now }: { detail: DetailState; height: number; now: number }) {
  if (detail.tasksFailure) return <FailureLine failure={detail.tasksFailure} />;
  if (!detail.tasks) return <Text dimColor>Loading the run history…</Text>;
  if (detail.tasks.length === 0) return <Text dimColor>This job has not run yet.</Text>;
  const start = Math.max(0, Math.min(detail.taskCursor - height + 1, detail.tasks.length - height));
  return (
    <Box flexDirection="column">
      {detail.tasks.slice(Math.max(0, start), Math.max(0, start) + height).map((task, offset) => {
        const selected = Math.max(0, start) + offset === detail.taskCursor;
        return (
          <Box key={`${task.file_path}@${task.start_time}`}>
            <Cell width={2}>{selected ? <Text color="cyan">›</Text> : ' '}</Cell>
            <Cell width={13}>
              <StateText state={task.status} />
            </Cell>
            <Cell width={7}>{task.job_type ?? ''}</Cell>
            <Cell width={22}>
              <Text bold={selected}>{task.start_time}</Text>
            </Cell>
            <Cell width={10}>{task.runtime}</Cell>
            <Cell width={12} grow>
              {relativeTime(task.start_time, now) ?? ''}
            </Cell>
          </Box>
        );
      })}
    </Box>
  );
}

export function Detail({
  state,
  height,
  width,
  now,
}: {
  state: JobsState;
  height: number;
  width: number;
  now: number;
}) {
  const detail = state.detail!;
  const job = detailJob(state);
  return (
    <Box flexDirection="column">
      {job ? <JobFields job={job} now={now} /> : <Text dimColor>Loading job #{detail.jobId}…</Text>}
      {detail.jobFailure && <FailureLine failure={detail.jobFailure} />}
      <Box>
        <Text inverse={detail.pane === 'runs'} bold>
          {' '}
          Runs{detail.tasks ? ` (${detail.tasks.length})` : ''}{' '}
        </Text>
        <Text> </Text>
        <Text inverse={detail.pane === 'logs'} bold>
          {' '}
          Logs{' '}
        </Text>
        <Text dimColor> Tab switches</Text>
      </Box>
      <Box height={height} flexDirection="column" overflow="hidden">
        {detail.pane === 'runs' ? (
          <RunsPane detail={detail} height={height} now={now} />
        ) : (
          <LogPane detail={detail} height={height} width={width} />
        )}
      </Box>
    </Box>
  );
}
