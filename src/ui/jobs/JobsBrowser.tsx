// The jobs browser screen: renders JobsState and maps keys to reducer actions and hook commands.
import { Box } from 'ink';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import type { Values } from '../../destination/fields.js';
import { serverText } from '../../management/text.js';
import type { JobDetail, JobsApi } from '../../management/types.js';
import { KeyHints } from '../components/KeyHints.js';
import { Paragraph } from '../components/Paragraph.js';
import { Text } from '../components/Text.js';
import { Cursor } from '../components/TextInput.js';
import { useTerminalSize } from '../components/useTerminalSize.js';
import { TablesBrowser } from '../tables/TablesBrowser.js';
import type { TablesSource } from '../tables/useTables.js';
import { ConnectionTest, type ConnectionTestProps } from '../test/ConnectionTest.js';
import { Detail } from './Detail.js';
import { ageStamp } from './format.js';
import { JobTable } from './JobTable.js';
import { footerOf, type Hints, keyScreen } from './keymap.js';
import { sanitizedApi, sanitizedCall } from './sanitized.js';
import { failureScreen, Help, HINTS, Message, statusLine } from './screens.js';
import { detailJob, syncRunning } from './state.js';
import { useJobsBrowser } from './useJobsBrowser.js';
import { useJobsKeys } from './useJobsKeys.js';
import { useRunLogs } from './useRunLogs.js';

export interface JobsBrowserProps {
  api: JobsApi;
  project: string;
  refreshMs?: number;
  relogin: (password?: string) => Promise<void>;
  /**
   * The server and user the sign-in screens name; `hadSession` says whether the server had given a
   * session (so a refusal means it expired) or the user signs in for the first time.
   */
  account?: { url: string; username: string; hadSession: () => boolean };
  /** Called with the exit code: 0 on q, 130 on Ctrl-C. */
  onExit: (code: number) => void;
  now?: () => number;
  /** How often "updated Ns ago" ticks; 0 turns it off. */
  tickMs?: number;
  /** How often a followed log is polled (default 2 s). */
  followMs?: number;
  /**
   * Makes a job's destination config testable (t in the detail); without it t does nothing. `typed` holds
   * the secrets the user typed (in memory only); secrets still missing are reported, to be asked for.
   */
  prepareTest?: (
    job: JobDetail,
    typed?: Readonly<Record<string, string>>,
  ) => Promise<PreparedTest | SecretsToType>;
  /** The tables of a job's streams (b in the detail); without it b does nothing. */
  prepareTables?: (job: JobDetail) => Promise<TablesSource | { problem: string }>;
}

export interface PreparedTest {
  values: Values;
  title: string;
  notes: string[];
  /** What `w` on the test screen uses (the config folder's journal, the matched profile). */
  writeWith?: ConnectionTestProps['writeWith'];
}

/** Secrets the server's copy of the destination lacks and no local profile supplies, by writer key. */
export interface SecretsToType {
  missing: { key: string; label: string }[];
}

/** The secret prompt of a job's destination test; the typed values live in a ref, never in state. */
interface SecretAsk {
  job: JobDetail;
  missing: SecretsToType['missing'];
  index: number;
  typed: Record<string, string>;
}

/** Lines around the list body: title, table header, status line, footer, and the spare last terminal row. */
const LIST_CHROME = 5;
/** Lines around the detail panes: title, nine field lines, pane tabs, status line, footer, spare row. */
const DETAIL_CHROME = 14;
/** Each request of a job's destination test, as in floe test. */
const TEST_TIMEOUT_MS = 10_000;
const SORT_NAMES = { name: 'name', 'last-run': 'last run', state: 'state' } as const;

export function JobsBrowser(props: JobsBrowserProps) {
  const { columns, rows } = useTerminalSize();
  const listPage = Math.max(1, rows - LIST_CHROME);
  const panes = Math.max(2, rows - DETAIL_CHROME);
  // Server text is sanitized where it enters (sanitized.ts), and again wherever it is shown.
  const api = useMemo(() => sanitizedApi(props.api), [props.api]);
  const relogin = useMemo(() => sanitizedCall(props.relogin), [props.relogin]);
  const { state, latest, dispatch, now, commands } = useJobsBrowser({
    api,
    project: props.project,
    refreshMs: props.refreshMs ?? 10_000,
    relogin,
    pageSize: listPage,
    now: props.now,
    tickMs: props.tickMs,
  });
  useEffect(() => {
    dispatch({ type: 'page-size', size: listPage });
  }, [listPage, dispatch]);
  const logsLimit = Math.max(1, panes - 1);
  const runLogs = useRunLogs({
    api,
    latest,
    dispatch,
    call: commands.call,
    pollMs: props.followMs ?? 2000,
    keep: logsLimit,
  });
  const [testing, setTesting] = useState<PreparedTest>();
  const [browsing, setBrowsing] = useState<TablesSource>();
  const startTables = () => {
    const job = detailJob(latest());
    if (!props.prepareTables || !job) return;
    if (!job.destination.config)
      return dispatch({
        type: 'notice',
        tone: 'warn',
        text: 'The job’s detail (with its destination) is still loading',
      });
    dispatch({ type: 'notice', tone: 'busy', text: `Finding the tables of ${job.name}…` });
    props.prepareTables(job).then(
      (prepared) => {
        if ('problem' in prepared) return dispatch({ type: 'notice', tone: 'warn', text: prepared.problem });
        dispatch({ type: 'notice', tone: 'ok', text: `Back from the tables of ${job.name}` });
        setBrowsing(prepared);
      },
      (error: unknown) => dispatch({ type: 'notice', tone: 'error', text: (error as Error).message }),
    );
  };
  const ask = useRef<SecretAsk | undefined>(undefined);
  const [asking, setAsking] = useState<{
    label: string;
    index: number;
    count: number;
    destination: string;
  }>();
  const showAsk = () => {
    const current = ask.current;
    setAsking(
      current && {
        label: current.missing[current.index]?.label ?? '',
        index: current.index,
        count: current.missing.length,
        destination: current.job.destination.name,
      },
    );
  };
  const prepare = (job: JobDetail, typed?: Record<string, string>) => {
    if (!props.prepareTest) return;
    dispatch({ type: 'notice', tone: 'busy', text: `Preparing the test of ${job.destination.name}…` });
    props.prepareTest(job, typed).then(
      (prepared) => {
        if ('missing' in prepared) {
          if (typed)
            return dispatch({ type: 'notice', tone: 'error', text: 'The typed secrets were not enough' });
          // Asked only while the job's detail is still open, so Esc leads back to it.
          if (detailJob(latest())?.id !== job.id)
            return dispatch({
              type: 'notice',
              tone: 'warn',
              text: `Testing ${job.destination.name} needs secrets typed: press t in its job’s detail`,
            });
          ask.current = { job, missing: prepared.missing, index: 0, typed: {} };
          return showAsk();
        }
        dispatch({
          type: 'notice',
          tone: 'ok',
          text: prepared.notes.slice(1).join(' ') || prepared.notes[0] || '',
        });
        setTesting(prepared);
      },
      (error: unknown) => dispatch({ type: 'notice', tone: 'error', text: (error as Error).message }),
    );
  };
  const startTest = () => {
    const job = detailJob(latest());
    if (!props.prepareTest || !job) return;
    if (!job.destination.config)
      return dispatch({
        type: 'notice',
        tone: 'warn',
        text: 'The job’s detail (with its destination) is still loading',
      });
    prepare(job);
  };
  // Read per key (through the ref), so the secrets of a burst of keys each land in their field.
  const secretPrompt = {
    asking: () => ask.current !== undefined,
    submit: (value: string) => {
      const current = ask.current;
      if (!current) return;
      const field = current.missing[current.index];
      if (field) current.typed[field.key] = value;
      current.index += 1;
      if (current.index < current.missing.length) return showAsk();
      ask.current = undefined;
      showAsk();
      prepare(current.job, current.typed);
    },
    cancel: () => {
      ask.current = undefined;
      showAsk();
      dispatch({ type: 'notice', tone: 'warn', text: 'Test cancelled; nothing was saved' });
    },
  };
  const masked = useJobsKeys({
    latest,
    dispatch,
    commands,
    runLogs,
    panes,
    logsLimit,
    onExit: props.onExit,
    active: testing === undefined && browsing === undefined,
    onTest: startTest,
    onTables: startTables,
    secretPrompt,
  });

  if (browsing)
    return (
      <TablesBrowser
        source={browsing}
        onExit={(interrupted) => (interrupted ? props.onExit(130) : setBrowsing(undefined))}
      />
    );
  if (testing)
    return (
      <ConnectionTest
        values={testing.values}
        title={testing.title}
        {...(testing.writeWith ? { writeWith: testing.writeWith } : {})}
        timeoutMs={TEST_TIMEOUT_MS}
        leaveLabel="back"
        onDone={() => setTesting(undefined)}
        onInterrupt={() => props.onExit(130)}
      />
    );

  const title = (() => {
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
  })();
  const stamp = state.refreshing && state.phase === 'ready' ? 'refreshing…' : ageStamp(state.loadedAt, now);

  let body: ReactNode;
  let clipBody = true;
  let withStatus = true;
  let hints: Hints;
  const account = props.account;
  const where = account ? ` to ${serverText(account.url)} as ${serverText(account.username)}` : '';
  const expired = account?.hadSession() ?? true;
  if (state.session === 'relogin') {
    body = (
      <Message
        tone="info"
        title={expired ? `Session expired: signing in again${where}…` : `Signing in${where}…`}
        lines={[]}
      />
    );
    hints = HINTS.relogin;
  } else if (state.session === 'password') {
    body = (
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
    );
    hints = HINTS.password;
  } else if (asking) {
    body = (
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
    );
    hints = asking.index + 1 < asking.count ? HINTS.secretNext : HINTS.secret;
    withStatus = false;
  } else if (state.overlay.kind === 'help') {
    body = <Help />;
    hints = footerOf('help', false);
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
    body = <Detail state={state} height={panes} width={columns} now={now} />;
    // The logs pane before its log is read shows the runs pane's footer.
    const screen = state.detail.pane === 'logs' && !state.detail.logs?.view ? 'detail' : keyScreen(state);
    hints = footerOf(screen, syncRunning(state));
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
    hints = footerOf('list', syncRunning(state));
  }

  const line = withStatus ? statusLine(state, columns) : undefined;
  const status = line?.node ?? null;
  if (line?.hints) hints = line.hints;

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
