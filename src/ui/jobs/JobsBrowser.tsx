// The jobs browser screen: renders JobsState and maps keys to reducer actions and hook commands.
import { Box, type Key, Text, useInput, useStdout } from 'ink';
import { memo, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import type { Job, JobsApi, LogPage, Task } from '../../management/types.js';
import { KeyHints } from '../components/KeyHints.js';
import { truncate } from '../components/layout.js';
import { editLine, lineAtEnd } from '../components/line.js';
import { humaniseCron } from './cron.js';
import {
  ageStamp,
  endpoint,
  NEVER,
  relativeTime,
  route,
  settingsSummary,
  stateLook,
  streamsSummary,
} from './format.js';
import {
  type DetailState,
  detailJob,
  type Failure,
  type JobAction,
  type JobsState,
  selectedJob,
} from './state.js';
import { useJobsBrowser } from './useJobsBrowser.js';

export interface JobsBrowserProps {
  api: JobsApi;
  project: string;
  refreshMs?: number;
  relogin: (password?: string) => Promise<void>;
  /** Called with the exit code: 0 on q, 130 on Ctrl-C. */
  onExit: (code: number) => void;
  now?: () => number;
  /** How often "updated Ns ago" ticks; 0 turns it off. */
  tickMs?: number;
}

type Hints = [key: string, action: string][];

/** Lines around the list body: title, table header, status line, footer, and the spare last terminal row. */
const NOTICE_COLOR = { ok: 'green', warn: 'yellow', error: 'red', busy: undefined } as const;
const NOTICE_GLYPH = { ok: '✓ ', warn: '! ', error: '✗ ', busy: '… ' } as const;
const LIST_CHROME = 5;
/** Lines around the detail panes: title, nine field lines, pane tabs, status line, footer, spare row. */
const DETAIL_CHROME = 14;
const SORT_NAMES = { name: 'name', 'last-run': 'last run', state: 'state' } as const;

const terminalSize = (stdout: NodeJS.WriteStream) => ({
  columns: stdout.columns || 80,
  rows: stdout.rows || 24,
});

/** Columns and rows of the terminal (80x24 when unknown), following resizes. */
function useTerminalSize() {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => terminalSize(stdout));
  useEffect(() => {
    const onResize = () => setSize(terminalSize(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

function Cell({ width, children, grow }: { width: number; children: ReactNode; grow?: boolean }) {
  return (
    <Box width={width} flexGrow={grow ? 1 : 0} flexShrink={grow ? 1 : 0} paddingRight={1}>
      <Text wrap="truncate-end">{children}</Text>
    </Box>
  );
}

function StateText({ state }: { state: string | undefined }) {
  const look = stateLook(state);
  return (
    <Text color={look.color}>
      {look.glyph} {look.word}
    </Text>
  );
}

function ActiveText({ active }: { active: boolean }) {
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
  const name = truncate(job.name, nameWidth - 1);
  const look = stateLook(job.last_run_state);
  return (
    <Text wrap="truncate-end">
      {selected ? <Text color="cyan">› </Text> : '  '}
      <Text bold={selected} inverse={selected}>
        {name}
      </Text>
      {' '.repeat(Math.max(0, nameWidth - [...name].length))}
      {cell(route(job), COLUMNS.route)}
      {cell(frequency(job.frequency, wide), freqWidth)}
      <Text color={look.color}>
        {cell(runText(job, now, compact), compact ? COLUMNS.lastRun : COLUMNS.state)}
      </Text>
      {compact ? '' : cell(relativeTime(job.last_run_time, now) ?? NEVER.word, COLUMNS.when)}
      <ActiveText active={job.activate} />
    </Text>
  );
});

function JobTable({ state, columns, now }: { state: JobsState; columns: number; now: number }) {
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

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text wrap="truncate-end">
      <Text dimColor>{label.padEnd(13)}</Text>
      {children}
    </Text>
  );
}

function byWho(at: string | undefined, by: string | undefined, now: number): string {
  if (!at && !by) return '—';
  const when = at ? `${at}${relativeTime(at, now) ? ` (${relativeTime(at, now)})` : ''}` : '';
  return [when, by ? `by ${by}` : ''].filter(Boolean).join(' ');
}

function JobFields({ job, now }: { job: Job; now: number }) {
  const ran = relativeTime(job.last_run_time, now);
  return (
    <Box flexDirection="column">
      <Field label="Source">{endpoint(job.source)}</Field>
      <Field label="Destination">{endpoint(job.destination)}</Field>
      <Field label="Frequency">
        {job.frequency || '—'}
        {humaniseCron(job.frequency) !== job.frequency.trim() && ` · ${humaniseCron(job.frequency)}`}
      </Field>
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
      <Field label="Streams">{streamsSummary(job.streams_config)}</Field>
    </Box>
  );
}

function FailureLine({ failure }: { failure: Failure }) {
  return (
    <Text color="red" wrap="truncate-end">
      ✗ {failure.message}
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

function LogsPane({ detail }: { detail: DetailState }) {
  const logs = detail.logs;
  if (!logs) return <Text dimColor>Choose a run in Runs and press Enter to read its logs.</Text>;
  const page: LogPage | undefined = logs.page;
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        Run {logs.task.start_time}
        {logs.loading ? ' · loading…' : ''}
        {page
          ? ` · [ older${page.has_more_older ? '' : ' (none)'} · ] newer${page.has_more_newer ? '' : ' (none)'}`
          : ''}
      </Text>
      {logs.failure && <FailureLine failure={logs.failure} />}
      {page?.logs.length === 0 && <Text dimColor>No log lines.</Text>}
      {numbered(page).map(({ id, line }) => (
        <Text key={id} wrap="truncate-end">
          <Text dimColor>{line.time}</Text> <Text color={levelColor(line.level)}>{line.level.padEnd(5)}</Text>{' '}
          {line.message}
        </Text>
      ))}
    </Box>
  );
}

/** Log lines with keys stable within a page (lines have no ids of their own). */
function numbered(page: LogPage | undefined) {
  return (page?.logs ?? []).map((line, position) => ({ id: `${page?.older_cursor}:${position}`, line }));
}

function levelColor(level: string): 'red' | 'yellow' | undefined {
  const lower = level.toLowerCase();
  if (lower === 'error' || lower === 'fatal') return 'red';
  if (lower === 'warn' || lower === 'warning') return 'yellow';
  return undefined;
}

function Detail({ state, height, now }: { state: JobsState; height: number; now: number }) {
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
          <LogsPane detail={detail} />
        )}
      </Box>
    </Box>
  );
}

/** Footers as constants, so the memoised footer only re-renders when the screen's keys change. */
const HINTS = {
  relogin: [['Ctrl-C', 'quit']],
  password: [
    ['Enter', 'sign in'],
    ['Esc', 'cancel'],
  ],
  help: [['Esc/?', 'close help']],
  expired: [
    ['R', 'sign in'],
    ['q', 'quit'],
  ],
  loading: [
    ['P', 'project'],
    ['q', 'quit'],
  ],
  error: [
    ['R', 'retry'],
    ['P', 'project'],
    ['q', 'quit'],
  ],
  detail: [
    ['Esc', 'back'],
    ['Tab', 'runs/logs'],
    ['Enter', 'logs'],
    ['[/]', 'older/newer'],
    ['n/p/c', 'actions'],
    ['?', 'help'],
  ],
  empty: [
    ['R', 'refresh'],
    ['P', 'project'],
    ['q', 'quit'],
  ],
  list: [
    ['↑↓', 'move'],
    ['/', 'filter'],
    ['s', 'sort'],
    ['Enter', 'open'],
    ['n/p/c', 'actions'],
    ['R', 'refresh'],
    ['?', 'help'],
    ['q', 'quit'],
  ],
  filter: [
    ['Enter', 'apply'],
    ['Esc', 'clear'],
  ],
  project: [
    ['Enter', 'switch'],
    ['Esc', 'cancel'],
  ],
  confirm: [
    ['y', 'yes'],
    ['n/Esc', 'no'],
  ],
} satisfies Record<string, Hints>;

const HELP: Hints = [
  ['↑/↓  j/k', 'move'],
  ['PgUp/PgDn', 'page'],
  ['Home/End  g/G', 'first / last job'],
  ['/', 'filter by name, source or destination (Enter applies, Esc clears)'],
  ['s', 'sort: name → last run → state'],
  ['Enter', 'open the job (in Runs: read the run’s logs)'],
  ['Esc', 'back / clear the filter'],
  ['Tab', 'Runs ⇄ Logs in the detail'],
  ['[ / ]  PgUp/PgDn', 'older / newer logs (Logs pane)'],
  ['n', 'sync now'],
  ['p', 'pause / resume'],
  ['c', 'cancel the running sync'],
  ['R', 'refresh now'],
  ['P', 'switch project'],
  ['?', 'this help'],
  ['q  Ctrl-C', 'quit'],
  ['Last run', '✓ completed  ✗ failed  ● running  ⊘ canceled  – never'],
];

function Help() {
  return (
    <Box flexDirection="column">
      <Text bold>Keys</Text>
      {HELP.map(([key, action]) => (
        <Text key={key} wrap="truncate-end">
          <Text bold>{key.padEnd(18)}</Text>
          {action}
        </Text>
      ))}
    </Box>
  );
}

function Message({ title, lines, tone }: { title: string; lines: string[]; tone: 'error' | 'info' }) {
  return (
    <Box flexDirection="column" paddingTop={1} paddingLeft={2}>
      <Text bold color={tone === 'error' ? 'red' : undefined}>
        {tone === 'error' ? '✗ ' : ''}
        {title}
      </Text>
      {lines.map((line) => (
        <Text key={line}>{line}</Text>
      ))}
    </Box>
  );
}

function failureScreen(failure: Failure, project: string, retrying: boolean) {
  const retry = retrying ? 'Retrying…' : 'R to retry';
  if (failure.kind === 'network')
    return (
      <Message
        tone="error"
        title="Cannot reach the OLake server"
        lines={[failure.message, '', 'Check that it is running and the address is right.', retry]}
      />
    );
  if (failure.kind === 'not-found')
    return (
      <Message
        tone="error"
        title={`Project ${project} was not found`}
        lines={[failure.message, '', `P to switch project · ${retry}`]}
      />
    );
  return (
    <Message tone="error" title="The server answered with an error" lines={[failure.message, '', retry]} />
  );
}

/** Cuts a name to `max` characters (at least 12) with an ellipsis, so a question keeps its y/N. */
function shorten(name: string, max: number): string {
  const limit = Math.max(12, max);
  const chars = [...name];
  return chars.length <= limit ? name : `${chars.slice(0, limit - 1).join('')}…`;
}

const ACTION_QUESTIONS: Record<JobAction, (name: string) => string> = {
  sync: (name) => `Start a sync of “${name}” now?`,
  pause: (name) => `Pause “${name}”? Its schedule stops until resumed.`,
  resume: (name) => `Resume “${name}”?`,
  cancel: (name) => `Cancel the running sync of “${name}”?`,
};

export function JobsBrowser(props: JobsBrowserProps) {
  const { columns, rows } = useTerminalSize();
  const listPage = Math.max(1, rows - LIST_CHROME);
  const panes = Math.max(2, rows - DETAIL_CHROME);
  const { state, latest, dispatch, now, commands } = useJobsBrowser({
    api: props.api,
    project: props.project,
    refreshMs: props.refreshMs ?? 10_000,
    relogin: props.relogin,
    pageSize: listPage,
    now: props.now,
    tickMs: props.tickMs,
  });
  // The password is kept out of React state and the reducer: only its length is rendered, as stars.
  const secret = useRef('');
  const [masked, setMasked] = useState(0);

  useEffect(() => {
    dispatch({ type: 'page-size', size: listPage });
  }, [listPage, dispatch]);

  const typeSecret = (text: string) => {
    secret.current = text;
    setMasked([...text].length);
  };
  const passwordKeys = (input: string, key: Key) => {
    if (key.escape) {
      typeSecret('');
      return commands.cancelPassword();
    }
    const {
      line: { value },
      submitted,
    } = editLine(lineAtEnd(secret.current), input, key);
    typeSecret(submitted ? '' : value);
    if (submitted) commands.submitPassword(value);
  };
  const submitProject = (value: string) => {
    const project = value.trim();
    if (project === '' || project === latest().project) dispatch({ type: 'overlay-close' });
    else commands.switchProject(project);
  };

  const actionJob = (): Job | undefined => {
    const current = latest();
    return current.view === 'detail' ? detailJob(current) : selectedJob(current);
  };

  const ask = (action: 'sync' | 'toggle' | 'cancel') => {
    const job = actionJob();
    if (!job) return;
    const resolved: JobAction = action === 'toggle' ? (job.activate ? 'pause' : 'resume') : action;
    dispatch({ type: 'confirm', action: resolved, jobId: job.id, name: job.name });
  };

  const logsLimit = Math.max(1, panes - 1);
  const olderLogs = () => {
    const logs = latest().detail?.logs;
    if (logs?.page?.has_more_older && !logs.loading)
      commands.loadLogs(logs.task, { cursor: logs.page.older_cursor, limit: logsLimit, direction: 'older' });
  };
  const newerLogs = () => {
    const logs = latest().detail?.logs;
    if (logs?.page?.has_more_newer && !logs.loading)
      commands.loadLogs(logs.task, { cursor: logs.page.newer_cursor, limit: logsLimit, direction: 'newer' });
  };

  const detailKeys = (input: string, key: Key, detail: DetailState) => {
    if (key.escape) return dispatch({ type: 'detail-close' });
    if (key.tab) return dispatch({ type: 'pane-toggle' });
    if (input === '[') return olderLogs();
    if (input === ']') return newerLogs();
    if (detail.pane === 'logs') {
      if (key.pageUp) return olderLogs();
      if (key.pageDown) return newerLogs();
      return;
    }
    if (key.upArrow || input === 'k') return dispatch({ type: 'task-move', by: -1 });
    if (key.downArrow || input === 'j') return dispatch({ type: 'task-move', by: 1 });
    if (key.pageUp) return dispatch({ type: 'task-move', by: -panes });
    if (key.pageDown) return dispatch({ type: 'task-move', by: panes });
    if (key.return) {
      const task: Task | undefined = detail.tasks?.[detail.taskCursor];
      if (task) commands.loadLogs(task, { limit: logsLimit, direction: 'older' });
    }
  };

  const listKeys = (input: string, key: Key, current: JobsState) => {
    if (key.upArrow || input === 'k') return dispatch({ type: 'move', by: -1 });
    if (key.downArrow || input === 'j') return dispatch({ type: 'move', by: 1 });
    if (key.pageUp) return dispatch({ type: 'page', by: -1 });
    if (key.pageDown) return dispatch({ type: 'page', by: 1 });
    if (key.home || input === 'g') return dispatch({ type: 'move-to', where: 'top' });
    if (key.end || input === 'G') return dispatch({ type: 'move-to', where: 'bottom' });
    if (input === '/') return dispatch({ type: 'filter-open' });
    if (input === 's') return dispatch({ type: 'sort-cycle' });
    if (key.escape && current.filter !== '') return dispatch({ type: 'filter-clear' });
    if (key.return) commands.openDetail();
  };

  useInput((input, key) => {
    // Ctrl-C can also arrive inside a chunk of other keys (typing ahead, a paste, a slow terminal).
    if ((key.ctrl && input === 'c') || input.includes('\x03')) return props.onExit(130);
    const current = latest();
    if (current.session === 'password') return passwordKeys(input, key);
    if (current.session === 'relogin') return;
    const overlay = current.overlay;
    if (overlay.kind === 'filter') {
      if (key.escape) return dispatch({ type: 'filter-clear' });
      const {
        line: { value },
        submitted,
      } = editLine(lineAtEnd(current.filter), input, key);
      if (value !== current.filter) dispatch({ type: 'filter-change', text: value });
      if (submitted) dispatch({ type: 'filter-apply' });
      return;
    }
    if (overlay.kind === 'project') {
      if (key.escape) return dispatch({ type: 'overlay-close' });
      const {
        line: { value },
        submitted,
      } = editLine(lineAtEnd(overlay.draft), input, key);
      if (value !== overlay.draft) dispatch({ type: 'project-change', draft: value });
      if (submitted) submitProject(value);
      return;
    }
    if (overlay.kind === 'confirm') {
      if (input === 'y' || input === 'Y') commands.perform(overlay.action, overlay.jobId, overlay.name);
      else dispatch({ type: 'overlay-close' });
      return;
    }
    if (overlay.kind === 'help') {
      if (key.escape || input === '?' || input === 'q') dispatch({ type: 'help-toggle' });
      return;
    }
    if (input === 'q') return props.onExit(0);
    if (input === '?') return dispatch({ type: 'help-toggle' });
    if (input === 'R') return commands.load();
    if (input === 'P') return dispatch({ type: 'project-open' });
    if (current.session === 'expired' || current.phase !== 'ready') return;
    if (input === 'n') return ask('sync');
    if (input === 'p') return ask('toggle');
    if (input === 'c') return ask('cancel');
    if (current.view === 'detail' && current.detail) return detailKeys(input, key, current.detail);
    listKeys(input, key, current);
  });

  const title = (() => {
    const parts = [`floe jobs · project ${state.project}`];
    if (state.view === 'detail') {
      const job = detailJob(state);
      parts.push(job ? `${job.name} #${job.id}` : `#${state.detail?.jobId}`);
    } else if (state.phase === 'ready') {
      const total = state.data.jobs.length;
      parts.push(state.filter ? `${state.visible.length}/${total} jobs` : `${total} jobs`);
      parts.push(`sort ${SORT_NAMES[state.sort]}`);
    }
    return parts.join(' · ');
  })();
  const stamp = state.refreshing && state.phase === 'ready' ? 'refreshing…' : ageStamp(state.loadedAt, now);

  let body: ReactNode;
  let clipBody = true;
  let hints: Hints;
  if (state.session === 'relogin') {
    body = <Message tone="info" title="Session expired: signing in again…" lines={[]} />;
    hints = HINTS.relogin;
  } else if (state.session === 'password') {
    body = (
      <Box flexDirection="column" paddingTop={1} paddingLeft={2}>
        <Text bold>Your session has expired. Sign in again to carry on where you were.</Text>
        {state.passwordError && <Text color="red">✗ {state.passwordError}</Text>}
        <Box>
          <Text>Password: </Text>
          <Text>{'*'.repeat(masked)}</Text>
          <Text inverse> </Text>
        </Box>
      </Box>
    );
    hints = HINTS.password;
  } else if (state.overlay.kind === 'help') {
    body = <Help />;
    hints = HINTS.help;
  } else if (state.session === 'expired' || state.failure?.kind === 'unauthorized') {
    body = (
      <Message
        tone="error"
        title="Session expired"
        lines={['You are signed out of the OLake server.', '', 'R to sign in again · q to quit']}
      />
    );
    hints = HINTS.expired;
  } else if (state.phase === 'loading') {
    body = <Message tone="info" title={`Loading the jobs of project ${state.project}…`} lines={[]} />;
    hints = HINTS.loading;
  } else if (state.phase === 'error' && state.failure) {
    body = failureScreen(state.failure, state.project, state.refreshing);
    hints = HINTS.error;
  } else if (state.view === 'detail' && state.detail) {
    body = <Detail state={state} height={panes} now={now} />;
    hints = HINTS.detail;
  } else if (state.data.jobs.length === 0) {
    body = (
      <Message
        tone="info"
        title={`No jobs in project ${state.project} yet.`}
        lines={['Create one in the OLake UI, then press R. P switches to another project.']}
      />
    );
    hints = HINTS.empty;
  } else {
    body = <JobTable state={state} columns={columns} now={now} />;
    // The table is sized to the page already; not clipping it spares Ink cutting every line each frame
    // (half its frame time). Below 80 columns the footer may wrap onto a second line, so clip there.
    clipBody = columns < 80;
    hints = HINTS.list;
  }

  let status: ReactNode = null;
  const overlay = state.overlay;
  if (state.session === 'ok' && overlay.kind === 'filter') {
    status = (
      <Text wrap="truncate-start">
        <Text color="cyan">/</Text>
        {state.filter}
        <Text inverse> </Text>
      </Text>
    );
    hints = HINTS.filter;
  } else if (state.session === 'ok' && overlay.kind === 'project') {
    status = (
      <Text wrap="truncate-start">
        Project: {overlay.draft}
        <Text inverse> </Text>
      </Text>
    );
    hints = HINTS.project;
  } else if (state.session === 'ok' && overlay.kind === 'confirm') {
    status = (
      <Text color="yellow" bold wrap="truncate-end">
        ? {ACTION_QUESTIONS[overlay.action](shorten(overlay.name, columns - 45))} y/N
      </Text>
    );
    hints = HINTS.confirm;
  } else if (state.notice) {
    const { tone, text } = state.notice;
    status = (
      <Text color={NOTICE_COLOR[tone]}>
        {NOTICE_GLYPH[tone]}
        {text}
      </Text>
    );
  } else if (state.phase === 'ready' && state.failure) {
    status = (
      <Text color="red" wrap="truncate-end">
        ✗ Refresh failed: {state.failure.message} (R to retry)
      </Text>
    );
  } else if (state.filter) {
    status = (
      <Text dimColor wrap="truncate-end">
        filter: {state.filter} (Esc clears)
      </Text>
    );
  }

  return (
    <Box flexDirection="column" width={columns} height={Math.max(1, rows - 1)}>
      <Box>
        <Box flexGrow={1} flexShrink={1}>
          <Text bold wrap="truncate-end">
            {title}
          </Text>
        </Box>
        <Box flexShrink={0}>
          <Text dimColor> {stamp}</Text>
        </Box>
      </Box>
      <Box flexDirection="column" flexGrow={1} flexShrink={1} overflow={clipBody ? 'hidden' : 'visible'}>
        {body}
      </Box>
      {status && <Box flexShrink={0}>{status}</Box>}
      <Box flexShrink={0}>
        <KeyHints hints={hints} />
      </Box>
    </Box>
  );
}
