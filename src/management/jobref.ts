// A job named on the command line: its number, or its name in the project's list. A name must match
// exactly (one job); several jobs of that name, or none but similar ones, are listed for the user to
// choose from by number.
import type { Job } from './types.js';

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
