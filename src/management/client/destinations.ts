// A project's destinations: list, read, the Iceberg writer's versions, the OLake UI's own connection test,
// create, and whether a name is free.
import { reduceCheckFailure } from '../checklog.js';
import { ROUTES } from '../routes.js';
import { type ConnectionTest, type Destination, type DestinationRequest, ManagementError } from '../types.js';
import { uiVersion } from './session.js';
import type { Transport } from './transport.js';

/** `olake check` runs as a Temporal workflow with a 10-minute timeout. */
export const TEST_TIMEOUT_MS = 11 * 60_000;

/** The project's destinations, each with the jobs that use it. */
export async function listDestinations(
  http: Transport,
  project: string,
  signal?: AbortSignal,
): Promise<Destination[]> {
  return (await http.route(ROUTES.listDestinations, { project }, { signal })).data;
}

export async function getDestination(
  http: Transport,
  project: string,
  id: number,
  signal?: AbortSignal,
): Promise<Destination> {
  return (await http.route(ROUTES.getDestination, { project, id }, { signal })).data;
}

export async function destinationVersions(
  http: Transport,
  project: string,
  signal?: AbortSignal,
): Promise<string[]> {
  return (await http.route(ROUTES.destinationVersions, { project }, { query: { type: 'iceberg' }, signal }))
    .data.version;
}

/**
 * POST …/destinations/test. A 400 (the check workflow itself failed; on olake ≥ v0.9.0 with the
 * container's whole log) becomes a FAILED result: its error lines as the message, the log as `logs`.
 * A connection closed unanswered on olake-ui v0.4.2–v0.4.3 is named as their 60 s write timeout.
 */
export async function testDestination(
  http: Transport,
  project: string,
  destination: Omit<DestinationRequest, 'name'>,
  signal?: AbortSignal,
): Promise<ConnectionTest> {
  const started = Date.now();
  try {
    return (
      await http.route(
        ROUTES.testDestination,
        { project },
        {
          body: { ...destination, source_type: '', source_version: '' },
          signal,
          timeoutMs: TEST_TIMEOUT_MS,
        },
      )
    ).data;
  } catch (error) {
    if (error instanceof ManagementError && error.kind === 'bad-request' && error.serverMessage) {
      const reduced = reduceCheckFailure(error.serverMessage);
      return { connection_result: { status: 'FAILED', message: reduced.message }, logs: reduced.logs };
    }
    if (
      error instanceof ManagementError &&
      error.kind === 'network' &&
      /closed the connection/.test(error.message)
    )
      throw await writeTimeout(http, error, Date.now() - started);
    throw error;
  }
}

async function writeTimeout(
  http: Transport,
  error: ManagementError,
  elapsedMs: number,
): Promise<ManagementError> {
  const version = await uiVersion(http);
  const cuts = version !== undefined && /^v?0\.4\.[23]\b/.test(version);
  if (!cuts && elapsedMs < 59_000) return error;
  const seconds = Math.round(elapsedMs / 1000);
  return new ManagementError(
    'server',
    `${http.origin} closed the connection after ${seconds} s without answering the destination test: ${cuts ? `olake-ui ${version}` : 'the OLake UI (or a proxy in front of it)'} cuts every response at 60 s (a server write timeout, hard-coded in olake-ui v0.4.2 and v0.4.3), and the test took longer. Upgrade the OLake UI to v0.4.4 or newer (its write timeout is 600 s), or test the profile from here with "floe test", which runs the same catalog and storage checks locally`,
  );
}

export async function createDestination(
  http: Transport,
  project: string,
  destination: DestinationRequest,
  signal?: AbortSignal,
): Promise<string> {
  return (await http.route(ROUTES.createDestination, { project }, { body: destination, signal })).message;
}

/** POST …/check-unique: false when the name is taken (409). */
export async function isNameUnique(
  http: Transport,
  project: string,
  name: string,
  entity: 'job' | 'source' | 'destination',
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    return (
      await http.route(ROUTES.checkUnique, { project }, { body: { name, entity_type: entity }, signal })
    ).data.unique;
  } catch (error) {
    if (error instanceof ManagementError && error.kind === 'conflict') return false;
    throw error;
  }
}
