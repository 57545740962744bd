// Side effects of the jobs browser: loading, auto-refresh, re-login, detail/logs fetching and job actions.
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

export function useJobsBrowser(options: JobsBrowserOptions) {
  const { api, relogin, refreshMs, tickMs = 1000 } = options;
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

  const askPassword = useCallback(
    () =>
      new Promise<string>((resolve, reject) => {
        passwordWaiter.current = { resolve, reject };
      }),
    [],
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
  }, [relogin, askPassword, dispatch]);

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
    [api, call, dispatch],
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
    [api, call, loadDetail, expireOn, dispatch],
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
  }, [refreshMs, load]);

  useEffect(() => {
    if (tickMs <= 0) return;
    const timer = setInterval(() => setNow(clockRef.current()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);

  const openDetail = useCallback(() => {
    dispatch({ type: 'detail-open' });
    const id = stateRef.current.selectedId;
    if (id !== undefined) loadDetail(id);
  }, [loadDetail, dispatch]);

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
    [api, call, expireOn, dispatch],
  );

  /** Runs a job action and says how it went; resolves with the run a sync started, if one did. */
  const perform = useCallback(
    (action: JobAction, jobId: number, name: string): Promise<Task | undefined> => {
      const { project } = stateRef.current;
      dispatch({ type: 'overlay-close' });
      dispatch({ type: 'notice', tone: 'busy', text: `${ACTION_WORDS[action]} ${name}…` });
      const run = async (): Promise<{ tone: 'ok' | 'warn'; text: string; started?: Task }> => {
        if (action === 'sync') {
          const outcome = await syncAndConfirm(api, project, jobId, { signal: controller.current.signal });
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
      };
      return call(run).then(
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
    [api, call, load, expireOn, dispatch],
  );

  const switchProject = useCallback(
    (project: string) => {
      dispatch({ type: 'project-switch', project });
      load(project);
    },
    [load, dispatch],
  );

  const submitPassword = useCallback((password: string) => {
    const waiter = passwordWaiter.current;
    passwordWaiter.current = undefined;
    waiter?.resolve(password);
  }, []);

  const cancelPassword = useCallback(() => {
    const waiter = passwordWaiter.current;
    passwordWaiter.current = undefined;
    waiter?.reject(new ManagementError('unauthorized', 'Sign-in cancelled'));
  }, []);

  const commands = useMemo(
    () => ({ load, openDetail, loadLogs, perform, switchProject, submitPassword, cancelPassword, call }),
    [load, openDetail, loadLogs, perform, switchProject, submitPassword, cancelPassword, call],
  );
  /** The state after the last action, possibly ahead of the last render. */
  const latest = useCallback(() => stateRef.current, []);
  return { state, latest, dispatch, now, commands };
}
