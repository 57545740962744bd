// The jobs list: one line per job, columns sized to the terminal (names keep ~23 characters at 80).
import { Box, Text } from 'ink';
import { memo, type ReactNode, useMemo } from 'react';
import { serverText } from '../../management/text.js';
import type { Job } from '../../management/types.js';
import { truncate } from '../components/layout.js';
import { humaniseCron } from './cron.js';
import { NEVER, relativeTime, route, stateLook } from './format.js';
import type { JobsState } from './state.js';

export function Cell({ width, children, grow }: { width: number; children: ReactNode; grow?: boolean }) {
  return (
    <Box width={width} flexGrow={grow ? 1 : 0} flexShrink={grow ? 1 : 0} paddingRight={1}>
      <Text wrap="truncate-end">{children}</Text>
    </Box>
  );
}

export function StateText({ state }: { state: string | undefined }) {
  const look = stateLook(state);
  return (
    <Text color={look.color}>
      {look.glyph} {look.word}
    </Text>
  );
}

export function ActiveText({ active }: { active: boolean }) {
  return active ? <Text color="green">● active</Text> : <Text color="yellow">○ paused</Text>;
}

function frequency(cron: string, wide: boolean): string {
  const human = humaniseCron(cron);
  if (human === cron.trim() || !wide) return human;
  return `${human} (${cron.trim()})`;
}

/** Column widths including one space of padding; the name takes what is left. */
const COLUMNS = { marker: 2, route: 19, state: 12, when: 11, lastRun: 13, active: 9 };

interface TableLayout {
  nameWidth: number;
  freqWidth: number;
  /** At 110 columns and more the frequency shows its cron expression too. */
  wide: boolean;
  /** Below 100 columns the state word moves to the detail view so names keep about 23 characters at 80. */
  compact: boolean;
}

function tableLayout(columns: number): TableLayout {
  const wide = columns >= 110;
  const compact = columns < 100;
  const freqWidth = wide ? 28 : 13;
  const runWidth = compact ? COLUMNS.lastRun : COLUMNS.state + COLUMNS.when;
  const fixed = COLUMNS.marker + COLUMNS.route + freqWidth + runWidth + COLUMNS.active;
  return { nameWidth: Math.max(8, columns - fixed), freqWidth, wide, compact };
}

/** `text` cut and padded to a column of `width`, its last character a space. */
function cell(text: string, width: number): string {
  return `${truncate(text, width - 1).padEnd(width - 1)} `;
}

/** The state column's text: glyph and word, or on narrow terminals glyph and relative time. */
function runText(job: Job, now: number, compact: boolean): string {
  const look = stateLook(job.last_run_state);
  if (!compact) return `${look.glyph} ${look.word}`;
  return `${look.glyph} ${look === NEVER ? NEVER.word : (relativeTime(job.last_run_time, now) ?? look.word)}`;
}

const TableHeader = memo(function TableHeader({ layout }: { layout: TableLayout }) {
  const { nameWidth, freqWidth, compact } = layout;
  return (
    <Text wrap="truncate-end">
      {cell('', COLUMNS.marker)}
      {cell('NAME', nameWidth)}
      {cell('SOURCE → DEST', COLUMNS.route)}
      {cell('FREQUENCY', freqWidth)}
      {compact
        ? cell('LAST RUN', COLUMNS.lastRun)
        : cell('LAST RUN', COLUMNS.state) + cell('WHEN', COLUMNS.when)}
      {'STATUS'}
    </Text>
  );
});

/** One table row as one line of text; only the coloured spans are nested. */
const JobRow = memo(function JobRow({
  job,
  selected,
  layout,
  now,
}: {
  job: Job;
  selected: boolean;
  layout: TableLayout;
  now: number;
}) {
  const { nameWidth, freqWidth, wide, compact } = layout;
  const name = truncate(serverText(job.name), nameWidth - 1);
  const look = stateLook(job.last_run_state);
  return (
    <Text wrap="truncate-end">
      {selected ? <Text color="cyan">› </Text> : '  '}
      <Text bold={selected} inverse={selected}>
        {name}
      </Text>
      {' '.repeat(Math.max(0, nameWidth - [...name].length))}
      {cell(serverText(route(job)), COLUMNS.route)}
      {cell(frequency(job.frequency, wide), freqWidth)}
      <Text color={look.color}>
        {cell(runText(job, now, compact), compact ? COLUMNS.lastRun : COLUMNS.state)}
      </Text>
      {compact ? '' : cell(relativeTime(job.last_run_time, now) ?? NEVER.word, COLUMNS.when)}
      <ActiveText active={job.activate} />
    </Text>
  );
});

export function JobTable({ state, columns, now }: { state: JobsState; columns: number; now: number }) {
  const layout = useMemo(() => tableLayout(columns), [columns]);
  const rows = state.visible.slice(state.top, state.top + state.pageSize);
  return (
    <Box flexDirection="column">
      <TableHeader layout={layout} />
      {rows.map((index, offset) => (
        // Keyed by position on screen: a new filter or page updates the rows in place.
        <JobRow
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are screen lines, keyed by their line
          key={offset}
          job={state.data.jobs[index]!}
          selected={state.top + offset === state.cursor}
          layout={layout}
          now={now}
        />
      ))}
      {rows.length === 0 && (
        <Text wrap="truncate-end">
          {'  '}No job matches “{state.filter}”. Esc clears the filter.
        </Text>
      )}
    </Box>
  );
}
