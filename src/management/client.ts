// The OLake UI client every command and screen uses: one origin's transport (client/transport.ts: undici,
// the session cookie, the envelope, errors in words, client/errors.ts) and its calls by area: signing in
// (client/session.ts), jobs and their actions (client/jobs.ts), runs and logs (client/tasks.ts),
// destinations (client/destinations.ts).
import type { CookieJar } from 'tough-cookie';
import {
  createDestination,
  destinationVersions,
  getDestination,
  isNameUnique,
  listDestinations,
  testDestination,
} from './client/destinations.js';
import { cancelRun, getJob, listJobs, setActive, syncNow } from './client/jobs.js';
import { authCheck, login, uiVersion } from './client/session.js';
import { listTasks, taskLogs } from './client/tasks.js';
import { type ClientOptions, Transport } from './client/transport.js';
import type {
  ConnectionTest,
  Destination,
  DestinationRequest,
  Job,
  JobDetail,
  JobsApi,
  LogPage,
  LogQuery,
  Task,
} from './types.js';

export { normalizeUrl } from './client/errors.js';
export type { ClientOptions } from './client/transport.js';

export class ManagementClient implements JobsApi {
  readonly url: string;
  readonly origin: string;
  readonly jar: CookieJar;
  readonly #http: Transport;

  constructor(options: ClientOptions) {
    this.#http = new Transport(options);
    this.url = this.#http.url;
    this.origin = this.#http.origin;
    this.jar = this.#http.jar;
  }

  set reauthenticate(fn: (() => Promise<boolean>) | undefined) {
    this.#http.reauthenticate = fn;
  }

  /** Ends the connections: waits for requests in flight, unless one was abandoned (then it is cut). */
  close(): Promise<void> {
    return this.#http.close();
  }

  login(username: string, password: string, signal?: AbortSignal): Promise<string> {
    return login(this.#http, username, password, signal);
  }

  authCheck(signal?: AbortSignal): Promise<boolean> {
    return authCheck(this.#http, signal);
  }

  uiVersion(signal?: AbortSignal): Promise<string | undefined> {
    return uiVersion(this.#http, signal);
  }

  listJobs(project: string, signal?: AbortSignal): Promise<Job[]> {
    return listJobs(this.#http, project, signal);
  }

  getJob(project: string, id: number, signal?: AbortSignal): Promise<JobDetail> {
    return getJob(this.#http, project, id, signal);
  }

  listTasks(project: string, id: number, signal?: AbortSignal): Promise<Task[]> {
    return listTasks(this.#http, project, id, signal);
  }

  taskLogs(
    project: string,
    id: number,
    task: Task,
    query?: LogQuery,
    signal?: AbortSignal,
  ): Promise<LogPage> {
    return taskLogs(this.#http, project, id, task, query, signal);
  }

  syncNow(project: string, id: number): Promise<string> {
    return syncNow(this.#http, project, id);
  }

  setActive(project: string, id: number, active: boolean): Promise<string> {
    return setActive(this.#http, project, id, active);
  }

  cancelRun(project: string, id: number): Promise<string> {
    return cancelRun(this.#http, project, id);
  }

  listDestinations(project: string, signal?: AbortSignal): Promise<Destination[]> {
    return listDestinations(this.#http, project, signal);
  }

  getDestination(project: string, id: number, signal?: AbortSignal): Promise<Destination> {
    return getDestination(this.#http, project, id, signal);
  }

  destinationVersions(project: string, signal?: AbortSignal): Promise<string[]> {
    return destinationVersions(this.#http, project, signal);
  }

  testDestination(
    project: string,
    destination: Omit<DestinationRequest, 'name'>,
    signal?: AbortSignal,
  ): Promise<ConnectionTest> {
    return testDestination(this.#http, project, destination, signal);
  }

  createDestination(project: string, destination: DestinationRequest, signal?: AbortSignal): Promise<string> {
    return createDestination(this.#http, project, destination, signal);
  }

  isNameUnique(
    project: string,
    name: string,
    entity: 'job' | 'source' | 'destination',
    signal?: AbortSignal,
  ): Promise<boolean> {
    return isNameUnique(this.#http, project, name, entity, signal);
  }
}
