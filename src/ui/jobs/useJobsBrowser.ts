// Side effects of the jobs browser: loading, auto-refresh, re-login, detail/logs fetching and job actions.
// The hook is four parts, called in this order on every render (so React sees the same hooks in the same
// order): the state and its refs, the session (re-login), loading (list, detail, refresh, clock), commands.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { actionDone, serverSaid } from '../../management/actions.js';
import { syncAndConfirm } from '../../management/sync.js';
import type { JobsApi, LogQuery, Task } from '../../management/types.js';
import { ManagementError } from '../../management/types.js';
import {
  type Action,
  type Failure,
  initialState,
  type JobAction,
  type JobsState,
  jobsReducer,
} from './state.js';

export interface JobsBrowserOptions {
  api: JobsApi;
  project: string;
  /** Auto-refresh period; 0 turns it off. */
  refreshMs: number;
  /** Signs in again: first without a password (a remembered one), then with the one the user typed. */
  relogin: (password?: string) => Promise<void>;
  pageSize: number;
  /** Clock for "updated Ns ago" and relative times. */
  now?: () => number;
  /** How often the clock ticks; 0 turns it off. */
  tickMs?: number;
}

export function toFailure(error: unknown): Failure {
  if (error instanceof ManagementError) return { kind: error.kind, message: error.message };
  return { kind: 'unknown', message: error instanceof Error ? error.message : String(error) };
}

const isUnauthorized = (error: unknown) => error instanceof ManagementError && error.kind === 'unauthorized';

const ACTION_WORDS: Record<JobAction, string> = {
  sync: 'Starting a sync of',
  pause: 'Pausing',
  resume: 'Resuming',
  cancel: 'Cancelling the run of',
};

type Call = <T>(run: () => Promise<T>) => Promise<T>;

/** The state (kept in a ref as well, see below), the clock, the refs the parts share, and dispatch. */
function useBrowserState(options: JobsBrowserOptions) {
  const clock = options.now ?? Date.now;
  // The reducer runs here, not in React: `stateRef` holds the state after every action at once, so key
  // handlers see the effect of keys typed ahead or pasted before React renders again.
  const [state, setState] = useState(() => initialState(options.project, options.pageSize));
  const stateRef = useRef<JobsState>(state);
  const [now, setNow] = useState(clock);
  const clockRef = useRef(clock);
  clockRef.current = clock;
  const mounted = useRef(true);
  const controller = useRef(new AbortController());
  const loadSeq = useRef(0);
  const reauth = useRef<Promise<void> | undefined>(undefined);
  const passwordWaiter = useRef<{ resolve: (password: string) => void; reject: (error: Error) => void }>(
    undefined,
  );

  const dispatch = useCallback((action: Action) => {
    if (!mounted.current) return;
    stateRef.current = jobsReducer(stateRef.current, action);
    setState(stateRef.current);
  }, []);

  useEffect(() => {
    mounted.current = true;
    const abort = controller.current;
    return () => {
      mounted.current = false;
      abort.abort();
      passwordWaiter.current?.reject(new ManagementError('cancelled', 'closed'));
    };
  }, []);
  return { state, stateRef, now, setNow, clockRef, controller, loadSeq, reauth, passwordWaiter, dispatch };
}

type BrowserState = ReturnType<typeof useBrowserState>;

/** Signing in again when the session expires, once however many calls hit it; `call` retries a call after. */
function useSession(
  { reauth, passwordWaiter, dispatch }: BrowserState,
  relogin: JobsBrowserOptions['relogin'],
) {
  const askPassword = useCallback(
    () =>
      new Promise<string>((resolve, reject) => {
        passwordWaiter.current = { resolve, reject };
      }),
    [passwordWaiter],
  );

  /** One re-login at a time, however many calls hit the expired session. */
  const reauthenticate = useCallback((): Promise<void> => {
    if (reauth.current) return reauth.current;
    const attempt = (async () => {
      dispatch({ type: 'session', session: 'relogin' });
      try {
        await relogin();
      } catch (error) {
        if (!isUnauthorized(error)) throw error;
        let message: string | undefined;
        for (;;) {
          dispatch({ type: 'session', session: 'password', error: message });
          const password = await askPassword();
          dispatch({ type: 'session', session: 'relogin' });
          try {
            await relogin(password);
            break;
          } catch (retryError) {
            if (!isUnauthorized(retryError)) throw retryError;
            message = (retryError as ManagementError).message;
          }
        }
      }
    })();
    reauth.current = attempt
      .then(
        () => dispatch({ type: 'session', session: 'ok' }),
        (error: unknown) => {
          dispatch({ type: 'session', session: isUnauthorized(error) ? 'expired' : 'ok' });
          throw error;
        },
      )
      .finally(() => {
        reauth.current = undefined;
      });
    return reauth.current;
  }, [relogin, askPassword, dispatch, reauth]);

  /** Runs an API call; on an expired session signs in again and retries it once. */
  const call = useCallback(
    async <T>(run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        if (!isUnauthorized(error)) throw error;
        await reauthenticate();
        return run();
      }
    },
    [reauthenticate],
  );
  return call;
}

/** The list and the open detail: loaded now, on refresh, and when the session ends; the clock's tick. */
function useLoading(browser: BrowserState, call: Call, options: JobsBrowserOptions) {
  const { stateRef, clockRef, controller, loadSeq, setNow, dispatch } = browser;
  const { api, refreshMs, tickMs = 1000 } = options;
  const loadDetail = useCallback(
    (jobId: number) => {
      const { project } = stateRef.current;
      const signal = controller.current.signal;
      call(() => api.getJob(project, jobId, signal)).then(
        (job) => dispatch({ type: 'detail-job', jobId, job }),
        (error: unknown) => dispatch({ type: 'detail-job-failed', jobId, failure: toFailure(error) }),
      );
      call(() => api.listTasks(project, jobId, signal)).then(
        (tasks) => dispatch({ type: 'tasks', jobId, tasks }),
        (error: unknown) => dispatch({ type: 'tasks-failed', jobId, failure: toFailure(error) }),
      );
    },
    [api, call, dispatch, stateRef, controller],
  );

  const expireOn = useCallback(
    (failure: Failure) => {
      if (failure.kind === 'unauthorized') dispatch({ type: 'session', session: 'expired' });
    },
    [dispatch],
  );

  /** Loads the list (and the open detail); `project` when switching to another project. */
  const load = useCallback(
    (switchTo?: string) => {
      const seq = ++loadSeq.current;
      const project = switchTo ?? stateRef.current.project;
      const detail = switchTo === undefined ? stateRef.current.detail : undefined;
      dispatch({ type: 'load-start' });
      call(() => api.listJobs(project, controller.current.signal)).then(
        (jobs) => {
          if (seq === loadSeq.current) dispatch({ type: 'loaded', jobs, at: clockRef.current() });
        },
        (error: unknown) => {
          if (seq !== loadSeq.current) return;
          const failure = toFailure(error);
          dispatch({ type: 'load-failed', failure });
          expireOn(failure);
        },
      );
      if (detail) loadDetail(detail.jobId);
    },
    [api, call, loadDetail, expireOn, dispatch, loadSeq, stateRef, controller, clockRef],
  );

  useEffect(() => {
    load();
  }, [load]);

  useEffect(() => {
    if (refreshMs <= 0) return;
    const timer = setInterval(() => {
      const current = stateRef.current;
      const typing = current.overlay.kind === 'filter' || current.overlay.kind === 'project';
      if (!typing && !current.refreshing && current.session === 'ok') load();
    }, refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs, load, stateRef]);

  useEffect(() => {
    if (tickMs <= 0) return;
    const timer = setInterval(() => setNow(clockRef.current()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs, clockRef, setNow]);
  return { load, loadDetail, expireOn };
}

/** What a sync, pause, resume or cancel does; the notice it leaves, and the run a sync started. */
async function runAction(
  api: JobsApi,
  project: string,
  action: JobAction,
  jobId: number,
  name: string,
  signal: AbortSignal,
): Promise<{ tone: 'ok' | 'warn'; text: string; started?: Task }> {
  if (action === 'sync') {
    const outcome = await syncAndConfirm(api, project, jobId, { signal });
    return outcome.kind === 'started'
      ? { tone: 'ok', text: outcome.text, started: outcome.run }
      : { tone: 'warn', text: outcome.text };
  }
  const message =
    action === 'cancel'
      ? await api.cancelRun(project, jobId)
      : await api.setActive(project, jobId, action === 'resume');
  const said = serverSaid(message);
  return { tone: 'ok', text: `${actionDone(action, jobId, name)}${said ? ` · ${said}` : ''}` };
}

/** The commands the keys call: open a detail, read a log, act on a job, switch project, answer the password. */
function useCommands(
  { stateRef, controller, passwordWaiter, dispatch }: BrowserState,
  call: Call,
  { load, loadDetail, expireOn }: ReturnType<typeof useLoading>,
  api: JobsApi,
) {
  const openDetail = useCallback(() => {
    dispatch({ type: 'detail-open' });
    const id = stateRef.current.selectedId;
    if (id !== undefined) loadDetail(id);
  }, [loadDetail, dispatch, stateRef]);

  const loadLogs = useCallback(
    (task: Task, query: LogQuery) => {
      const { project, detail } = stateRef.current;
      if (!detail) return;
      const { jobId } = detail;
      dispatch({ type: 'logs-start', jobId, task });
      call(() => api.taskLogs(project, jobId, task, query, controller.current.signal)).then(
        (page) => dispatch({ type: 'logs', jobId, task, page }),
        (error: unknown) => {
          const failure = toFailure(error);
          dispatch({ type: 'logs-failed', jobId, task, failure });
          expireOn(failure);
        },
      );
    },
    [api, call, expireOn, dispatch, stateRef, controller],
  );

  /** Runs a job action and says how it went; resolves with the run a sync started, if one did. */
  const perform = useCallback(
    (action: JobAction, jobId: number, name: string): Promise<Task | undefined> => {
      const { project } = stateRef.current;
      dispatch({ type: 'overlay-close' });
      dispatch({ type: 'notice', tone: 'busy', text: `${ACTION_WORDS[action]} ${name}…` });
      return call(() => runAction(api, project, action, jobId, name, controller.current.signal)).then(
        ({ started, ...result }) => {
          dispatch({ type: 'notice', ...result });
          load();
          return started;
        },
        (error: unknown) => {
          const failure = toFailure(error);
          dispatch({ type: 'notice', tone: 'error', text: failure.message });
          expireOn(failure);
          return undefined;
        },
      );
    },
    [api, call, load, expireOn, dispatch, stateRef, controller],
  );

  const switchProject = useCallback(
    (project: string) => {
      dispatch({ type: 'project-switch', project });
      load(project);
    },
    [load, dispatch],
  );

  const submitPassword = useCallback(
    (password: string) => {
      const waiter = passwordWaiter.current;
      passwordWaiter.current = undefined;
      waiter?.resolve(password);
    },
    [passwordWaiter],
  );

  const cancelPassword = useCallback(() => {
    const waiter = passwordWaiter.current;
    passwordWaiter.current = undefined;
    waiter?.reject(new ManagementError('unauthorized', 'Sign-in cancelled'));
  }, [passwordWaiter]);

  return useMemo(
    () => ({ load, openDetail, loadLogs, perform, switchProject, submitPassword, cancelPassword, call }),
    [load, openDetail, loadLogs, perform, switchProject, submitPassword, cancelPassword, call],
  );
}

export function useJobsBrowser(options: JobsBrowserOptions) {
  const browser = useBrowserState(options);
  const call = useSession(browser, options.relogin);
  const loading = useLoading(browser, call, options);
  const commands = useCommands(browser, call, loading, options.api);
  const { stateRef } = browser;
  /** The state after the last action, possibly ahead of the last render. */
  const latest = useCallback(() => stateRef.current, [stateRef]);
  return { state: browser.state, latest, dispatch: browser.dispatch, now: browser.now, commands };
}
