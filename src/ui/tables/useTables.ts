// The tables screen's loading: the list once (rows shown as they are read), one table's detail when it
// is opened; each read cancelled when the screen leaves or the table is closed.
import { useEffect } from 'react';
import type { TableDetail, TableRef, TableRow } from '../../tables/index.js';
import type { TablesAction, TablesState } from './state.js';

/** Where the screen's tables come from: a profile's catalog, or the tables of a job's streams. */
export interface TablesSource {
  title: string;
  subtitle: string;
  /** Every row, each also handed to `onRow` as soon as it is read; `warnings`: what could not be listed. */
  list(
    onRow: (row: TableRow) => void,
    signal: AbortSignal,
  ): Promise<{ rows: TableRow[]; warnings: string[] }>;
  show(
    ref: TableRef,
    onProgress: (done: number, total: number) => void,
    signal: AbortSignal,
  ): Promise<TableDetail | { problem: string }>;
  now(): number;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function useTables(
  source: TablesSource,
  state: TablesState,
  dispatch: (action: TablesAction) => void,
): void {
  const generation = state.generation;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each generation (R) reads the list again
  useEffect(() => {
    const abort = new AbortController();
    source
      .list((row) => {
        if (!abort.signal.aborted) dispatch({ type: 'row', row });
      }, abort.signal)
      .then(
        ({ rows, warnings }) => {
          if (!abort.signal.aborted) dispatch({ type: 'loaded', rows, warnings });
        },
        (error: unknown) => {
          if (!abort.signal.aborted) dispatch({ type: 'load-failed', failure: message(error) });
        },
      );
    return () => abort.abort();
  }, [source, dispatch, generation]);

  const name = state.detail?.name;
  const row =
    name === undefined ? undefined : state.rows.find((r) => [...r.namespace, r.name].join('.') === name);
  // The table's identifier as one value: the read starts again only when another table is opened.
  const refKey = row ? JSON.stringify([row.namespace, row.name]) : undefined;
  useEffect(() => {
    if (name === undefined || refKey === undefined) return;
    const [namespace, table] = JSON.parse(refKey) as [string[], string];
    const abort = new AbortController();
    source
      .show(
        { namespace, name: table },
        (done, total) => dispatch({ type: 'detail-progress', name, done, total }),
        abort.signal,
      )
      .then(
        (detail) => {
          if (abort.signal.aborted) return;
          if ('problem' in detail) dispatch({ type: 'detail-failed', name, failure: detail.problem });
          else dispatch({ type: 'detail', name, detail });
        },
        (error: unknown) => {
          if (!abort.signal.aborted) dispatch({ type: 'detail-failed', name, failure: message(error) });
        },
      );
    return () => abort.abort();
  }, [name, refKey, source, dispatch]);
}
