// A project's jobs as olake-ui lists and reads them (`services/etl/job.go`): the list has no config
// strings, the detail (buildJobResponse, includeConfig=true) carries `streams_config` and the source and
// destination `config` strings; GetJobByID ignores the project in the path.
import { ok } from './http.js';
import { findJob, publicJob, type UiState } from './state.js';
import type { Handlers } from './types.js';

export function jobHandlers(state: UiState): Pick<Handlers, 'listJobs' | 'getJob'> {
  return {
    listJobs: ({ res, mine }) =>
      ok(
        res,
        'jobs listed successfully',
        (mine ? state.jobs : []).map((j) => publicJob(state, j, false, true)),
      ),
    getJob: ({ res, params, mine }) =>
      ok(
        res,
        `job '${params.id}' retrieved successfully`,
        publicJob(state, findJob(state, params.id), true, mine),
      ),
  };
}
