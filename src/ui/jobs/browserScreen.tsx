// What the jobs browser shows under its title, chosen from the state in this order: signing in (again),
// a secret typed for a destination test, help, an expired session, loading, a failed load, a job's
// detail, no jobs, the list.
import { Box } from 'ink';
import type { ReactNode } from 'react';
import { serverText } from '../../management/text.js';
import { Paragraph } from '../components/Paragraph.js';
import { Text } from '../components/Text.js';
import { Cursor } from '../components/TextInput.js';
import { Detail } from './Detail.js';
import { JobTable } from './JobTable.js';
import { footerOf, type Hints, keyScreen } from './keymap.js';
import { failureScreen, Help, HINTS, Message } from './screens.js';
import { detailJob, type JobsState, syncRunning } from './state.js';
import type { useDestinationTest } from './useDestinationTest.js';

const SORT_NAMES = { name: 'name', 'last-run': 'last run', state: 'state' } as const;

export interface Screen {
  body: ReactNode;
  hints: Hints;
  /** Clip the body to its box (false: it is sized to fit already). */
  clipBody?: boolean;
  /** Whether the status line is shown. */
  withStatus?: boolean;
}

/** The server and user the sign-in screens name (see JobsBrowserProps). */
export interface Account {
  url: string;
  username: string;
  hadSession: () => boolean;
}

export interface ScreenContext {
  account: Account | undefined;
  columns: number;
  /** Lines the detail's panes get. */
  panes: number;
  now: number;
  /** How many characters the password and secret fields hold (shown as stars). */
  masked: { password: number; secret: number };
  asking: ReturnType<typeof useDestinationTest>['asking'];
}

export function titleOf(state: JobsState): string {
  const parts = [`floe jobs · project ${state.project}`];
  if (state.view === 'detail') {
    const job = detailJob(state);
    parts.push(job ? `${serverText(job.name)} #${job.id}` : `#${state.detail?.jobId}`);
  } else if (state.phase === 'ready') {
    const total = state.data.jobs.length;
    parts.push(state.filter ? `${state.visible.length}/${total} jobs` : `${total} jobs`);
    parts.push(`sort ${SORT_NAMES[state.sort]}`);
  }
  return parts.join(' · ');
}

export function screenOf(state: JobsState, context: ScreenContext): Screen {
  const { asking } = context;
  return (
    signInScreen(state, context) ?? (asking ? secretScreen(asking, context) : browserScreen(state, context))
  );
}

/** Signing in again (with the remembered password, or asking for it); undefined otherwise. */
function signInScreen(state: JobsState, { account, columns, masked }: ScreenContext): Screen | undefined {
  const where = account ? ` to ${serverText(account.url)} as ${serverText(account.username)}` : '';
  const expired = account?.hadSession() ?? true;
  if (state.session === 'relogin')
    return {
      body: (
        <Message
          tone="info"
          title={expired ? `Session expired: signing in again${where}…` : `Signing in${where}…`}
          lines={[]}
        />
      ),
      hints: HINTS.relogin,
    };
  if (state.session !== 'password') return undefined;
  return {
    body: (
      <Box flexDirection="column" paddingTop={1} paddingLeft={2}>
        <Paragraph
          bold
          text={
            expired
              ? `Your session has expired. Sign in again${where} to carry on where you were.`
              : `Sign in${where}.`
          }
          width={columns - 3}
        />
        {state.passwordError && <Text color="red">✗ {state.passwordError}</Text>}
        <Box>
          <Text>{account ? `Password for ${serverText(account.username)}: ` : 'Password: '}</Text>
          <Text>{'*'.repeat(masked.password)}</Text>
          <Cursor />
        </Box>
      </Box>
    ),
    hints: HINTS.password,
  };
}

/** A secret the destination test needs, typed once and not saved. */
function secretScreen(
  asking: NonNullable<ScreenContext['asking']>,
  { columns, masked }: ScreenContext,
): Screen {
  return {
    body: (
      <Box flexDirection="column" paddingTop={1} paddingLeft={2}>
        <Text bold wrap="truncate-end">
          Test of the destination {serverText(asking.destination)}
        </Text>
        <Paragraph
          text="The OLake UI's copy hides or lacks this secret and no local profile of the same catalog has it. Type it to test with: it is used once and not saved."
          width={columns - 3}
        />
        {asking.count > 1 && <Text dimColor>{`Secret ${asking.index + 1} of ${asking.count}`}</Text>}
        <Box>
          <Text>{asking.label}: </Text>
          <Text>{'*'.repeat(masked.secret)}</Text>
          <Cursor />
        </Box>
      </Box>
    ),
    hints: asking.index + 1 < asking.count ? HINTS.secretNext : HINTS.secret,
    withStatus: false,
  };
}

/** Help, an expired session, loading, a failed load, a job's detail, no jobs, or the list. */
function browserScreen(state: JobsState, { columns, panes, now }: ScreenContext): Screen {
  if (state.overlay.kind === 'help') return { body: <Help />, hints: footerOf('help', false) };
  if (state.session === 'expired' || state.failure?.kind === 'unauthorized')
    return {
      body: (
        <Message
          tone="error"
          title="Session expired"
          lines={['You are signed out of the OLake server.', '', 'R to sign in again · q to quit']}
        />
      ),
      hints: HINTS.expired,
    };
  if (state.phase === 'loading')
    return {
      body: <Message tone="info" title={`Loading the jobs of project ${state.project}…`} lines={[]} />,
      hints: HINTS.loading,
    };
  if (state.phase === 'error' && state.failure)
    return { body: failureScreen(state.failure, state.project, state.refreshing), hints: HINTS.error };
  if (state.view === 'detail' && state.detail) {
    // The logs pane before its log is read shows the runs pane's footer.
    const screen = state.detail.pane === 'logs' && !state.detail.logs?.view ? 'detail' : keyScreen(state);
    return {
      body: <Detail state={state} height={panes} width={columns} now={now} />,
      hints: footerOf(screen, syncRunning(state)),
    };
  }
  if (state.data.jobs.length === 0)
    return {
      body: (
        <Message
          tone="info"
          title={`No jobs in project ${state.project} yet.`}
          lines={['Create one in the OLake UI, then press R. P switches to another project.']}
        />
      ),
      hints: HINTS.empty,
    };
  return {
    body: <JobTable state={state} columns={columns} now={now} />,
    // The table is sized to the page already; not clipping it spares Ink cutting every line each frame
    // (half its frame time). Below 80 columns the footer may wrap onto a second line, so clip there.
    clipBody: columns < 80,
    hints: footerOf('list', syncRunning(state)),
  };
}
