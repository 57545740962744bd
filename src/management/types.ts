// Shapes of the OLake UI backend (Gin from olake-ui v0.4.2; Beego in v0.3.x–v0.4.1, same routes and JSON), parsed with zod.
import * as z from 'zod';

export const envelopeSchema = z.object({
  success: z.boolean(),
  message: z.string().default(''),
  data: z.unknown().optional(),
});

const endpointSchema = z.object({
  id: z.number().optional(),
  name: z.string(),
  type: z.string(),
  version: z.string().optional(),
  config: z.string().optional(),
});

export const jobSchema = z.object({
  id: z.number(),
  name: z.string(),
  source: endpointSchema,
  destination: endpointSchema,
  streams_config: z.string().optional(),
  frequency: z.string().default(''),
  last_run_time: z.string().optional(),
  last_run_state: z.string().optional(),
  last_run_type: z.string().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  activate: z.boolean().default(true),
  created_by: z.string().optional(),
  updated_by: z.string().optional(),
  advanced_settings: z.record(z.string(), z.unknown()).optional(),
});
export type Job = z.infer<typeof jobSchema>;

/** A job's detail as floe keeps it: configs included, `streams_config` only summarised. */
export type JobDetail = Omit<Job, 'streams_config'> & {
  /** `config`: the `streams_config` itself when small enough to keep (client/jobs.ts STREAMS_KEEP_BYTES). */
  streams?: { bytes: number; selected: number; config?: string };
};

export const taskSchema = z.object({
  runtime: z.string().default(''),
  start_time: z.string(),
  status: z.string(),
  file_path: z.string(),
  job_type: z.string().optional(),
});
export type Task = z.infer<typeof taskSchema>;

export const logLineSchema = z.object({ level: z.string(), time: z.string(), message: z.string() });
export type LogLine = z.infer<typeof logLineSchema>;

export const logPageSchema = z.object({
  logs: z.array(logLineSchema),
  older_cursor: z.number(),
  newer_cursor: z.number(),
  has_more_older: z.boolean(),
  has_more_newer: z.boolean(),
});
export type LogPage = z.infer<typeof logPageSchema>;

export interface LogQuery {
  cursor?: number;
  limit?: number;
  direction?: 'older' | 'newer';
}

/** What the jobs browser and commands need from the management API. */
export interface JobsApi {
  listJobs(project: string, signal?: AbortSignal): Promise<Job[]>;
  getJob(project: string, id: number, signal?: AbortSignal): Promise<JobDetail>;
  listTasks(project: string, id: number, signal?: AbortSignal): Promise<Task[]>;
  taskLogs(project: string, id: number, task: Task, query?: LogQuery, signal?: AbortSignal): Promise<LogPage>;
  /** Returns the server's message. */
  syncNow(project: string, id: number): Promise<string>;
  setActive(project: string, id: number, active: boolean): Promise<string>;
  cancelRun(project: string, id: number): Promise<string>;
}

/** Why a management call failed, for screens and exit codes. */
export type ManagementErrorKind =
  | 'unauthorized' // 401: bad credentials or an expired session
  | 'bad-request' // 400
  | 'not-found' // 404
  | 'conflict' // 409
  | 'server' // 5xx with a JSON envelope
  | 'bad-response' // HTML, garbage, too large, or not the envelope
  | 'network' // DNS, refused, TLS, timeout
  | 'cancelled';

export class ManagementError extends Error {
  constructor(
    readonly kind: ManagementErrorKind,
    message: string,
    readonly status?: number,
    /** The server's own `message`, when it sent the envelope. */
    readonly serverMessage?: string,
  ) {
    super(message);
  }
}

export const loginDataSchema = z.object({ username: z.string() }).partial();

export const connectionTestSchema = z.object({
  connection_result: z.object({ status: z.string(), message: z.string().default('') }),
  logs: z.array(logLineSchema).default([]),
});
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

const destinationJobSchema = z.object({
  id: z.number(),
  name: z.string(),
  activate: z.boolean().optional(),
  source_name: z.string().optional(),
  source_type: z.string().optional(),
  last_run_time: z.string().optional(),
  last_run_state: z.string().optional(),
});

/** An item of GET …/destinations (and GET …/destinations/:id): `config` is destination.json as a string. */
export const destinationSchema = z.object({
  id: z.number(),
  name: z.string(),
  type: z.string(),
  version: z.string().default(''),
  config: z.string().default(''),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  jobs: z
    .array(destinationJobSchema)
    .nullish()
    .transform((v) => v ?? []),
});
export type Destination = z.infer<typeof destinationSchema>;

export const versionsSchema = z.object({ version: z.array(z.string()) });

export const uniqueSchema = z.object({ unique: z.boolean() });

/** The body of `POST …/destinations` and `…/destinations/test`; `config` is destination.json as a string. */
export interface DestinationRequest {
  name: string;
  type: 'iceberg';
  version: string;
  config: string;
}
