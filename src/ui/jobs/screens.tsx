// The jobs browser's fixed texts and whole-screen messages: the footers of the text fields and message
// screens (the browsing screens' are made from keymap.ts), the help, error screens and the action questions.
import { Box } from 'ink';
import type { ReactNode } from 'react';
import { serverText } from '../../management/text.js';
import { Paragraph } from '../components/Paragraph.js';
import { Text } from '../components/Text.js';
import { Cursor } from '../components/TextInput.js';
import { useTerminalSize } from '../components/useTerminalSize.js';
import { HELP_LINES, type Hints } from './keymap.js';
import type { Failure, JobAction, JobsState } from './state.js';

export const NOTICE_COLOR = { ok: 'green', warn: 'yellow', error: 'red', busy: undefined } as const;
export const NOTICE_GLYPH = { ok: '✓ ', warn: '! ', error: '✗ ', busy: '… ' } as const;

/** Footers as constants, so the memoised footer only re-renders when the screen's keys change. */
export const HINTS = {
  relogin: [['Ctrl-C', 'quit']],
  password: [
    ['Enter', 'sign in'],
    ['Esc', 'cancel'],
  ],
  secret: [
    ['Enter', 'run the test'],
    ['Esc', 'cancel'],
  ],
  secretNext: [
    ['Enter', 'next secret'],
    ['Esc', 'cancel'],
  ],
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
  search: [
    ['Enter', 'next match'],
    ['Esc', 'clear'],
  ],
  empty: [
    ['R', 'refresh'],
    ['P', 'project'],
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

/** What the jobs table's Last run glyphs mean, below the keys. */
const LEGEND: Hints = [['Last run', '✓ completed  ✗ failed  ● running  ⊘ canceled  – never']];

export function Help() {
  return (
    <Box flexDirection="column">
      <Text bold>Keys</Text>
      {[...HELP_LINES, ...LEGEND].map(([key, action]) => (
        <Text key={key} wrap="truncate-end">
          <Text bold>{key.padEnd(18)}</Text>
          {action}
        </Text>
      ))}
    </Box>
  );
}

export function Message({ title, lines, tone }: { title: string; lines: string[]; tone: 'error' | 'info' }) {
  // Two columns of padding on the left, one kept free on the right.
  const width = useTerminalSize().columns - 3;
  return (
    <Box flexDirection="column" paddingTop={1} paddingLeft={2}>
      <Paragraph
        bold
        color={tone === 'error' ? 'red' : undefined}
        text={`${tone === 'error' ? '✗ ' : ''}${title}`}
        width={width}
      />
      {lines.map((line) =>
        line === '' ? (
          <Text key={line}> </Text>
        ) : (
          <Paragraph key={line} text={serverText(line)} width={width} />
        ),
      )}
    </Box>
  );
}

export function failureScreen(failure: Failure, project: string, retrying: boolean) {
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
export function shorten(name: string, max: number): string {
  const limit = Math.max(12, max);
  const chars = [...name];
  return chars.length <= limit ? name : `${chars.slice(0, limit - 1).join('')}…`;
}

export const ACTION_QUESTIONS: Record<JobAction, (name: string) => string> = {
  sync: (name) => `Start a sync of “${name}” now?`,
  pause: (name) => `Pause “${name}”? Its schedule stops until resumed.`,
  resume: (name) => `Resume “${name}”?`,
  cancel: (name) => `Cancel the running sync of “${name}”?`,
};

/** Where the filter matched: "source 3, name 1" (fields by how many visible jobs matched there). */
export function matchedText(matched: JobsState['matched']): string {
  if (!matched || matched.length === 0) return 'no match';
  return [...matched]
    .sort((a, b) => b.jobs - a.jobs)
    .map((m) => `${m.field} ${m.jobs}`)
    .join(', ');
}

/** The line above the footer: the text being typed, a question, a notice or the filter; and its keys. */
export function statusLine(
  state: JobsState,
  columns: number,
): { node: ReactNode; hints?: Hints } | undefined {
  const overlay = state.overlay;
  if (state.session === 'ok' && overlay.kind === 'filter')
    return {
      node: (
        <Text wrap="truncate-start">
          <Text color="cyan">/</Text>
          {state.filter}
          <Cursor />
        </Text>
      ),
      hints: HINTS.filter,
    };
  const view = state.detail?.pane === 'logs' ? state.detail.logs?.view : undefined;
  if (state.session === 'ok' && view?.searching)
    return {
      node: (
        <Text wrap="truncate-start">
          <Text color="cyan">search /</Text>
          {view.search}
          <Cursor />
        </Text>
      ),
      hints: HINTS.search,
    };
  if (state.session === 'ok' && overlay.kind === 'project')
    return {
      node: (
        <Text wrap="truncate-start">
          Project: {overlay.draft}
          <Cursor />
        </Text>
      ),
      hints: HINTS.project,
    };
  if (state.session === 'ok' && overlay.kind === 'confirm')
    return {
      node: (
        <Text color="yellow" bold wrap="truncate-end">
          ? {ACTION_QUESTIONS[overlay.action](shorten(serverText(overlay.name), columns - 45))} y/N
        </Text>
      ),
      hints: HINTS.confirm,
    };
  if (state.notice) {
    const { tone, text } = state.notice;
    return {
      node: (
        <Text color={NOTICE_COLOR[tone]}>
          {NOTICE_GLYPH[tone]}
          {serverText(text)}
        </Text>
      ),
    };
  }
  if (state.phase === 'ready' && state.failure)
    return {
      node: (
        <Text color="red" wrap="truncate-end">
          ✗ Refresh failed: {serverText(state.failure.message)} (R to retry)
        </Text>
      ),
    };
  if (state.filter)
    return {
      node: (
        <Text dimColor wrap="truncate-end">
          filter: {state.filter}, matched in {matchedText(state.matched)} (Esc clears)
        </Text>
      ),
    };
  return undefined;
}
