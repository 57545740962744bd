// The jobs list: one line per job, columns fitted to the terminal and the names (tableLayout).
import { Box } from 'ink';
import { memo, type ReactNode, useMemo } from 'react';
import { serverText } from '../../management/text.js';
import type { Job } from '../../management/types.js';
import { truncate } from '../components/layout.js';
import { Text } from '../components/Text.js';
import { humaniseCron, scheduleText } from './cron.js';
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

/** The schedule's words; with the frequency as saved too on wide terminals (scheduleText). */
function frequency(cron: string, wide: boolean): string {
  return wide ? scheduleText(cron) : humaniseCron(cron);
}

/** Column widths including one space of padding. */
const COLUMNS = { marker: 2, route: 19, state: 12, when: 11, lastRun: 13, active: 9 };
/** NAME keeps up to this many columns before any other column is shown. */
const NAME_FIRST = 24;

export interface TableLayout {
  nameWidth: number;
  /** 0 when the column is left out (narrow terminals). */
  routeWidth: number;
  freqWidth: number;
  runWidth: number;
  activeWidth: number;
  /** At 110 columns and more the frequency shows its cron expression too. */
  wide: boolean;
  /** Below 100 columns LAST RUN is glyph and time; the state word moves to the detail view. */
  compact: boolean;
}

/**
 * Fits the table to `columns`: NAME first (its longest name, up to 24 columns), then LAST RUN,
 * SOURCE → DEST, STATUS and FREQUENCY while they fit (the later ones are left out first on narrow
 * terminals); what is left widens NAME up to its longest name, and the rest stays blank.
 */
export function tableLayout(columns: number, longestName: number): TableLayout {
  const wide = columns >= 110;
  const compact = columns < 100;
  const full = Math.max(8, longestName + 1);
  const first = Math.max(8, Math.min(full, NAME_FIRST, columns - COLUMNS.marker));
  let free = columns - COLUMNS.marker - first;
  const take = (width: number) => {
    if (free < width) return 0;
    free -= width;
    return width;
  };
  const runWidth = take(compact ? COLUMNS.lastRun : COLUMNS.state + COLUMNS.when);
  const routeWidth = take(COLUMNS.route);
  const activeWidth = take(COLUMNS.active);
  const freqWidth = take(wide ? 28 : 13);
  return {
    nameWidth: first + Math.min(free, full - first),
    routeWidth,
    freqWidth,
    runWidth,
    activeWidth,
    wide,
    compact,
  };
}

/** `text` cut and padded to a column of `width`, its last character a space; nothing for width 0. */
function cell(text: string, width: number): string {
  return width === 0 ? '' : `${truncate(text, width - 1).padEnd(width - 1)} `;
}

/** The state column's text: glyph and word, or on narrow terminals glyph and relative time. */
function runText(job: Job, now: number, compact: boolean): string {
  const look = stateLook(job.last_run_state);
  if (!compact) return `${look.glyph} ${look.word}`;
  return `${look.glyph} ${look === NEVER ? NEVER.word : (relativeTime(job.last_run_time, now) ?? look.word)}`;
}

const TableHeader = memo(function TableHeader({ layout }: { layout: TableLayout }) {
  const { nameWidth, routeWidth, freqWidth, runWidth, activeWidth, compact } = layout;
  return (
    <Text wrap="truncate-end">
      {cell('', COLUMNS.marker)}
      {cell('NAME', nameWidth)}
      {cell('SOURCE → DEST', routeWidth)}
      {cell('FREQUENCY', freqWidth)}
      {runWidth === 0
        ? ''
        : compact
          ? cell('LAST RUN', runWidth)
          : cell('LAST RUN', COLUMNS.state) + cell('WHEN', COLUMNS.when)}
      {activeWidth === 0 ? '' : 'STATUS'}
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
  const { nameWidth, routeWidth, freqWidth, runWidth, activeWidth, wide, compact } = layout;
  const name = truncate(serverText(job.name), nameWidth - 1);
  const look = stateLook(job.last_run_state);
  return (
    <Text wrap="truncate-end">
      {selected ? <Text color="cyan">› </Text> : '  '}
      <Text bold={selected} inverse={selected}>
        {name}
      </Text>
      {' '.repeat(Math.max(0, nameWidth - [...name].length))}
      {cell(serverText(route(job)), routeWidth)}
      {freqWidth === 0 ? '' : cell(frequency(job.frequency, wide), freqWidth)}
      {runWidth > 0 && (
        <Text color={look.color}>{cell(runText(job, now, compact), compact ? runWidth : COLUMNS.state)}</Text>
      )}
      {runWidth === 0 || compact
        ? ''
        : cell(relativeTime(job.last_run_time, now) ?? NEVER.word, COLUMNS.when)}
      {activeWidth > 0 && <ActiveText active={job.activate} />}
    </Text>
  );
});

export function JobTable({ state, columns, now }: { state: JobsState; columns: number; now: number }) {
  const jobs = state.data.jobs;
  // The longest of all names, not only the filtered ones: the columns stay put while filtering.
  const longestName = useMemo(
    () => jobs.reduce((longest, job) => Math.max(longest, job.name.length), 0),
    [jobs],
  );
  const layout = useMemo(() => tableLayout(columns, longestName), [columns, longestName]);
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
