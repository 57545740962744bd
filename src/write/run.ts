// The write check's run: its state (what it made, journaled before each create or write), its steps on
// the check's step runner (check/steps.ts: skip after a failure, cancellation, the cleanup always) and the
// calls every step makes (catalog requests, object-store calls). The steps themselves are in
// step-*.ts; chain.ts puts them in order. Internal to src/write: the steps read and change its fields.
import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type ClassifyContext, diagnoseFailure, diagnoseResponse, readJson } from '../catalog/classify.js';
import { HttpClient, type HttpRequest, type HttpResponse, NetworkFailure } from '../catalog/http.js';
import { type CatalogSession, serves } from '../catalog/session.js';
import type { ChainOptions, WriteOptions } from '../check/chain.js';
import { memoryJournal, type WriteJournal, type WriteRecord, writeScope } from '../check/journal.js';
import type { SecretScrubber } from '../check/scrub.js';
import { type DeclaredStep, type StepOutcome, StepRunner } from '../check/steps.js';
import type { Diagnosis, Emit, Leftover } from '../check/types.js';
import type { Values } from '../destination/fields.js';
import { parseLossless } from '../text/json.js';
import { operationText, privilegeAdvice, type WriteOperation, writeDiagnosis } from './diagnoses.js';
import type { DataFileFacts, RawRow } from './files.js';
import { objectPath } from './paths.js';
import { openWriteStore, type WriteStore } from './store.js';
import { readTable, type SnapshotId, type TableFacts } from './table.js';

export const WRITE_STEPS = [
  { id: 'write.namespace', title: 'Namespace (create if missing)' },
  { id: 'write.table', title: 'Create a table (raw schema)' },
  { id: 'write.data', title: 'Write a Parquet data file' },
  { id: 'write.commit', title: 'Commit an append' },
  { id: 'write.verify', title: 'Read the record back' },
  { id: 'write.cleanup', title: 'Drop the table and its files' },
] as const;
export type WriteStepId = (typeof WRITE_STEPS)[number]['id'];

/** floe test --cleanup: the one step, over what earlier runs left. */
const CLEANUP_ONLY_TITLE = 'Remove what earlier write checks left';

/** A unique name for the check table, e.g. floe_check_20261126t0512_3fa9c1. */
function checkTableName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 13).toLowerCase();
  return `floe_check_${stamp}_${randomBytes(3).toString('hex')}`;
}

/** What stops a step: its diagnosis (null when cancelled). */
export class StepFailure extends Error {
  constructor(readonly diagnosis: Diagnosis | null) {
    super(diagnosis?.what ?? 'cancelled');
  }
}

/** The steps of a run: each answers its detail or throws (StepFailure); the cleanup runs always. */
export interface WriteSteps {
  bodies: [WriteStepId, (run: WriteRun) => Promise<string>][];
  cleanup: (run: WriteRun) => Promise<void>;
}

export class WriteRun {
  readonly steps: StepRunner<WriteStepId>;
  readonly scrubber: SecretScrubber;
  readonly namespace: string[];
  readonly name = checkTableName();
  http: HttpClient;
  signal: AbortSignal;
  /** The profile's object store (S3 or Cloud Storage): its secrets are scrubbed from the start, it connects on first use. */
  readonly objects: WriteStore;
  table?: TableFacts;
  /** What this run made or may have made, journaled before each create or write (see journal.ts). */
  readonly record: WriteRecord;
  readonly journal: WriteJournal;
  leftovers: Leftover[] = [];
  snapshotId: SnapshotId | null = null;
  committedLocation: string | null = null;
  rows = 0;
  row?: RawRow;
  dataFile?: { url: string; facts: DataFileFacts };

  constructor(
    readonly values: Values,
    readonly opts: ChainOptions & { write: WriteOptions },
    readonly session: CatalogSession,
    /** Where the storage check wrote its probe, for a diagnosis that names both locations. */
    readonly probeLocation: string | null,
  ) {
    this.scrubber = session.scrubber;
    this.objects = openWriteStore(values, {
      emit: opts.emit,
      scrubber: this.scrubber,
      timeoutMs: opts.timeoutMs,
      env: opts.env,
    });
    this.namespace = opts.write.namespace;
    this.signal = opts.signal;
    this.steps = new StepRunner({
      chain: 'write',
      steps: this.declared(),
      emit: opts.emit,
      signal: opts.signal,
      scrub: (text) => this.scrubber.scrub(text),
      scrubDiagnosis: (d) => this.scrubber.scrubDeep(d),
    });
    this.http = this.client(opts.signal);
    this.journal = opts.write.journal ?? memoryJournal();
    this.record = {
      id: randomUUID(),
      ...(opts.shared ? { run: opts.shared.runId } : {}),
      profile: opts.write.profile ?? '',
      host: hostname(),
      pid: process.pid,
      scope: writeScope(values),
      startedAt: new Date().toISOString(),
      namespace: this.namespace,
      createdNamespaces: [],
      table: null,
      location: null,
      tableUuid: null,
      catalogFiles: [],
      objects: [],
      commit: 'none',
      kept: opts.write.keep,
    };
  }

  /** Records the run's state before it makes something (a write to the config folder; synchronous on disk). */
  async note(change: (record: WriteRecord) => void): Promise<void> {
    change(this.record);
    await this.journal.save(this.record);
  }

  client(signal: AbortSignal): HttpClient {
    return new HttpClient({
      emit: this.opts.emit,
      signal,
      timeoutMs: this.opts.timeoutMs,
      scrubber: this.scrubber,
      env: this.opts.env,
      ...(this.session.ca ? { ca: this.session.ca } : {}),
    });
  }

  get emit(): Emit {
    return this.opts.emit;
  }

  /** The run's steps as the runner declares them (the namespace's title names it). */
  private declared(): DeclaredStep<WriteStepId>[] {
    if (this.opts.write.cleanupOnly) return [{ id: 'write.cleanup', title: CLEANUP_ONLY_TITLE }];
    return WRITE_STEPS.map(({ id, title }) =>
      id === 'write.namespace' ? { id, title: `Namespace ${this.namespace.join('.')}` } : { id, title },
    );
  }

  fail(d: Diagnosis | null): never {
    throw new StepFailure(d);
  }

  /** Runs the steps in order, then the cleanup, whatever happened (--cleanup: only the cleanup). */
  async run(steps: WriteSteps): Promise<void> {
    this.steps.begin();
    const bodies = this.opts.write.cleanupOnly
      ? []
      : steps.bodies.map(([id, step]) => [id, () => this.outcome(id, () => step(this))] as const);
    await this.steps.sequence(
      bodies,
      // The title without its parenthesis: the detail has to fit beside the step at 80 columns.
      (title, cancelled) =>
        `not run: “${title.replace(/ \(.*\)$/, '')}” ${cancelled ? 'was cancelled' : 'failed'}`,
      () => steps.cleanup(this).finally(() => this.objects.close()),
    );
    this.report();
  }

  /** A step's body as its outcome: whatever stops it (a bug included), the cleanup still runs and names what is left. */
  private async outcome(id: WriteStepId, body: () => Promise<string>): Promise<StepOutcome> {
    try {
      return { ok: true, detail: await body() };
    } catch (error) {
      return {
        ok: false,
        diagnosis: error instanceof StepFailure ? error.diagnosis : internalError(id, error),
      };
    }
  }

  report(): void {
    this.emit({
      type: 'write',
      result: {
        namespace: this.namespace.join('.'),
        table: this.opts.write.cleanupOnly ? '' : this.name,
        metadataLocation: this.committedLocation ?? this.table?.metadataLocation ?? null,
        snapshotId: this.committedLocation ? this.snapshotId : null,
        rows: this.rows,
        kept: this.opts.write.keep && this.table !== undefined,
        leftovers: this.leftovers,
      },
    });
  }

  // ---- catalog calls -------------------------------------------------------------------------

  ctx(step: WriteStepId): ClassifyContext {
    return this.session.context(step, 'write');
  }

  /** Sends a catalog request; a network failure fails the step (null diagnosis when cancelled). */
  async send(
    step: WriteStepId,
    method: HttpRequest['method'],
    url: string,
    body?: string,
  ): Promise<HttpResponse & { req: HttpRequest }> {
    const target = new URL(url);
    const req: HttpRequest = {
      method,
      url: target,
      headers: {
        ...this.session.headers(target),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body }),
    };
    try {
      const res = await this.http.send(req, this.session.prepare);
      return { ...res, req };
    } catch (error) {
      if (!(error instanceof NetworkFailure)) throw error;
      this.fail(diagnoseFailure(step, req, error, this.scrubber, this.opts.timeoutMs));
    }
  }

  /** A refused catalog request as a diagnosis: a 403 in the catalog's own terms, the rest as the read path reads it. */
  refused(step: WriteStepId, operation: WriteOperation, res: HttpResponse & { req: HttpRequest }): Diagnosis {
    const base = diagnoseResponse(res.req, res, this.ctx(step));
    if (res.status !== 403 || base.code === 'CATALOG_CLOCK_SKEW' || base.code.startsWith('CATALOG_SIGV4'))
      return base;
    // The catalog's error type and message, as the read path read them (scrubbed) into the evidence.
    const { errorCode, extra } = base.evidence;
    const advice = privilegeAdvice({
      preset: this.values.preset,
      operation,
      ...(errorCode ? { errorCode } : {}),
      ...(extra?.message ? { message: extra.message } : {}),
      warehouse: typeof this.values.fields.warehouse === 'string' ? this.values.fields.warehouse : '',
      namespace: this.namespace.join('.'),
    });
    return writeDiagnosis('WRITE_PRIVILEGE_DENIED', step, {
      what: `The catalog refused to ${operationText(operation)} ${operation.endsWith('namespace') ? this.namespace.join('.') : `${this.namespace.join('.')}.${this.name}`} (${res.req.method}, HTTP 403)`,
      cause: advice.cause,
      remedy: advice.remedy,
      evidence: { ...base.evidence, extra: { ...base.evidence.extra, ...advice.extra } },
    });
  }

  need(step: WriteStepId, endpoint: string): void {
    if (serves(this.session, endpoint)) return;
    this.fail(
      writeDiagnosis('WRITE_ENDPOINT_MISSING', step, {
        what: `The catalog does not advertise ${endpoint} in its /v1/config endpoints`,
        evidence: { extra: { advertised: (this.session.endpoints ?? []).join(', ') } },
      }),
    );
  }

  /** The answer's JSON with 64-bit snapshot ids exact, or the step's failure as the read path words it. */
  json(step: WriteStepId, res: HttpResponse & { req: HttpRequest }): unknown {
    const read = readJson(res.req, res, this.ctx(step), parseLossless);
    if ('diagnosis' in read) this.fail(read.diagnosis);
    return read.value;
  }

  tableFacts(step: WriteStepId, res: HttpResponse & { req: HttpRequest }): TableFacts {
    const facts = readTable(this.json(step, res));
    if ('problem' in facts)
      this.fail(
        writeDiagnosis('WRITE_BAD_TABLE_RESPONSE', step, {
          what: `${res.req.method} ${this.scrubber.scrub(res.req.url.pathname)} answered a table that ${facts.problem}`,
          evidence: { status: res.status, url: this.scrubber.scrub(res.req.url.toString()) },
        }),
      );
    // Credentials a catalog vends with the table are secrets from here on; floe writes with the profile's own.
    for (const [key, value] of Object.entries(facts.config))
      if (/secret|token|key|credential|password/i.test(key)) this.scrubber.add(value);
    return facts;
  }
}

/** An unexpected error in a step (a bug, an answer of a shape nothing expected) as the step's diagnosis. */
function internalError(step: WriteStepId, error: unknown): Diagnosis {
  return {
    code: 'CHECK_INTERNAL_ERROR',
    step,
    what: 'The write check stopped on an unexpected error; what it made is cleaned up as after any failure',
    cause: (error instanceof Error ? error.message : String(error)).slice(0, 300),
    remedy: 'This is a bug in floe: please report it with the output of "floe test --write --json".',
    evidence: {},
  };
}

/** Bucket and key of an object URL floe built itself (always a valid object path). */
export function splitUrl(url: string): { bucket: string; key: string } {
  const { bucket, key } = objectPath(url)!;
  return { bucket, key };
}
