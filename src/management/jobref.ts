// A job named on the command line: its number, or its name in the project's list. A name must match
// exactly (one job); several jobs of that name, or none but similar ones, are listed for the user to
// choose from by number. A run of a job: the latest, its number from the latest, or its log file's path.
import { FloeError, UsageError } from '../errors.js';
import { sanitize } from '../text/sanitize.js';
import type { Session } from './session.js';
import type { Job, Task } from './types.js';

/** A job number as the OLake UI gives them: a positive integer. */
export const JOB_NUMBER = /^[1-9]\d{0,9}$/;

export type JobRef =
  | { kind: 'found'; job: Pick<Job, 'id' | 'name'> }
  /** Several jobs are named exactly so. */
  | { kind: 'ambiguous'; candidates: Pick<Job, 'id' | 'name'>[] }
  /** No job of that name; `similar`: names that contain it or differ only in case. */
  | { kind: 'none'; similar: Pick<Job, 'id' | 'name'>[] };

/** At most this many candidates are listed. */
export const MAX_CANDIDATES = 10;

export function findJobByName(jobs: readonly Job[], name: string): JobRef {
  const exact = jobs.filter((job) => job.name === name);
  if (exact.length === 1) return { kind: 'found', job: exact[0] as Job };
  if (exact.length > 1) return { kind: 'ambiguous', candidates: exact.slice(0, MAX_CANDIDATES) };
  const needle = name.toLowerCase();
  const similar = jobs.filter((job) => job.name.toLowerCase().includes(needle));
  return { kind: 'none', similar: similar.slice(0, MAX_CANDIDATES) };
}

/** The job a number or a name stands for: a number as it is, a name looked up in the project's jobs. */
export async function resolveJob(session: Session, raw: string): Promise<{ id: number; name?: string }> {
  if (JOB_NUMBER.test(raw)) return { id: Number(raw) };
  const found = findJobByName(await session.client.listJobs(session.project), raw);
  if (found.kind === 'found') return found.job;
  const list = (jobs: Pick<Job, 'id' | 'name'>[]) => jobs.map((job) => `  ${job.id}  ${sanitize(job.name)}`);
  if (found.kind === 'ambiguous')
    throw new UsageError(
      [
        `${found.candidates.length} jobs are named "${sanitize(raw)}"; name one by its number:`,
        ...list(found.candidates),
      ],
      'jobs',
    );
  if (found.similar.length > 0)
    throw new UsageError(
      [
        `No job is named exactly "${sanitize(raw)}" in project ${session.project}; similar names:`,
        ...list(found.similar),
      ],
      'jobs',
    );
  throw new FloeError(
    `No job named "${raw}" in project ${session.project}.`,
    'A job ID is its number or its exact name, as "floe jobs" lists them.',
  );
}

/** A job without any embedded config strings (they can hold source credentials). */
export function publicJob(job: Job): Job {
  const { streams_config: _streams, ...rest } = job;
  const { config: _s, ...source } = job.source;
  const { config: _d, ...destination } = job.destination;
  return { ...rest, source, destination };
}

/** Newest first. */
export function sortTasks(tasks: Task[]): Task[] {
  return [...tasks].sort((a, b) => Date.parse(b.start_time) - Date.parse(a.start_time));
}

export function pickTask(tasks: Task[], wanted: string | undefined, id: number): Task {
  const sorted = sortTasks(tasks);
  if (sorted.length === 0) throw new FloeError(`Job ${id} has never run, so it has no logs.`);
  if (wanted === undefined) return sorted[0] as Task;
  const byPath = sorted.find((t) => t.file_path === wanted);
  if (byPath) return byPath;
  const index = /^\d+$/.test(wanted) ? Number(wanted) : Number.NaN;
  const byIndex = sorted[index - 1];
  if (byIndex) return byIndex;
  throw new FloeError(
    `Job ${id} has no run "${wanted}".`,
    `It has ${sorted.length} run(s): use --task 1 (latest) to ${sorted.length}, or a file path from "floe jobs tasks ${id}".`,
  );
}
