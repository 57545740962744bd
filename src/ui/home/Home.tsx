import { existsSync } from 'node:fs';
import { Box, useApp } from 'ink';
import { useEffect, useReducer, useRef, useState } from 'react';
import type { Context } from '../../app/context.js';
import { KeychainUnavailableError } from '../../secrets/store.js';
import { charOf, isInterrupt } from '../../text/keys.js';
import { sanitize } from '../../text/sanitize.js';
import { listWindow, truncate, wrappedRows } from '../components/layout.js';
import { editLine, type Line, lineAtEnd } from '../components/line.js';
import { Paragraph } from '../components/Paragraph.js';
import { chromeRows, type Hint, Screen } from '../components/Screen.js';
import { Text } from '../components/Text.js';
import { TextInput } from '../components/TextInput.js';
import { useKeys } from '../components/useKeys.js';
import { useLatestReducer } from '../components/useLatestReducer.js';
import { useTerminalSize } from '../components/useTerminalSize.js';
import {
  defaultExportFile,
  deleteProfile,
  type HomeAction,
  type HomeMessage,
  type HomeState,
  homeReducer,
  initialHome,
  managementLine,
  profileRows,
  submitPrompt,
} from './model.js';

export interface HomeProps {
  ctx: Context;
  /** How this floe is run from the user's shell (cli/invocation.ts's floeCommand of the command's env). */
  floe: string;
  /** Called once with what the user chose; the screen then exits. */
  onAction(action: HomeAction): void;
  /** The profile to highlight first: the one the previous action was about. */
  selected?: string;
  /** Shown first: why the previous command failed. */
  message?: HomeMessage;
  /** The demo's sandbox facts (addresses, credentials, its log), read each time they are drawn: s shows them. */
  facts?: () => string;
}

const LIST_HINTS: Hint[] = [
  ['↑/↓', 'select'],
  ['Enter/e', 'edit'],
  ['t', 'test'],
  ['x', 'export'],
  ['n', 'new'],
  ['d', 'delete'],
  ['b', 'tables'],
  ['j', 'jobs'],
  ['l', 'sign in'],
  ['q', 'quit'],
];
const EMPTY_HINTS: Hint[] = [
  ['n', 'new profile'],
  ['j', 'jobs'],
  ['l', 'sign in'],
  ['q', 'quit'],
];

const FACTS_HINTS: Hint[] = [
  ['↑↓ PgUp/Dn', 'scroll'],
  ['End', 'newest log lines'],
  ['any other key', 'back'],
];

/** How many lines of the sandbox facts fit under the title, above the hints and the position line. */
function factsRows(rows: number, width: number): number {
  return Math.max(rows - 1 - chromeRows(FACTS_HINTS, width) - 1, 3);
}

function hintsFor(state: HomeState, sandbox = false): Hint[] {
  if (state.mode.kind === 'prompt')
    return [
      ['Enter', state.mode.purpose === 'new' ? 'create' : 'write'],
      ['Esc', 'cancel'],
    ];
  if (state.mode.kind === 'confirm')
    return [
      ['y', 'delete'],
      ['any other key', 'keep'],
    ];
  if (state.mode.kind === 'replace')
    return [
      ['y', 'replace'],
      ['any other key', 'choose another file'],
    ];
  const hints = state.rows.length === 0 ? EMPTY_HINTS : LIST_HINTS;
  return sandbox ? [...hints.slice(0, -1), ['s', 'sandbox'], ...hints.slice(-1)] : hints;
}

function promptLabel(state: HomeState): string {
  const { mode } = state;
  if (mode.kind !== 'prompt') return '';
  return mode.purpose === 'new'
    ? 'New profile name:'
    : `Write "${mode.profile}" as destination.json (with its secrets, mode 0600) to:`;
}

/** What an edit turning `before` into `after` typed ('' when it deleted). */
function inserted(before: string, after: string): string {
  if (after.length <= before.length) return '';
  let at = 0;
  while (at < before.length && before[at] === after[at]) at++;
  return after.slice(at, at + after.length - before.length);
}

/** Lines under the list: the question or error of the current mode, else where the selected profile's secrets live. */
function statusLines(state: HomeState): { text: string; color?: string }[] {
  const lines: { text: string; color?: string }[] = [];
  const { mode } = state;
  if (mode.kind === 'confirm')
    lines.push({ text: `Delete profile "${mode.name}" and its stored secrets? (y/N)`, color: 'yellow' });
  else if (mode.kind === 'replace')
    lines.push({ text: `${sanitize(mode.output)} exists. Replace it? (y/N)`, color: 'yellow' });
  else if (mode.kind === 'prompt' && mode.error) lines.push({ text: `✗ ${mode.error}`, color: 'red' });
  else if (mode.kind === 'list' && state.rows[state.selected]) {
    const row = state.rows[state.selected]!;
    lines.push({ text: `"${row.name}": ${row.authLabel}; secrets ${row.secretsDetail}` });
  }
  if (state.message)
    lines.push({
      text: `${state.message.ok ? '✓' : '✗'} ${sanitize(state.message.text)}`,
      color: state.message.ok ? 'green' : 'red',
    });
  return lines;
}

export function Home({ ctx, floe, onAction, selected, message, facts }: HomeProps) {
  const [state, dispatch, latest] = useLatestReducer(homeReducer, () =>
    initialHome(profileRows(ctx), selected, message),
  );
  const { exit } = useApp();
  const size = useTerminalSize();
  const width = Math.min(size.columns, 100);
  // Once an action is chosen the screen renders nothing, so the command that runs next starts on a
  // clean terminal, then exits.
  const [chosen, finish] = useState<HomeAction>();
  useEffect(() => {
    if (!chosen) return;
    onAction(chosen);
    exit();
  }, [chosen, onAction, exit]);
  const remove = (name: string) => {
    deleteProfile(ctx, name).then(
      () => dispatch({ type: 'deleted', name, rows: profileRows(ctx) }),
      (error: unknown) =>
        dispatch({
          type: 'deleteFailed',
          name,
          reason:
            error instanceof KeychainUnavailableError
              ? `its secrets cannot be removed: ${error.reason}`
              : error instanceof Error
                ? error.message
                : String(error),
        }),
    );
  };

  // The prompt's cursor; its value lives in the state.
  const caret = useRef<Line>(lineAtEnd(''));
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const promptLine = (value: string) => (caret.current.value === value ? caret.current : lineAtEnd(value));
  const choose = (action: HomeAction) => {
    finish(action);
    return 'leave';
  };

  // Each key acts on the state the keys before it left; the keys after the one that picks an action
  // go to the screen that action opens.
  useKeys((key) => {
    if (isInterrupt(key)) return choose({ type: 'interrupt' });
    const now = latest();
    const { mode } = now;
    const input = charOf(key);
    if (mode.kind === 'prompt') {
      if (key.name === 'escape') return dispatch({ type: 'back' });
      if (key.name === 'return') {
        const outcome = submitPrompt(mode, now.rows);
        if ('error' in outcome) return dispatch({ type: 'promptError', error: outcome.error });
        if (outcome.type === 'export' && existsSync(outcome.output))
          return dispatch({ type: 'askReplace', name: outcome.name, output: outcome.output });
        return choose(outcome);
      }
      const line = promptLine(mode.value);
      const edit = editLine(line, key);
      if (!edit) return;
      if (edit.line.value === line.value) {
        caret.current = edit.line;
        return redraw();
      }
      // The first key that edits floe's suggestion replaces it: typed text stands alone, a deletion empties it.
      const value = mode.suggested ? inserted(line.value, edit.line.value) : edit.line.value;
      caret.current = mode.suggested ? lineAtEnd(value) : edit.line;
      return dispatch({ type: 'input', value });
    }
    if (mode.kind === 'facts') {
      const rows = factsRows(size.rows, width);
      const max = Math.max((facts?.() ?? '').split('\n').length - rows, 0);
      if (key.name === 'up') return dispatch({ type: 'scrollFacts', by: -1, max });
      if (key.name === 'down') return dispatch({ type: 'scrollFacts', by: 1, max });
      if (key.name === 'pageup') return dispatch({ type: 'scrollFacts', by: -rows, max });
      if (key.name === 'pagedown') return dispatch({ type: 'scrollFacts', by: rows, max });
      if (key.name === 'end') return dispatch({ type: 'scrollFacts', by: max, max });
      if (input === 'q' && !facts) return choose({ type: 'quit' });
      return dispatch({ type: 'back' });
    }
    if (mode.kind === 'replace') {
      if (input === 'y' || input === 'Y')
        return choose({ type: 'export', name: mode.name, output: mode.output, replace: true });
      return dispatch({ type: 'startExport', file: mode.output });
    }
    if (mode.kind === 'confirm') {
      if (input === 'y' || input === 'Y') remove(mode.name);
      else dispatch({ type: 'back' });
      return;
    }
    const row = now.rows[now.selected];
    if (key.name === 'up') dispatch({ type: 'move', delta: -1 });
    else if (key.name === 'down') dispatch({ type: 'move', delta: 1 });
    else if (input === 'q') return choose({ type: 'quit' });
    else if (facts && input === 's') dispatch({ type: 'showFacts' });
    else if (input === 'n') dispatch({ type: 'startNew' });
    else if (input === 'j') return choose({ type: 'jobs' });
    else if (input === 'l') return choose({ type: 'login' });
    else if (row && (key.name === 'return' || input === 'e')) return choose({ type: 'edit', name: row.name });
    else if (row && input === 't') return choose({ type: 'test', name: row.name });
    else if (row && input === 'b') return choose({ type: 'tables', name: row.name });
    else if (row && input === 'x')
      dispatch({ type: 'startExport', file: defaultExportFile(row.name, process.cwd(), ctx.config.dir) });
    else if (row && input === 'd') dispatch({ type: 'askDelete' });
  });

  if (chosen) return null;
  if (state.mode.kind === 'facts' && facts) {
    const lines = facts().split('\n');
    const rows = factsRows(size.rows, width);
    const first = state.mode.scroll;
    const shown = lines.slice(first, first + rows).map((line, i) => ({ line, row: first + i }));
    return (
      <Screen
        title="floe · the sandbox"
        subtitle="Its addresses and credentials"
        width={width}
        hints={FACTS_HINTS}
      >
        {shown.map(({ line, row }) => (
          <Text key={row}>{truncate(line, width) || ' '}</Text>
        ))}
        {lines.length > rows && (
          <Text dimColor>{`  lines ${first + 1}–${first + shown.length} of ${lines.length}`}</Text>
        )}
      </Screen>
    );
  }
  const hints = hintsFor(state, facts !== undefined);
  const status = statusLines(state);
  const management = managementLine(ctx);
  const below =
    1 +
    status.reduce((sum, line) => sum + wrappedRows(line.text, width), 0) +
    wrappedRows(management, width) +
    (state.mode.kind === 'prompt' ? 2 + wrappedRows(promptLabel(state), width) : 0);
  const count = state.rows.length;
  return (
    <Screen
      title="floe · OLake Iceberg REST destinations"
      position={`${count} profile${count === 1 ? '' : 's'}`}
      subtitle="Profiles"
      width={width}
      hints={hints}
    >
      {count === 0 ? (
        <Box flexDirection="column" width={width}>
          <Text>
            No profiles yet. A profile is one OLake destination: the Iceberg REST catalog, how to sign in to
            it, and the object store the data goes to.
          </Text>
          <Text>Press n to create one with the setup wizard.</Text>
          <Text>{`To try floe on a local catalog first: ${floe} sandbox --open`}</Text>
        </Box>
      ) : (
        <ProfileTable state={state} width={width} height={size.rows - 1 - chromeRows(hints, width) - below} />
      )}
      {state.mode.kind === 'prompt' && (
        <Box marginTop={1} flexDirection="column" width={width}>
          <Text bold>{promptLabel(state)}</Text>
          <Box>
            <Text>› </Text>
            <TextInput
              line={promptLine(state.mode.value)}
              placeholder={state.mode.purpose === 'new' ? 'e.g. prod-lake' : ''}
              width={width - 2}
            />
          </Box>
        </Box>
      )}
      <Box marginTop={1} flexDirection="column" width={width}>
        {status.map((line) => (
          <Paragraph key={line.text} color={line.color} text={line.text} width={width} />
        ))}
        <Paragraph dimColor text={management} width={width} />
      </Box>
    </Screen>
  );
}

function ProfileTable({ state, width, height }: { state: HomeState; width: number; height: number }) {
  const nameWidth = Math.min(Math.max(4, ...state.rows.map((r) => r.name.length)), 20);
  const authWidth = 6;
  const secretsWidth = 8;
  const urlWidth = Math.max(width - 2 - nameWidth - authWidth - secretsWidth - 6, 10);
  const line = (name: string, auth: string, url: string, secrets: string) =>
    `${truncate(name, nameWidth).padEnd(nameWidth)}  ${auth.padEnd(authWidth)}  ${truncate(url, urlWidth).padEnd(urlWidth)}  ${secrets}`;
  const view = listWindow(
    state.rows.map(() => 1),
    state.selected,
    Math.max(height - 1, 3),
  );
  return (
    <Box flexDirection="column" width={width}>
      <Text dimColor>{`  ${line('NAME', 'AUTH', 'CATALOG URL', 'SECRETS')}`}</Text>
      {view.hiddenAbove > 0 && <Text dimColor>{`  ↑ ${view.hiddenAbove} more`}</Text>}
      {state.rows.slice(view.start, view.end).map((row, offset) => {
        const selected = view.start + offset === state.selected;
        return (
          <Text key={row.name} bold={selected} color={selected ? 'cyan' : undefined}>
            {selected ? '› ' : '  '}
            {line(row.name, row.authType, row.catalogUrl, row.secrets)}
          </Text>
        );
      })}
      {view.hiddenBelow > 0 && <Text dimColor>{`  ↓ ${view.hiddenBelow} more`}</Text>}
    </Box>
  );
}
