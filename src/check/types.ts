// Progress events and diagnoses shared by the catalog client, the storage probe, the orchestrator,
// the test screen and `floe test --json`.
import * as z from 'zod';

export const STEP_STATES = ['pending', 'running', 'ok', 'failed', 'skipped', 'cancelled'] as const;
export type StepState = (typeof STEP_STATES)[number];

export const stepSchema = z.object({
  /** Stable id, e.g. `catalog.connect`, `catalog.config`, `storage.put`. */
  id: z.string(),
  /** `catalog` or `storage`: the two chains run concurrently. */
  chain: z.enum(['catalog', 'storage']),
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

export type CheckEvent =
  | { type: 'step'; step: Step }
  | { type: 'diagnosis'; diagnosis: Diagnosis }
  | { type: 'trace'; entry: TraceEntry }
  | { type: 'warning'; message: string };

export const checkReportSchema = z.object({
  ok: z.boolean(),
  steps: z.array(stepSchema),
  diagnoses: z.array(diagnosisSchema),
  warnings: z.array(z.string()).default([]),
});
export type CheckReport = z.infer<typeof checkReportSchema>;

export type Emit = (event: CheckEvent) => void;

/** A location the catalog's own config names, e.g. Polaris `default-base-location`. */
export interface CatalogLocation {
  /** `s3://…` (or `gs://…`). */
  url: string;
  /** The config property it came from. */
  property: string;
}

/** What one chain learns that the other may need, while both run. */
export interface SharedFacts {
  /** Resolves once the catalog's config was read (or could not be): its data location, or null. */
  catalogLocation: Promise<CatalogLocation | null>;
  setCatalogLocation(location: CatalogLocation | null): void;
}

export function sharedFacts(): SharedFacts {
  let resolve: (location: CatalogLocation | null) => void = () => {};
  const catalogLocation = new Promise<CatalogLocation | null>((r) => {
    resolve = r;
  });
  return { catalogLocation, setCatalogLocation: (location) => resolve(location) };
}

export interface ChainOptions {
  emit: Emit;
  signal: AbortSignal;
  /** Per-request timeout. */
  timeoutMs: number;
  /** Storage only: skip PutObject/GetObject/DeleteObject. */
  readOnly?: boolean;
  /** Shared between the chains of one run; absent when a chain runs alone. */
  shared?: SharedFacts;
  /** Catalog only: follow an overrides.uri from https to http even with the bearer token attached. */
  allowInsecureUriOverride?: boolean;
}

/**
 * One half of the connection test. It first emits all its steps as `pending`, then runs them,
 * emitting each state change and a diagnosis for each failure. It never throws; when `signal`
 * aborts it stops and emits its unfinished steps as `cancelled`.
 */
export type Chain = (values: import('../destination/fields.js').Values, opts: ChainOptions) => Promise<void>;
