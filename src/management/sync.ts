// "Sync now", told truthfully. The OLake UI triggers the job's Temporal schedule with overlap policy
// SKIP (olake-ui `services/temporal/client.go` TriggerSchedule): while a run is in progress it still
// answers 200 "sync triggered successfully", and nothing starts. So floe re-reads the job's runs.
import type { JobsApi, Task } from './types.js';

export type SyncOutcome =
  | { kind: 'started'; run: Task; text: string }
  | { kind: 'skipped'; text: string }
  | { kind: 'requested'; text: string };

export interface SyncOptions {
  /** How many times to re-read the runs (default 5). */
  polls?: number;
  /** Between re-reads (default 1000 ms). */
  intervalMs?: number;
  signal?: AbortSignal;
}

const running = (t: Task) => t.status.toLowerCase() === 'running';

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Triggers a sync and says what happened: a new run, skipped (one is running), or not started yet. */
export async function syncAndConfirm(
  api: JobsApi,
  project: string,
  id: number,
  options: SyncOptions = {},
): Promise<SyncOutcome> {
  const polls = options.polls ?? 5;
  const intervalMs = options.intervalMs ?? 1000;
  const before = await api.listTasks(project, id, options.signal);
  const known = new Set(before.map((t) => t.file_path));
  const busy = before.some(running);
  await api.syncNow(project, id);
  for (let i = 0; i < polls; i++) {
    const after = await api.listTasks(project, id, options.signal);
    const fresh = after.find((t) => !known.has(t.file_path));
    if (fresh) return { kind: 'started', run: fresh, text: `Sync started: run ${fresh.file_path}` };
    if (busy || after.some(running))
      return {
        kind: 'skipped',
        text: 'Sync skipped: a run is in progress (the OLake UI starts no second run while one runs)',
      };
    if (i < polls - 1) await wait(intervalMs, options.signal);
    if (options.signal?.aborted) break;
  }
  return {
    kind: 'requested',
    text: `Sync requested, not started yet: no new run appeared within ${Math.round((polls * intervalMs) / 1000)} s`,
  };
}
