// Every route of the OLake UI the client calls, with the schema of the `data` its answer carries in the
// {success, message, data} envelope. The client reads method, path and schema from here, and the hostile
// walk (test/e2e/hostile-walk.test.ts) answers each route with an instance generated from its schema:
// a route or field added here is covered there.
import * as z from 'zod';
import {
  connectionTestSchema,
  destinationSchema,
  jobSchema,
  logPageSchema,
  taskSchema,
  uniqueSchema,
  versionsSchema,
} from './types.js';

/** A list the server may send as `null` (Go's nil slice), read as empty. */
const nullableArray = <S extends z.ZodType>(item: S) =>
  z
    .array(item)
    .nullish()
    .transform((v) => v ?? []);
/** Routes whose answer carries only the envelope's message. */
const noData = z.unknown();
const telemetrySchema = z.object({ version: z.string().default('') }).partial();

export interface ManagementRoute {
  method: 'GET' | 'POST';
  /** `:name` marks a parameter (`:project`, `:id`, `:file`), filled in URL-encoded. */
  path: string;
  data: z.ZodType;
}

const PROJECT = '/api/v1/project/:project';

export const ROUTES = {
  login: { method: 'POST', path: '/login', data: noData },
  authCheck: { method: 'GET', path: '/auth/check', data: noData },
  telemetry: { method: 'GET', path: '/telemetry-id', data: telemetrySchema },
  listJobs: { method: 'GET', path: `${PROJECT}/jobs`, data: nullableArray(jobSchema) },
  getJob: { method: 'GET', path: `${PROJECT}/jobs/:id`, data: jobSchema },
  listTasks: { method: 'GET', path: `${PROJECT}/jobs/:id/tasks`, data: nullableArray(taskSchema) },
  taskLogs: { method: 'POST', path: `${PROJECT}/jobs/:id/tasks/:file/logs`, data: logPageSchema },
  syncNow: { method: 'POST', path: `${PROJECT}/jobs/:id/sync`, data: noData },
  setActive: { method: 'POST', path: `${PROJECT}/jobs/:id/activate`, data: noData },
  /** The OLake UI cancels with a GET. */
  cancelRun: { method: 'GET', path: `${PROJECT}/jobs/:id/cancel`, data: noData },
  listDestinations: {
    method: 'GET',
    path: `${PROJECT}/destinations`,
    data: nullableArray(destinationSchema),
  },
  destinationVersions: { method: 'GET', path: `${PROJECT}/destinations/versions`, data: versionsSchema },
  getDestination: { method: 'GET', path: `${PROJECT}/destinations/:id`, data: destinationSchema },
  testDestination: { method: 'POST', path: `${PROJECT}/destinations/test`, data: connectionTestSchema },
  createDestination: { method: 'POST', path: `${PROJECT}/destinations`, data: noData },
  checkUnique: { method: 'POST', path: `${PROJECT}/check-unique`, data: uniqueSchema },
} as const satisfies Record<string, ManagementRoute>;

/** `route`'s path with each `:name` replaced by `params[name]`, URL-encoded. */
export function routePath(route: ManagementRoute, params: Record<string, string | number> = {}): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`routePath: no value for :${name} of ${route.path}`);
    return encodeURIComponent(String(value));
  });
}
