// The jobs browser's key bindings, one table per screen: each binding's keys, what it does, its entry in
// the footer and its line in the help. The key handler (useJobsKeys.ts), the footers and the help screen
// (screens.tsx) are all made from these tables, so a key cannot work without being listed, or the other way.
import type { Key } from 'ink';
import type { Action, DetailState, JobsState } from './state.js';
import type { useJobsBrowser } from './useJobsBrowser.js';
import type { useRunLogs } from './useRunLogs.js';

/** Ink's named keys a binding may name; any other name is the one character typed (`k`, `/`, `?`). */
const NAMED = [
  'upArrow',
  'downArrow',
  'pageUp',
  'pageDown',
  'home',
  'end',
  'return',
  'escape',
  'tab',
] as const;
type Named = (typeof NAMED)[number];
export type KeyName = Named | (string & {});

/** What a binding acts with: the latest state and what the browser does. */
export interface KeyContext {
  state: JobsState;
  dispatch: (action: Action) => void;
  commands: ReturnType<typeof useJobsBrowser>['commands'];
  runLogs: ReturnType<typeof useRunLogs>;
  onTest: () => void;
  onTables: () => void;
  /** The job's detail, on the detail screens. */
  detail: DetailState | undefined;
  /** Rows of the detail panes. */
  panes: number;
  logsLimit: number;
  /** n, p, c: asks before acting on the job (c says so when nothing runs). */
  ask: (action: 'sync' | 'toggle' | 'cancel') => void;
  olderLogs: () => void;
  newerLogs: () => void;
  /** Exits the browser; the keys after this one go to what comes next. */
  leave: (code: number) => 'leave';
}

export type HelpGroup = 'jobs' | 'detail' | 'actions' | 'general';
const GROUPS: HelpGroup[] = ['jobs', 'detail', 'actions', 'general'];

export interface Binding {
  keys: readonly KeyName[];
  /** Returns 'leave' when the keys after it are no longer this screen's (useKeys). */
  run: (c: KeyContext) => unknown;
  /** Its footer entry; adjacent entries of the same text share one (`n/p actions`). */
  hint?: { key: string; text: string; whileRunning?: boolean };
  /** Its help line, listed under its group; bindings sharing another's line have none. */
  help?: { keys: string; text: string; group: HelpGroup };
  /** Works while the jobs load, failed to load or the session expired too. */
  always?: boolean;
}

export type Hints = [key: string, action: string][];

export function matches(binding: Binding, input: string, key: Key): boolean {
  return binding.keys.some((name) => (NAMED.includes(name as Named) ? key[name as Named] : input === name));
}

// Keys every browsing screen has; each screen lists them in its footer's order, some without a hint.
const sync: Binding = {
  keys: ['n'],
  run: (c) => c.ask('sync'),
  hint: { key: 'n', text: 'actions' },
  help: { keys: 'n', text: 'sync now (in the detail: selects and follows the new run)', group: 'actions' },
};
const toggle: Binding = {
  keys: ['p'],
  run: (c) => c.ask('toggle'),
  hint: { key: 'p', text: 'actions' },
  help: { keys: 'p', text: 'pause / resume', group: 'actions' },
};
const cancel: Binding = {
  keys: ['c'],
  run: (c) => c.ask('cancel'),
  hint: { key: 'c', text: 'actions', whileRunning: true },
  help: { keys: 'c', text: 'cancel the running sync (offered while one runs)', group: 'actions' },
};
const test: Binding = {
  keys: ['t'],
  run: (c) => c.onTest(),
  hint: { key: 't', text: 'test' },
  help: {
    keys: 't',
    text: 'detail: test the job’s destination with floe’s connection test',
    group: 'actions',
  },
};
const tables: Binding = {
  keys: ['b'],
  run: (c) => c.onTables(),
  hint: { key: 'b', text: 'tables' },
  help: {
    keys: 'b',
    text: 'detail: the tables of the job’s streams (last commit, size, problems)',
    group: 'actions',
  },
};
const refresh: Binding = {
  keys: ['R'],
  run: (c) => c.commands.load(),
  hint: { key: 'R', text: 'refresh' },
  help: { keys: 'R', text: 'refresh now', group: 'general' },
  always: true,
};
const project: Binding = {
  keys: ['P'],
  run: (c) => c.dispatch({ type: 'project-open' }),
  help: { keys: 'P', text: 'switch project', group: 'general' },
  always: true,
};
const help: Binding = {
  keys: ['?'],
  run: (c) => c.dispatch({ type: 'help-toggle' }),
  hint: { key: '?', text: 'help' },
  help: { keys: '?', text: 'this help', group: 'general' },
  always: true,
};
const quit: Binding = {
  keys: ['q'],
  run: (c) => c.leave(0),
  hint: { key: 'q', text: 'quit' },
  help: { keys: 'q  Ctrl-C', text: 'quit', group: 'general' },
  always: true,
};
const paneToggle: Binding = {
  keys: ['tab'],
  run: (c) => c.dispatch({ type: 'pane-toggle' }),
  hint: { key: 'Tab', text: 'runs/logs' },
  help: { keys: 'Tab', text: 'Runs ⇄ Logs in the detail', group: 'detail' },
};
const quiet = (binding: Binding): Binding => ({ ...binding, hint: undefined });
/** The shared keys of the detail screens, their hints dropped where the footer has no room. */
const detailActions = (hinted: boolean) =>
  hinted ? [sync, toggle, cancel, test, tables] : [sync, toggle, cancel, test, tables].map(quiet);

/** The jobs list. */
const LIST: Binding[] = [
  {
    keys: ['upArrow', 'k'],
    run: (c) => c.dispatch({ type: 'move', by: -1 }),
    hint: { key: '↑↓', text: 'move' },
    help: { keys: '↑/↓  j/k', text: 'move', group: 'jobs' },
  },
  {
    keys: ['downArrow', 'j'],
    run: (c) => c.dispatch({ type: 'move', by: 1 }),
    hint: { key: '↑↓', text: 'move' },
  },
  {
    keys: ['pageUp'],
    run: (c) => c.dispatch({ type: 'page', by: -1 }),
    help: { keys: 'PgUp/PgDn', text: 'page', group: 'jobs' },
  },
  { keys: ['pageDown'], run: (c) => c.dispatch({ type: 'page', by: 1 }) },
  {
    keys: ['home', 'g'],
    run: (c) => c.dispatch({ type: 'move-to', where: 'top' }),
    help: { keys: 'Home/End  g/G', text: 'first / last job', group: 'jobs' },
  },
  { keys: ['end', 'G'], run: (c) => c.dispatch({ type: 'move-to', where: 'bottom' }) },
  {
    keys: ['/'],
    run: (c) => c.dispatch({ type: 'filter-open' }),
    hint: { key: '/', text: 'filter' },
    help: {
      keys: '/',
      text: 'filter by name, source, destination or last run; says which matched (Enter applies, Esc clears)',
      group: 'jobs',
    },
  },
  {
    keys: ['s'],
    run: (c) => c.dispatch({ type: 'sort-cycle' }),
    hint: { key: 's', text: 'sort' },
    help: { keys: 's', text: 'sort: name → last run → state', group: 'jobs' },
  },
  {
    keys: ['return'],
    run: (c) => c.commands.openDetail(),
    hint: { key: 'Enter', text: 'open' },
    help: { keys: 'Enter', text: 'open the job (in Runs: read the run’s logs)', group: 'jobs' },
  },
  {
    keys: ['escape'],
    run: (c) => {
      if (c.state.filter !== '') c.dispatch({ type: 'filter-clear' });
    },
    help: { keys: 'Esc', text: 'back / clear the filter', group: 'jobs' },
  },
  sync,
  toggle,
  cancel,
  refresh,
  project,
  help,
  quit,
];

const detailClose: Binding = {
  keys: ['escape'],
  run: (c) => c.dispatch({ type: 'detail-close' }),
  hint: { key: 'Esc', text: 'back' },
};

/** A job's detail, the runs pane. */
const DETAIL: Binding[] = [
  detailClose,
  paneToggle,
  {
    keys: ['['],
    run: (c) => c.olderLogs(),
    help: { keys: '[ / ]  PgUp/PgDn', text: 'older / newer logs (Logs pane)', group: 'detail' },
  },
  { keys: [']'], run: (c) => c.newerLogs() },
  { keys: ['upArrow', 'k'], run: (c) => c.dispatch({ type: 'task-move', by: -1 }) },
  { keys: ['downArrow', 'j'], run: (c) => c.dispatch({ type: 'task-move', by: 1 }) },
  { keys: ['pageUp'], run: (c) => c.dispatch({ type: 'task-move', by: -c.panes }) },
  { keys: ['pageDown'], run: (c) => c.dispatch({ type: 'task-move', by: c.panes }) },
  {
    keys: ['return'],
    run: (c) => {
      const task = c.detail?.tasks?.[c.detail.taskCursor];
      if (!task) return;
      c.commands.loadLogs(task, { limit: c.logsLimit, direction: 'older' });
      c.runLogs.diagnose(task);
    },
    hint: { key: 'Enter', text: 'logs' },
  },
  {
    keys: ['f'],
    run: (c) => {
      const task = c.detail?.tasks?.[c.detail.taskCursor];
      if (task) c.runLogs.followRun(task);
    },
    help: { keys: 'f', text: 'Runs: follow the selected run', group: 'detail' },
  },
  ...detailActions(true),
  quiet(refresh),
  project,
  help,
  quiet(quit),
];

/** A job's detail, the logs pane. */
const LOGS: Binding[] = [
  {
    keys: ['escape'],
    run: (c) => c.dispatch({ type: c.detail?.logs?.view?.search ? 'log-search-close' : 'detail-close' }),
    hint: { key: 'Esc', text: 'back' },
  },
  quiet(paneToggle),
  {
    keys: ['upArrow', 'k'],
    run: (c) => c.dispatch({ type: 'log-line-move', by: -1 }),
    hint: { key: '↑↓', text: 'line' },
    help: { keys: '↑↓  Enter', text: 'Logs: choose a line, open it whole (scrollable)', group: 'detail' },
  },
  {
    keys: ['downArrow', 'j'],
    run: (c) => c.dispatch({ type: 'log-line-move', by: 1 }),
    hint: { key: '↑↓', text: 'line' },
  },
  {
    keys: ['return'],
    run: (c) => c.dispatch({ type: 'log-whole-open' }),
    hint: { key: 'Enter', text: 'whole' },
  },
  {
    keys: ['w'],
    run: (c) => c.dispatch({ type: 'log-wrap-toggle' }),
    hint: { key: 'w', text: 'wrap' },
    help: { keys: 'w  /  f', text: 'Logs: wrap on/off, search, follow a running run', group: 'detail' },
  },
  { keys: ['/'], run: (c) => c.dispatch({ type: 'log-search-open' }), hint: { key: '/', text: 'search' } },
  { keys: ['f'], run: (c) => c.runLogs.toggleFollow(), hint: { key: 'f', text: 'follow' } },
  { keys: ['[', 'pageUp'], run: (c) => c.olderLogs(), hint: { key: '[/]', text: 'page' } },
  { keys: [']', 'pageDown'], run: (c) => c.newerLogs(), hint: { key: '[/]', text: 'page' } },
  ...detailActions(false),
  quiet(refresh),
  project,
  help,
  quiet(quit),
];

/** A log line opened whole. */
const WHOLE: Binding[] = [
  {
    keys: ['upArrow', 'k'],
    run: (c) => c.dispatch({ type: 'log-whole-scroll', by: -1 }),
    hint: { key: '↑↓', text: 'scroll' },
  },
  {
    keys: ['downArrow', 'j'],
    run: (c) => c.dispatch({ type: 'log-whole-scroll', by: 1 }),
    hint: { key: '↑↓', text: 'scroll' },
  },
  { keys: ['pageUp'], run: (c) => c.dispatch({ type: 'log-whole-scroll', by: -c.panes }) },
  { keys: ['pageDown'], run: (c) => c.dispatch({ type: 'log-whole-scroll', by: c.panes }) },
  {
    keys: ['escape', 'return'],
    run: (c) => c.dispatch({ type: 'log-whole-close' }),
    hint: { key: 'Esc', text: 'back to the log' },
  },
  ...detailActions(false),
  quiet(refresh),
  project,
  quiet(help),
  quiet(quit),
];

/** The help screen. */
const HELP_SCREEN: Binding[] = [
  {
    keys: ['escape', '?', 'q'],
    run: (c) => c.dispatch({ type: 'help-toggle' }),
    hint: { key: 'Esc/?', text: 'close help' },
    always: true,
  },
];

export const KEYMAP = { list: LIST, detail: DETAIL, logs: LOGS, whole: WHOLE, help: HELP_SCREEN } as const;
export type KeyScreen = keyof typeof KEYMAP;

/** The screen whose keys apply in `state` (an open text field or question is read before these). */
export function keyScreen(state: JobsState): KeyScreen {
  if (state.overlay.kind === 'help') return 'help';
  const detail = state.view === 'detail' ? state.detail : undefined;
  if (!detail) return 'list';
  if (detail.pane !== 'logs') return 'detail';
  return detail.logs?.view?.whole ? 'whole' : 'logs';
}

/** A screen's footer: its bindings' hints in order, adjacent ones of the same text as one (`n/p`). */
function footer(table: Binding[], running: boolean): Hints {
  const hints: Hints = [];
  for (const { hint } of table) {
    if (!hint || (hint.whileRunning && !running)) continue;
    const last = hints.at(-1);
    if (last?.[1] !== hint.text) hints.push([hint.key, hint.text]);
    else if (last[0] !== hint.key) last[0] = `${last[0]}/${hint.key}`;
  }
  return hints;
}

const FOOTERS = Object.fromEntries(
  Object.entries(KEYMAP).map(([screen, table]) => [
    screen,
    { idle: footer(table, false), running: footer(table, true) },
  ]),
) as Record<KeyScreen, { idle: Hints; running: Hints }>;

/** The footer of `screen` (made once: the memoised footer re-renders only when the screen's keys change). */
export function footerOf(screen: KeyScreen, running: boolean): Hints {
  return FOOTERS[screen][running ? 'running' : 'idle'];
}

/** The help screen's lines: every binding's help line once, by group, in the tables' order. */
export const HELP_LINES: Hints = (() => {
  const seen = new Set<string>();
  const lines: { group: HelpGroup; keys: string; text: string }[] = [];
  for (const table of Object.values(KEYMAP))
    for (const { help: line } of table)
      if (line && !seen.has(line.keys)) {
        seen.add(line.keys);
        lines.push(line);
      }
  return GROUPS.flatMap((group) =>
    lines.filter((l) => l.group === group).map((l): [string, string] => [l.keys, l.text]),
  );
})();
