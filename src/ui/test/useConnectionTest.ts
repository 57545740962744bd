// Owns one connection test at a time for the screen: starts it on mount, re-runs, cancels, and
// feeds the orchestrator's events into the check reducer. Events of a superseded run are dropped.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { WriteOptions } from '../../check/chain.js';
import { guarded } from '../../cli/interrupt.js';
import { type CheckState, checkReducer, initialCheckState } from '../../connection/reducer.js';
import { type Chains, runCheck } from '../../connection/run.js';
import type { Values } from '../../destination/fields.js';

export interface ConnectionTestOptions {
  timeoutMs: number;
  /** The command's environment (io.env) the test reads proxies and STORAGE_EMULATOR_HOST from. */
  env?: NodeJS.ProcessEnv;
  readOnly?: boolean;
  allowInsecureUriOverride?: boolean;
  /** Run the write check from the first run on (floe test --write). */
  write?: WriteOptions;
  /** Defaults to the real catalog and storage chains. */
  chains?: Chains;
}

/** What Ctrl-C prints while a write check it stopped still cleans up. */
export const CLEANING_UP = 'floe: interrupted; cleaning up what the test made…';

export interface ConnectionTestControls {
  state: CheckState;
  /** Whether the current run includes the write check. */
  writing: boolean;
  /** Starts a new run (aborting one still going); `write` adds or leaves out the write check. */
  start: (write?: WriteOptions | null) => void;
  /** Aborts the running test: requests in flight stop and the remaining steps end cancelled. */
  cancel: () => void;
}

export function useConnectionTest(values: Values, opts: ConnectionTestOptions): ConnectionTestControls {
  const [state, dispatch] = useReducer(checkReducer, initialCheckState);
  const current = useRef<AbortController | undefined>(undefined);
  const writeRef = useRef<WriteOptions | undefined>(opts.write);
  // The latest props, read when a run starts: a parent re-rendering must not restart the test.
  const config = useRef({ values, opts });
  config.current = { values, opts };

  const start = useCallback((write?: WriteOptions | null) => {
    if (write !== undefined) writeRef.current = write ?? undefined;
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    const live = () => current.current === controller;
    dispatch({ type: 'start' });
    const { values: v, opts: o } = config.current;
    const writing = writeRef.current;
    const check = (signal: AbortSignal) =>
      runCheck(v, {
        signal,
        timeoutMs: o.timeoutMs,
        ...(o.env ? { env: o.env } : {}),
        readOnly: o.readOnly,
        allowInsecureUriOverride: o.allowInsecureUriOverride,
        ...(writing ? { write: writing } : {}),
        chains: o.chains,
        onEvent: (event) => {
          if (live()) dispatch(event);
        },
      });
    // A write check is guarded: Ctrl-C (here or as a signal) lets its cleanup finish before floe exits.
    (writing ? guarded(check, controller.signal, CLEANING_UP) : check(controller.signal))
      .catch((error: unknown) => {
        if (live())
          dispatch({
            type: 'warning',
            message: `The test could not start: ${error instanceof Error ? error.message : String(error)}`,
          });
      })
      .finally(() => {
        if (live()) dispatch({ type: 'done' });
      });
  }, []);

  const cancel = useCallback(() => {
    dispatch({ type: 'cancel' });
    current.current?.abort();
  }, []);

  useEffect(() => {
    start();
    return () => current.current?.abort();
  }, [start]);

  return { state, writing: writeRef.current !== undefined, start, cancel };
}
