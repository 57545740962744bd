// A project's jobs: the list, one job's detail (its streams_config summarised as it arrives), and the
// actions on a job (sync now, pause / resume, cancel the running sync).
import { DetailScanner, type StreamsSummary } from '../detail.js';
import { ROUTES } from '../routes.js';
import type { Job, JobDetail } from '../types.js';
import type { Transport } from './transport.js';

/** A job's `streams_config` up to this size is kept (for its tables); a larger one is only counted. */
export const STREAMS_KEEP_BYTES = 1024 * 1024;

export async function listJobs(http: Transport, project: string, signal?: AbortSignal): Promise<Job[]> {
  return (await http.route(ROUTES.listJobs, { project }, { signal })).data;
}

/**
 * The job's detail with its configs; `streams_config` is summarised (detail.ts) and kept only up to
 * STREAMS_KEEP_BYTES (its tables are named from it).
 */
export async function getJob(
  http: Transport,
  project: string,
  id: number,
  signal?: AbortSignal,
): Promise<JobDetail> {
  let streams: StreamsSummary | undefined;
  const { data } = await http.route(
    ROUTES.getJob,
    { project, id },
    {
      signal,
      scan: () => {
        const scanner = new DetailScanner(http.maxBodyBytes, STREAMS_KEEP_BYTES);
        streams = scanner.streams;
        return scanner;
      },
    },
  );
  const { streams_config: _skipped, ...job } = data;
  return { ...job, streams: streams && streams.bytes > 0 ? { ...streams } : undefined };
}

export async function syncNow(http: Transport, project: string, id: number): Promise<string> {
  return (await http.route(ROUTES.syncNow, { project, id }, { body: {} })).message;
}

export async function setActive(
  http: Transport,
  project: string,
  id: number,
  active: boolean,
): Promise<string> {
  return (await http.route(ROUTES.setActive, { project, id }, { body: { activate: active } })).message;
}

/** The OLake UI cancels with a GET. */
export async function cancelRun(http: Transport, project: string, id: number): Promise<string> {
  return (await http.route(ROUTES.cancelRun, { project, id }, {})).message;
}
