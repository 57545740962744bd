// Owns one connection test at a time for the screen: starts it on mount, re-runs, cancels, and
// feeds the orchestrator's events into the check reducer. Events of a superseded run are dropped.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { type CheckState, checkReducer, initialCheckState } from '../../check/reducer.js';
import { type Chains, runCheck } from '../../check/run.js';
import type { Values } from '../../destination/fields.js';

export interface ConnectionTestOptions {
  timeoutMs: number;
  readOnly?: boolean;
  allowInsecureUriOverride?: boolean;
  /** Defaults to the real catalog and storage chains. */
  chains?: Chains;
}

export interface ConnectionTestControls {
  state: CheckState;
  /** Starts a new run (aborting one still going). */
  start: () => void;
  /** Aborts the running test: requests in flight stop and the remaining steps end cancelled. */
  cancel: () => void;
}

export function useConnectionTest(values: Values, opts: ConnectionTestOptions): ConnectionTestControls {
  const [state, dispatch] = useReducer(checkReducer, initialCheckState);
  const current = useRef<AbortController | undefined>(undefined);
  // The latest props, read when a run starts: a parent re-rendering must not restart the test.
  const config = useRef({ values, opts });
  config.current = { values, opts };

  const start = useCallback(() => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    const live = () => current.current === controller;
    dispatch({ type: 'start' });
    const { values: v, opts: o } = config.current;
    runCheck(v, {
      signal: controller.signal,
      timeoutMs: o.timeoutMs,
      readOnly: o.readOnly,
      allowInsecureUriOverride: o.allowInsecureUriOverride,
      chains: o.chains,
      onEvent: (event) => {
        if (live()) dispatch(event);
      },
    })
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

  return { state, start, cancel };
}
