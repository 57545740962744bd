// The log pane's side effects: following a running run (polling the byte cursor, see
// management/follow.ts) and reading a failed run's whole log for its diagnosis.
import { useCallback, useEffect, useRef } from 'react';
import type { Diagnosis } from '../../check/types.js';
import { diagnoseLog, runHosts } from '../../management/diagnose.js';
import { type FollowCursor, type FollowStep, followStep, followTail } from '../../management/follow.js';
import { readWholeLog } from '../../management/logs.js';
import type { JobsApi, Task } from '../../management/types.js';
import { sanitize } from '../../text/sanitize.js';
import { stateLook } from './format.js';
import { type Action, detailJob, type JobsState } from './state.js';

/** A diagnosis reads up to this many lines from the end of the run. */
const DIAGNOSE_LINES = 20_000;

export interface RunLogsOptions {
  api: JobsApi;
  latest: () => JobsState;
  dispatch: (action: Action) => void;
  call: <T>(run: () => Promise<T>) => Promise<T>;
  /** How often a followed log is polled. */
  pollMs: number;
  /** Lines kept on screen while following. */
  keep: number;
}

/** What one poll found. */
type Polled = { step: FollowStep; ended: boolean; status: string };

/** One poll of a followed run: its new lines and, once caught up, whether it is still running. */
function pollFollowed(
  api: JobsApi,
  call: RunLogsOptions['call'],
  project: string,
  jobId: number,
  task: Task,
  cursor: FollowCursor,
): Promise<Polled> {
  return call(async () => {
    const step = await followStep(api, project, jobId, task, cursor);
    // Caught up: is the run still running? (what `floe jobs logs --follow` asks too)
    const now = step.more
      ? undefined
      : (await api.listTasks(project, jobId)).find((t) => t.file_path === task.file_path);
    const ended = !step.more && now?.status.toLowerCase() !== 'running';
    return { step, ended, status: now?.status ?? 'no longer listed' };
  });
}

/** Shows a poll's lines; at the run's end, says how it ended and shows its diagnosis. */
function showPolled(
  dispatch: RunLogsOptions['dispatch'],
  diagnose: (run: Task) => void,
  task: Task,
  keep: number,
  { step, ended, status }: Polled,
): void {
  dispatch({ type: 'logs-append', task, lines: step.lines, next: step.next, keep });
  if (!ended) return;
  dispatch({ type: 'log-ended', task, status });
  // A failed end is a ✗, a completed one a ✓; anything else (canceled…) a warning.
  const color = stateLook(status).color;
  dispatch({
    type: 'notice',
    tone: color === 'green' ? 'ok' : color === 'red' ? 'error' : 'warn',
    text: `Run ended: ${sanitize(status)}; following stopped.`,
  });
  // What went wrong, under the log, as Enter on a failed run shows it.
  diagnose({ ...task, status });
}

/** A poll failed: following stops, and says why. */
function followFailed(dispatch: RunLogsOptions['dispatch'], error: unknown): void {
  dispatch({ type: 'log-follow' });
  dispatch({
    type: 'notice',
    tone: 'error',
    text: `Following stopped: ${(error as Error).message}`,
  });
}

/** A failed run's diagnosis (its whole log read once, shown again when asked again). */
function useDiagnose({ api, latest, dispatch, call }: Omit<RunLogsOptions, 'pollMs' | 'keep'>) {
  /** Diagnoses by run (file path); 'pending' while the log is read. */
  const diagnosed = useRef(new Map<string, Diagnosis[] | 'pending'>());
  /** Reads a failed run's whole log once and diagnoses it; shows the known diagnosis again. */
  return useCallback(
    (run: Task) => {
      const current = latest();
      if (!current.detail || run.status.toLowerCase() !== 'failed') return;
      const known = diagnosed.current.get(run.file_path);
      if (known === 'pending') return;
      if (known) return dispatch({ type: 'diagnoses', task: run, diagnoses: known });
      diagnosed.current.set(run.file_path, 'pending');
      const { project } = current;
      const { jobId } = current.detail;
      call(() => readWholeLog(api, project, jobId, run, DIAGNOSE_LINES)).then(
        (lines) => {
          const job = detailJob(latest());
          const diagnoses = diagnoseLog(lines, job ? runHosts(job) : {});
          diagnosed.current.set(run.file_path, diagnoses);
          dispatch({ type: 'diagnoses', task: run, diagnoses });
        },
        () => diagnosed.current.delete(run.file_path),
      );
    },
    [api, call, dispatch, latest],
  );
}

export function useRunLogs({ api, latest, dispatch, call, pollMs, keep }: RunLogsOptions) {
  const busy = useRef(false);
  const diagnose = useDiagnose({ api, latest, dispatch, call });
  const logs = latest().detail?.logs;
  const following = logs?.view.follow !== undefined;
  const task = logs?.task;

  useEffect(() => {
    if (!following || !task) return;
    const timer = setInterval(() => {
      const current = latest();
      const open = current.detail?.logs;
      const cursor = open?.view.follow;
      if (busy.current || !current.detail || !open || !cursor || open.task.file_path !== task.file_path)
        return;
      busy.current = true;
      const { project } = current;
      const { jobId } = current.detail;
      pollFollowed(api, call, project, jobId, task, cursor)
        .then(
          (polled) => showPolled(dispatch, diagnose, task, keep, polled),
          (error: unknown) => followFailed(dispatch, error),
        )
        .finally(() => {
          busy.current = false;
        });
    }, pollMs);
    return () => clearInterval(timer);
  }, [following, task, api, call, dispatch, latest, pollMs, keep, diagnose]);

  /** Reads the run's tail, then polls it (the effect above) from there. */
  const startFollowing = useCallback(
    (jobId: number, project: string, run: Task) => {
      call(() => followTail(api, project, jobId, run, keep)).then(
        (tail) => {
          dispatch({
            type: 'logs',
            jobId,
            task: run,
            page: {
              logs: tail.lines,
              older_cursor: tail.olderCursor,
              newer_cursor: tail.next.base,
              has_more_older: tail.hasOlder,
              has_more_newer: false,
            },
          });
          dispatch({ type: 'log-follow', cursor: tail.next });
        },
        (error: unknown) => dispatch({ type: 'notice', tone: 'error', text: (error as Error).message }),
      );
    },
    [api, call, dispatch, keep],
  );

  /** Follows `run` from its tail: selected in the runs, its log open. */
  const followRun = useCallback(
    (run: Task) => {
      const current = latest();
      if (!current.detail) return;
      const { project } = current;
      const { jobId } = current.detail;
      dispatch({ type: 'run-follow', jobId, task: run });
      startFollowing(jobId, project, run);
    },
    [dispatch, latest, startFollowing],
  );

  /** Starts following the open run from its tail, or stops. */
  const toggleFollow = useCallback(() => {
    const current = latest();
    const open = current.detail?.logs;
    if (!current.detail || !open) return;
    if (open.view.follow) return dispatch({ type: 'log-follow' });
    startFollowing(current.detail.jobId, current.project, open.task);
  }, [dispatch, latest, startFollowing]);

  return { toggleFollow, followRun, diagnose };
}
