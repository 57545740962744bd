// The tables screen: the list (sortable, filterable), one table's detail, and its maintenance lines to
// copy. Thin: state in state.ts, loading in useTables, keys through useKeys, text through Text.
import { Box } from 'ink';
import { useEffect } from 'react';
import type { TableRow } from '../../tables/index.js';
import { ageText, bytesText, detailLines, tableName } from '../../tables/text.js';
import { isInterrupt } from '../../text/keys.js';
import { truncate, wrappedRows } from '../components/layout.js';
import { editLine, lineAtEnd } from '../components/line.js';
import { chromeRows, type Hint, Screen } from '../components/Screen.js';
import { Text } from '../components/Text.js';
import { Cursor } from '../components/TextInput.js';
import { type KeyHandler, useKeys } from '../components/useKeys.js';
import { useLatestReducer } from '../components/useLatestReducer.js';
import { useTerminalSize } from '../components/useTerminalSize.js';
import { initialTablesState, maintenanceLines, type TablesState, tablesReducer } from './state.js';
import { type TablesSource, useTables } from './useTables.js';

export interface TablesBrowserProps {
  source: TablesSource;
  /** Esc on the list (or q): the screen is left; Ctrl-C: `interrupted`. */
  onExit: (interrupted: boolean) => void;
}

const LIST_HINTS: Hint[] = [
  ['↑/↓', 'select'],
  ['Enter', 'detail'],
  ['/', 'filter'],
  ['s', 'sort'],
  ['R', 'reload'],
  ['Esc', 'back'],
];
const FILTER_HINTS: Hint[] = [
  ['Enter', 'keep filter'],
  ['Esc', 'clear'],
];
const DETAIL_HINTS: Hint[] = [
  ['↑/↓', 'scroll'],
  ['m', 'maintenance'],
  ['Esc', 'back'],
];
const MAINTENANCE_HINTS: Hint[] = [
  ['↑/↓', 'scroll'],
  ['Esc', 'back'],
];

function hintsFor(state: TablesState): Hint[] {
  if (state.view === 'maintenance') return MAINTENANCE_HINTS;
  if (state.view === 'detail') return DETAIL_HINTS;
  return state.filtering ? FILTER_HINTS : LIST_HINTS;
}

/** Rows of the body: the terminal less the chrome, the column header and one status line. */
const bodyRows = (rows: number, width: number, hints: Hint[]) =>
  Math.max(3, rows - chromeRows(hints, width) - 2);

const COMMIT = 12;
const RECORDS = 10;
const FILES = 7;
const AVG = 11;

/** TABLE's width: the longest name, at most what leaves the numbers and 14 columns of problems. */
const nameColumn = (longest: number, width: number) =>
  Math.max(12, Math.min(longest + 1, width - 2 - COMMIT - RECORDS - FILES - AVG - 14));

type Cells = [name: string, commit: string, records: string, files: string, avg: string, problems: string[]];

function columns(
  [name, commit, records, files, avg, problems]: Cells,
  nameWidth: number,
  width: number,
): string {
  const numbers = [
    truncate(name, nameWidth - 1).padEnd(nameWidth),
    commit.padEnd(COMMIT),
    records.padStart(RECORDS - 1),
    files.padStart(FILES - 1),
    avg.padStart(AVG - 1),
  ].join(' ');
  // The problems as many as fit, then how many more ("SMALL_FILES +2"), else how many.
  const room = width - 2 - numbers.length - 2;
  let shown = problems.join(',');
  for (let n = problems.length - 1; shown.length > room && n >= 1; n--)
    shown = `${problems.slice(0, n).join(',')} +${problems.length - n}`;
  if (shown.length > room && problems.length > 1) shown = `${problems.length} problems`;
  return truncate(`${numbers}  ${shown}`, width - 2);
}

const num = (n: number | null) => (n === null ? '?' : n.toLocaleString('en-US'));

function listLine(row: TableRow, nowMs: number, nameWidth: number, width: number): string {
  const codes = row.problems.map((p) => p.code.replace(/^TABLE_/, ''));
  return columns(
    [
      tableName(row),
      ageText(row.lastCommitMs, nowMs),
      num(row.records),
      num(row.dataFiles),
      bytesText(row.avgDataFileBytes),
      codes.length ? codes : ['-'],
    ],
    nameWidth,
    width,
  );
}

/** The lines of `text` from `scroll` that fit `budget` rows when wrapped at `width`. */
function fitLines(lines: string[], scroll: number, budget: number, width: number): string[] {
  const shown: string[] = [];
  let used = 0;
  for (const line of lines.slice(scroll)) {
    const rows = wrappedRows(line, width);
    if (used + rows > budget) break;
    shown.push(line);
    used += rows;
  }
  return shown;
}

export function TablesBrowser({ source, onExit }: TablesBrowserProps) {
  const size = useTerminalSize();
  const width = size.columns;
  const [state, dispatch, latest] = useLatestReducer(tablesReducer, () => initialTablesState());
  const hints = hintsFor(state);
  const budget = bodyRows(size.rows, width, hints);
  useEffect(() => dispatch({ type: 'page-size', size: budget }), [budget, dispatch]);
  useTables(source, state, dispatch);
  const nowMs = source.now();

  const detailText = (now: TablesState): string[] => {
    const detail = now.detail?.detail;
    if (!detail) return [];
    return now.view === 'maintenance' ? maintenanceLines(detail) : detailLines(detail, nowMs);
  };

  const onKey: KeyHandler = (press) => {
    const now = latest();
    if (isInterrupt(press)) {
      onExit(true);
      return 'leave';
    }
    if (now.view !== 'list') {
      const max = detailText(now).length - 1;
      if (press.name === 'escape') return dispatch({ type: 'back' });
      if (press.name === 'up') return dispatch({ type: 'scroll', by: -1, max });
      if (press.name === 'down') return dispatch({ type: 'scroll', by: 1, max });
      if (press.name === 'pageup') return dispatch({ type: 'scroll', by: -budget, max });
      if (press.name === 'pagedown') return dispatch({ type: 'scroll', by: budget, max });
      if (press.name === 'char' && press.text === 'm') return dispatch({ type: 'maintenance' });
      return;
    }
    if (now.filtering) {
      if (press.name === 'escape') return dispatch({ type: 'filter-clear' });
      const edit = editLine(lineAtEnd(now.filter), press);
      if (!edit) return;
      if (edit.line.value !== now.filter) dispatch({ type: 'filter-change', text: edit.line.value });
      if (edit.submitted) dispatch({ type: 'filter-apply' });
      return;
    }
    if (press.name === 'escape' || (press.name === 'char' && press.text === 'q')) {
      onExit(false);
      return 'leave';
    }
    if (press.name === 'up') return dispatch({ type: 'move', by: -1 });
    if (press.name === 'down') return dispatch({ type: 'move', by: 1 });
    if (press.name === 'pageup') return dispatch({ type: 'move', by: -now.pageSize });
    if (press.name === 'pagedown') return dispatch({ type: 'move', by: now.pageSize });
    if (press.name === 'return') return dispatch({ type: 'open' });
    if (press.name === 'char' && press.text === '/') return dispatch({ type: 'filter-open' });
    if (press.name === 'char' && press.text === 's') return dispatch({ type: 'sort-cycle' });
    if (press.name === 'char' && press.text === 'R') return dispatch({ type: 'reload' });
  };
  useKeys(onKey);

  if (state.view !== 'list' && state.detail) {
    const { detail } = state;
    const lines = detailText(state);
    const status = detail.failure
      ? `Could not read ${detail.name}: ${detail.failure}`
      : detail.detail
        ? `lines ${detail.scroll + 1}–${Math.min(lines.length, detail.scroll + budget)} of ${lines.length}`
        : `Reading ${detail.name}${detail.progress ? `: ${detail.progress}` : '…'}`;
    const shown =
      state.view === 'maintenance'
        ? fitLines(lines, detail.scroll, budget, width)
        : lines.slice(detail.scroll, detail.scroll + budget);
    return (
      <Screen
        title={`${source.title} › ${detail.name}`}
        subtitle={
          state.view === 'maintenance'
            ? 'Maintenance to paste (Spark, Trino, pyiceberg)'
            : 'Exact, from the manifests'
        }
        width={width}
        hints={hints}
      >
        <Text dimColor={!detail.failure} color={detail.failure ? 'red' : undefined}>
          {truncate(status, width)}
        </Text>
        {state.view === 'maintenance' ? (
          <Box flexDirection="column" width={width}>
            {shown.map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines of one text, in order
              <Text key={i} wrap="wrap">
                {line || ' '}
              </Text>
            ))}
          </Box>
        ) : (
          shown.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of one text, in order
            <Text key={i}>{truncate(line, width) || ' '}</Text>
          ))
        )}
      </Screen>
    );
  }

  const rows = state.visible.slice(state.top, state.top + state.pageSize);
  const nameWidth = nameColumn(Math.max(0, ...rows.map((i) => tableName(state.rows[i]!).length)), width);
  const status =
    state.phase === 'error'
      ? `Could not list the tables: ${state.failure}`
      : `${state.phase === 'loading' ? 'Reading… ' : ''}${state.visible.length} of ${state.rows.length} tables, by ${state.sort}${state.filter ? `, filter "${state.filter}"` : ''}${state.warnings.length ? ` (${state.warnings.length} namespaces unreadable)` : ''}`;
  return (
    <Screen title={source.title} subtitle={source.subtitle} width={width} hints={hints}>
      <Text dimColor>
        {columns(['TABLE', 'LAST COMMIT', 'RECORDS', 'FILES', 'AVG FILE', ['PROBLEMS']], nameWidth, width)}
      </Text>
      {rows.map((index, i) => {
        const row = state.rows[index]!;
        const selected = state.top + i === state.cursor;
        return (
          <Text key={tableName(row)} inverse={selected} color={row.problems.length ? 'yellow' : undefined}>
            {`${selected ? '›' : ' '} ${listLine(row, nowMs, nameWidth, width)}`}
          </Text>
        );
      })}
      {state.filtering ? (
        <Text>
          {'Filter: '}
          {state.filter}
          <Cursor />
        </Text>
      ) : (
        <Text color={state.phase === 'error' ? 'red' : undefined} dimColor={state.phase !== 'error'}>
          {truncate(status, width)}
        </Text>
      )}
    </Screen>
  );
}
