// Destinations as olake-ui serves them (`handlers/etl/destination.go`, `services/etl/destination.go`):
// created under any project id (no check), names unique per project; a destination lists the jobs
// writing to it; and the name check of jobs, sources and destinations.
import { userOf } from './auth.js';
import { HttpError, isObject, iso, ok, readBody } from './http.js';
import type { EmulatorJob } from './seed.js';
import type { UiState } from './state.js';
import type { Call, EmulatorDestination, Handlers } from './types.js';

function destinationItem(jobs: EmulatorJob[], d: EmulatorDestination) {
  const used = jobs.filter((j) => j.destination.name === d.name);
  return {
    ...d,
    jobs: used.map((j) => ({
      name: j.name,
      id: j.id,
      activate: j.activate,
      source_name: j.source.name,
      source_type: j.source.type,
      last_run_time: j.last_run_time,
      last_run_state: j.last_run_state,
    })),
  };
}

async function createDestination(state: UiState, { req, res, session, projectId }: Call): Promise<void> {
  const { destinations } = state;
  const username = userOf(session);
  const body = await readBody(req);
  if (
    !isObject(body) ||
    !body.name ||
    !body.type ||
    !body.version ||
    typeof body.config !== 'string' ||
    !body.config
  )
    throw new HttpError(400, 'failed to validate request: name, type, version and config are required');
  if (body.type !== 'iceberg' && body.type !== 'parquet')
    throw new HttpError(
      400,
      `failed to validate request: invalid destination type '${body.type}', supported destinations are: [parquet iceberg]`,
    );
  if (destinations.some((d) => d.name === body.name && d.project_id === projectId))
    throw new HttpError(500, `failed to create destination: destination name '${body.name}' is not unique`);
  const now = iso();
  destinations.push({
    id: destinations.reduce((m, d) => Math.max(m, d.id), 0) + 1,
    name: String(body.name),
    type: String(body.type),
    version: String(body.version),
    config: body.config,
    created_at: now,
    updated_at: now,
    created_by: username,
    updated_by: username,
    project_id: projectId,
  });
  return ok(res, `destination ${body.name} created successfully`, body);
}

async function checkUnique(state: UiState, { req, res, projectId, mine }: Call): Promise<void> {
  const body = await readBody(req);
  if (!isObject(body) || !body.name || !['job', 'source', 'destination'].includes(String(body.entity_type)))
    throw new HttpError(400, 'failed to validate request: name and entity_type are required');
  const scoped = mine ? state.jobs : [];
  const names =
    body.entity_type === 'destination'
      ? state.destinations.filter((d) => d.project_id === projectId).map((d) => d.name)
      : body.entity_type === 'job'
        ? scoped.map((j) => j.name)
        : scoped.map((j) => j.source.name);
  if (names.includes(String(body.name)))
    throw new HttpError(409, `${body.entity_type} name '${body.name}' is not unique`);
  return ok(res, 'name is unique', { unique: true });
}

export function destinationHandlers(
  state: UiState,
): Pick<
  Handlers,
  'listDestinations' | 'destinationVersions' | 'getDestination' | 'createDestination' | 'checkUnique'
> {
  return {
    listDestinations: ({ res, projectId }) =>
      ok(
        res,
        'destinations listed successfully',
        state.destinations
          .filter((d) => d.project_id === projectId)
          .map((d) => destinationItem(state.jobs, d)),
      ),
    destinationVersions: ({ res, url }) => {
      const type = url.searchParams.get('type');
      if (type !== 'iceberg' && type !== 'parquet')
        throw new HttpError(400, 'failed to validate request: type is required');
      return ok(res, 'destination versions retrieved successfully', { version: state.versions });
    },
    getDestination: ({ res, params }) => {
      const dest = state.destinations.find((d) => String(d.id) === params.id);
      if (!dest)
        throw new HttpError(404, `failed to get destination: destination not found: id ${params.id}`);
      return ok(res, `destination '${dest.id}' retrieved successfully`, destinationItem(state.jobs, dest));
    },
    createDestination: (call) => createDestination(state, call),
    checkUnique: (call) => checkUnique(state, call),
  };
}
