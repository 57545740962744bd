// The jobs browser screen: renders JobsState and maps keys to reducer actions and hook commands.
import { Box } from 'ink';
import { useEffect, useMemo, useState } from 'react';
import type { JobDetail, JobsApi } from '../../management/types.js';
import { KeyHints } from '../components/KeyHints.js';
import { Text } from '../components/Text.js';
import { useTerminalSize } from '../components/useTerminalSize.js';
import { TablesBrowser } from '../tables/TablesBrowser.js';
import type { TablesSource } from '../tables/useTables.js';
import { ConnectionTest } from '../test/ConnectionTest.js';
import { type Account, screenOf, titleOf } from './browserScreen.js';
import { ageStamp } from './format.js';
import { sanitizedApi, sanitizedCall } from './sanitized.js';
import { statusLine } from './screens.js';
import { type Action, detailJob, type JobsState } from './state.js';
import { type PreparedTest, type SecretsToType, useDestinationTest } from './useDestinationTest.js';
import { useJobsBrowser } from './useJobsBrowser.js';
import { useJobsKeys } from './useJobsKeys.js';
import { useRunLogs } from './useRunLogs.js';

export type { PreparedTest, SecretsToType } from './useDestinationTest.js';

export interface JobsBrowserProps {
  api: JobsApi;
  project: string;
  refreshMs?: number;
  relogin: (password?: string) => Promise<void>;
  /**
   * The server and user the sign-in screens name; `hadSession` says whether the server had given a
   * session (so a refusal means it expired) or the user signs in for the first time.
   */
  account?: Account;
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
  /** The command's environment (io.env) t's connection test runs in. */
  env?: NodeJS.ProcessEnv;
}

/** Lines around the list body: title, table header, status line, footer, and the spare last terminal row. */
const LIST_CHROME = 5;
/** Lines around the detail panes: title, nine field lines, pane tabs, status line, footer, spare row. */
const DETAIL_CHROME = 14;
/** Each request of a job's destination test, as in floe test. */
const TEST_TIMEOUT_MS = 10_000;

/** b in the detail: the tables of the job's streams, once `prepareTables` has found them. */
function openTables(
  prepareTables: JobsBrowserProps['prepareTables'],
  latest: () => JobsState,
  dispatch: (action: Action) => void,
  setBrowsing: (source: TablesSource) => void,
) {
  const job = detailJob(latest());
  if (!prepareTables || !job) return;
  if (!job.destination.config)
    return dispatch({
      type: 'notice',
      tone: 'warn',
      text: 'The job’s detail (with its destination) is still loading',
    });
  dispatch({ type: 'notice', tone: 'busy', text: `Finding the tables of ${job.name}…` });
  prepareTables(job).then(
    (prepared) => {
      if ('problem' in prepared) return dispatch({ type: 'notice', tone: 'warn', text: prepared.problem });
      dispatch({ type: 'notice', tone: 'ok', text: `Back from the tables of ${job.name}` });
      setBrowsing(prepared);
    },
    (error: unknown) => dispatch({ type: 'notice', tone: 'error', text: (error as Error).message }),
  );
}

/** Every hook of the browser, always in this order: size, state, logs, the screens it opens, keys. */
function useBrowser(props: JobsBrowserProps) {
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
  const startTables = () => openTables(props.prepareTables, latest, dispatch, setBrowsing);
  const { asking, startTest, secretPrompt } = useDestinationTest({
    prepareTest: props.prepareTest,
    latest,
    dispatch,
    setTesting,
  });
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
  return { columns, rows, panes, state, now, testing, setTesting, browsing, setBrowsing, asking, masked };
}

export function JobsBrowser(props: JobsBrowserProps) {
  const { columns, rows, panes, state, now, testing, setTesting, browsing, setBrowsing, asking, masked } =
    useBrowser(props);
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
        {...(props.env ? { env: props.env } : {})}
        leaveLabel="back"
        onDone={() => setTesting(undefined)}
        onInterrupt={() => props.onExit(130)}
      />
    );

  const title = titleOf(state);
  const screen = screenOf(state, { account: props.account, columns, panes, now, masked, asking });
  const { body, clipBody = true, withStatus = true } = screen;
  let hints = screen.hints;
  const stamp = state.refreshing && state.phase === 'ready' ? 'refreshing…' : ageStamp(state.loadedAt, now);

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
