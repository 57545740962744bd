// Progress events and diagnoses shared by the catalog client, the storage probe, the orchestrator,
// the test screen and `floe test --json`.
import * as z from 'zod';

/** `warning`: done, with something to see to (the write check's cleanup left things behind); counts as passed. */
export const STEP_STATES = ['pending', 'running', 'ok', 'warning', 'failed', 'skipped', 'cancelled'] as const;
export type StepState = (typeof STEP_STATES)[number];

export const stepSchema = z.object({
  /** Stable id, e.g. `catalog.connect`, `catalog.config`, `storage.put`. */
  id: z.string(),
  /** `catalog` and `storage` run concurrently; `write` (floe test --write) once `catalog` has ended. */
  chain: z.enum(['catalog', 'storage', 'write']),
  title: z.string(),
  state: z.enum(STEP_STATES),
  durationMs: z.number().optional(),
  /** One line of what was found, e.g. `prefix "warehouse-1", 3 overrides`. Never a secret. */
  detail: z.string().optional(),
});
export type Step = z.infer<typeof stepSchema>;

export const diagnosisSchema = z.object({
  /** Stable code, e.g. `CATALOG_DNS`, `S3_ACCESS_DENIED_WRITE`; listed in docs/diagnoses.md. */
  code: z.string(),
  step: z.string(),
  /** What failed, one line. */
  what: z.string(),
  /** Likely cause. */
  cause: z.string(),
  /** What to do about it. */
  remedy: z.string(),
  evidence: z.object({
    status: z.number().optional(),
    errorCode: z.string().optional(),
    requestId: z.string().optional(),
    /** The URL with secrets (query credentials, userinfo) removed. */
    url: z.string().optional(),
    /** Further facts, e.g. the SigV4 credential scope used. */
    extra: z.record(z.string(), z.string()).optional(),
  }),
});
export type Diagnosis = z.infer<typeof diagnosisSchema>;

/** One HTTP exchange for the verbose trace; header values that carry secrets are redacted. */
export interface TraceEntry {
  method: string;
  url: string;
  status?: number;
  durationMs: number;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  error?: string;
  /** The proxy the request went through (HTTPS_PROXY / HTTP_PROXY), without credentials. */
  proxy?: string;
}

/** Something a write check made that its cleanup did not remove, and how to remove it. */
export const leftoverSchema = z.object({
  kind: z.enum(['table', 'namespace', 'object']),
  /** `ns.table`, `ns`, or the object's URL. */
  name: z.string(),
  /** Why it is still there, e.g. the catalog refused the drop, or the commit's outcome is unknown. */
  why: z.string(),
  /** The command or grant that removes it. */
  remove: z.string(),
});
export type Leftover = z.infer<typeof leftoverSchema>;

/** What the write check made (floe test --write): the table, its commit, and whether it was kept. */
export const writeResultSchema = z.object({
  namespace: z.string(),
  table: z.string(),
  /** The table's metadata file after floe's commit (or after its creation, if the commit failed). */
  metadataLocation: z.string().nullable(),
  /** The snapshot floe committed (a decimal string: snapshot ids are 64-bit). */
  snapshotId: z.string().nullable(),
  /** Records read back from the committed data file. */
  rows: z.number(),
  /** --keep: the table was left in place. */
  kept: z.boolean(),
  /** What this run, or an earlier one of the same catalog and store, left behind (the exit code stays 0). */
  leftovers: z.array(leftoverSchema).default([]),
});
export type WriteResult = z.infer<typeof writeResultSchema>;

export type CheckEvent =
  | { type: 'step'; step: Step }
  | { type: 'write'; result: WriteResult }
  | { type: 'diagnosis'; diagnosis: Diagnosis }
  | { type: 'trace'; entry: TraceEntry }
  | { type: 'warning'; message: string };

export const checkReportSchema = z.object({
  ok: z.boolean(),
  steps: z.array(stepSchema),
  diagnoses: z.array(diagnosisSchema),
  warnings: z.array(z.string()).default([]),
  write: writeResultSchema.optional(),
});
export type CheckReport = z.infer<typeof checkReportSchema>;

export type Emit = (event: CheckEvent) => void;
