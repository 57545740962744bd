// The write check's cleanup step, over this run's record and earlier runs' (see cleanup.ts for what may
// be deleted): runs after any failure or Ctrl-C, with its own budget.
import { catalogPath, serves } from '../catalog/session.js';
import { stillRunning } from '../check/journal.js';
import type { Leftover } from '../check/types.js';
import { type CleanupOps, cleanUp } from './cleanup.js';
import type { WriteRun, WriteStepId } from './run.js';

// ---- cleanup -------------------------------------------------------------------------------

/** What cleanup.ts needs of this run, bound to the cleanup's own budget. */
function cleanupOps(run: WriteRun, budget: AbortSignal): CleanupOps {
  const step: WriteStepId = 'write.cleanup';
  const profile = run.record.profile;
  return {
    send: (method, url) => run.send(step, method, url),
    path: (namespace, table) =>
      table === undefined
        ? catalogPath(run.session, namespace)
        : catalogPath(run.session, namespace, 'tables', table),
    serves: (endpoint) => serves(run.session, endpoint),
    refused: (operation, res) => run.refused(step, operation, res),
    store: () => run.objects,
    budget,
    timeoutMs: run.opts.timeoutMs,
    again: `floe test --cleanup${profile ? ` --profile ${profile}` : ''}`,
  };
}

/**
 * Runs even after a failure or Ctrl-C, with its own time budget: this run's things (see cleanup.ts
 * for what may be deleted), then what earlier runs of the same catalog and store left. What stays is
 * a leftover, named with how to remove it: a warning, not a failed check.
 */
export async function cleanup(run: WriteRun): Promise<void> {
  const step: WriteStepId = 'write.cleanup';
  // Another floe still running a check on this catalog has its own cleanup to do.
  const earlier = (await run.journal.pending(run.record.scope)).filter(
    (r) => r.id !== run.record.id && (r.run === undefined || r.run !== run.record.run) && !stillRunning(r),
  );
  const own = !run.opts.write.cleanupOnly;
  const made =
    own &&
    (run.record.table !== null || run.record.createdNamespaces.length > 0 || run.record.objects.length > 0);
  const identifier = `${run.namespace.join('.')}.${run.name}`;
  const kept =
    made && run.opts.write.keep && run.table
      ? `kept ${identifier} (--keep); metadata ${run.committedLocation ?? run.table.metadataLocation ?? 'unknown'}`
      : null;
  if (own && (kept || !made)) await run.journal.remove(run.record.id);
  if (earlier.length === 0 && (kept || !made)) {
    run.steps.skip(step, kept ?? (own ? 'nothing to clean up' : 'no earlier write check left anything'));
    return;
  }
  run.steps.start(step);
  // Ctrl-C stopped the check, not the cleanup: it gets its own signal and a bounded budget.
  const budget = AbortSignal.timeout(Math.min(30_000, 3 * run.opts.timeoutMs));
  run.signal = budget;
  await run.http.close();
  run.http = run.client(budget);
  const ops = cleanupOps(run, budget);
  const done: string[] = kept ? [kept] : [];
  const left: Leftover[] = [];
  for (const record of made && !kept ? [run.record, ...earlier] : earlier) {
    const result = await cleanUp(record, ops);
    const name = record.table
      ? `${record.namespace.join('.')}.${record.table}`
      : record.namespace.length > 0
        ? record.namespace.join('.')
        : 'storage probe';
    if (record === run.record) done.push(...result.done);
    else if (result.done.length > 0)
      done.push(`earlier check ${name} (${record.startedAt}): ${result.done.join(', ')}`);
    left.push(...result.left);
    if (result.remaining) await run.journal.save(result.remaining);
    else await run.journal.remove(record.id);
  }
  await run.http.close();
  run.leftovers = left.map((l) => run.scrubber.scrubDeep(l));
  if (left.length === 0) {
    run.steps.ok(step, done.join('; ') || 'nothing left');
    return;
  }
  run.steps.warning(step, `left behind: ${left.map((l) => l.name).join(', ')}`);
  for (const l of run.leftovers)
    run.emit({
      type: 'warning',
      message: `WRITE_CLEANUP_INCOMPLETE: left ${l.kind} ${l.name} (${l.why}${budget.aborted ? '; the cleanup ran out of time' : ''}). To remove it: ${l.remove}`,
    });
}
