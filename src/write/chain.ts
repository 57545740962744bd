// The write check (floe test --write): after the read-only chains, it does what OLake's own check
// and every sync do (datazip-inc/olake destination/iceberg/iceberg.go Check; the Java writer's
// IcebergUtil.createIcebergTable): the namespace, created if missing; a table with OLake's raw
// schema, format v2; one Parquet data file at the table's own location with the profile's storage
// settings; the manifest, the manifest list and an append commit (409 → reload and retry, as
// Iceberg clients do); the table loaded back and the record read back; then the table dropped with
// purge and every object floe wrote removed. A failure or Ctrl-C still cleans up what was made.
import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ClassifyContext, diagnoseFailure, diagnoseResponse, readJson } from '../catalog/classify.js';
import { HttpClient, type HttpRequest, type HttpResponse, NetworkFailure } from '../catalog/http.js';
import { type CatalogSession, catalogPath, serves } from '../catalog/session.js';
import type { Chain, ChainOptions, WriteOptions } from '../check/chain.js';
import type { SecretScrubber } from '../check/scrub.js';
import type { Diagnosis, Emit, Leftover, Step, StepState } from '../check/types.js';
import type { Values } from '../destination/fields.js';
import { untilAborted } from '../storage/client.js';
import { parseGsPath } from '../storage/gcs.js';
import { parseS3Path } from '../storage/s3path.js';
import { type CleanupOps, cleanUp } from './cleanup.js';
import {
  operationText,
  privilegeAdvice,
  type WriteDiagnosisCode,
  type WriteOperation,
  writeDiagnosis,
} from './diagnoses.js';
import type { DataFileFacts, RawRow } from './files.js';
import { memoryJournal, stillRunning, type WriteJournal, type WriteRecord, writeScope } from './journal.js';
import { objectPath } from './paths.js';
import { openWriteStore, type StoreOperation, type WriteStore } from './store.js';
import {
  appendCommitRequest,
  createTableRequest,
  parseLossless,
  readTable,
  type SnapshotId,
  type TableFacts,
} from './table.js';

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
/** A catalog's error that comes from its own object store (Java's S3FileIO, AWS SDK exceptions). */
const STORAGE_FAILURE = /S3Exception|NoSuchBucket|AccessDenied|Access Denied|StorageException/i;

/** Keys a listing of a new table's location shows when it is not empty. */
const LISTED_KEYS = 5;

/** Iceberg Java's commit.retry.num-retries default. */
const COMMIT_RETRIES = 4;
/** Iceberg's ErrorHandlers.CommitErrorHandler: these answers throw CommitStateUnknownException. */
const UNKNOWN_COMMIT = [500, 502, 503, 504];
/** Iceberg Java's commit.retry.min-wait-ms default; doubled each retry. */
const RETRY_MIN_WAIT_MS = 100;

type Outcome = { ok: true; detail: string } | { ok: false; diagnosis: Diagnosis | null };

/** A unique name for the check table, e.g. floe_check_20261126t0512_3fa9c1. */
function checkTableName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 13).toLowerCase();
  return `floe_check_${stamp}_${randomBytes(3).toString('hex')}`;
}

/** A positive snapshot id below 2^53 (Java uses random positive longs; any unused id is valid). */
function newSnapshotId(): SnapshotId {
  return String((randomBytes(6).readUIntBE(0, 6) % 2 ** 47) + 1);
}

class StepFailure extends Error {
  constructor(readonly diagnosis: Diagnosis | null) {
    super(diagnosis?.what ?? 'cancelled');
  }
}

class WriteRun {
  private readonly steps = new Map<WriteStepId, Step>();
  private readonly scrubber: SecretScrubber;
  private readonly namespace: string[];
  private readonly name = checkTableName();
  private http: HttpClient;
  private signal: AbortSignal;
  /** The profile's object store (S3 or Cloud Storage): its secrets are scrubbed from the start, it connects on first use. */
  private readonly objects: WriteStore;
  private table?: TableFacts;
  /** What this run made or may have made, journaled before each create or write (see journal.ts). */
  private readonly record: WriteRecord;
  private readonly journal: WriteJournal;
  private leftovers: Leftover[] = [];
  private snapshotId: SnapshotId | null = null;
  private committedLocation: string | null = null;
  private rows = 0;
  private row?: RawRow;
  private dataFile?: { url: string; facts: DataFileFacts };

  constructor(
    private readonly values: Values,
    private readonly opts: ChainOptions & { write: WriteOptions },
    private readonly session: CatalogSession,
    /** Where the storage check wrote its probe, for a diagnosis that names both locations. */
    private readonly probeLocation: string | null,
  ) {
    this.scrubber = session.scrubber;
    this.objects = openWriteStore(values, {
      emit: opts.emit,
      scrubber: this.scrubber,
      timeoutMs: opts.timeoutMs,
    });
    this.namespace = opts.write.namespace;
    this.signal = opts.signal;
    this.http = this.client(opts.signal);
    this.journal = opts.write.journal ?? memoryJournal();
    this.record = {
      id: randomUUID(),
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
  private async note(change: (record: WriteRecord) => void): Promise<void> {
    change(this.record);
    await this.journal.save(this.record);
  }

  private client(signal: AbortSignal): HttpClient {
    return new HttpClient({
      emit: this.opts.emit,
      signal,
      timeoutMs: this.opts.timeoutMs,
      scrubber: this.scrubber,
      ...(this.session.ca ? { ca: this.session.ca } : {}),
    });
  }

  private get emit(): Emit {
    return this.opts.emit;
  }

  private set(id: WriteStepId, state: StepState, patch: Pick<Step, 'detail' | 'durationMs'> = {}): void {
    const title =
      id === 'write.namespace'
        ? `Namespace ${this.namespace.join('.')}`
        : id === 'write.cleanup' && this.opts.write.cleanupOnly
          ? CLEANUP_ONLY_TITLE
          : WRITE_STEPS.find((s) => s.id === id)!.title;
    const step: Step = {
      id,
      chain: 'write',
      title,
      state,
      ...patch,
      ...(patch.detail ? { detail: this.scrubber.scrub(patch.detail) } : {}),
    };
    this.steps.set(id, step);
    this.emit({ type: 'step', step });
  }

  private fail(d: Diagnosis | null): never {
    throw new StepFailure(d);
  }

  async run(): Promise<void> {
    if (this.opts.write.cleanupOnly) {
      this.set('write.cleanup', 'pending');
      await this.cleanup().finally(() => this.objects.close());
      this.report();
      return;
    }
    for (const { id } of WRITE_STEPS) this.set(id, 'pending');
    const bodies: [WriteStepId, () => Promise<string>][] = [
      ['write.namespace', () => this.ensureNamespace()],
      ['write.table', () => this.createTable()],
      ['write.data', () => this.writeData()],
      ['write.commit', () => this.commit()],
      ['write.verify', () => this.verify()],
    ];
    let failed: string | null = null;
    for (const [id, body] of bodies) {
      if (failed !== null || this.signal.aborted) {
        this.set(
          id,
          this.signal.aborted ? 'cancelled' : 'skipped',
          failed ? { detail: `not run: ${failed}` } : {},
        );
        continue;
      }
      const outcome = await this.runStep(id, body);
      if (!outcome.ok)
        // The title without its parenthesis: the detail has to fit beside the step at 80 columns.
        failed = `“${this.steps.get(id)?.title.replace(/ \(.*\)$/, '')}” ${this.signal.aborted ? 'was cancelled' : 'failed'}`;
    }
    await this.cleanup().finally(() => this.objects.close());
    this.report();
  }

  private async runStep(id: WriteStepId, body: () => Promise<string>): Promise<Outcome> {
    const started = performance.now();
    this.set(id, 'running');
    let outcome: Outcome;
    try {
      outcome = { ok: true, detail: await body() };
    } catch (error) {
      // Whatever stops a step (a bug included), the cleanup still runs and names what is left.
      outcome = {
        ok: false,
        diagnosis: error instanceof StepFailure ? error.diagnosis : internalError(id, error),
      };
    }
    const durationMs = Math.round(performance.now() - started);
    if (outcome.ok) this.set(id, 'ok', { durationMs, detail: outcome.detail });
    else if (this.signal.aborted) this.set(id, 'cancelled', { durationMs });
    else {
      this.set(id, 'failed', {
        durationMs,
        ...(outcome.diagnosis ? { detail: outcome.diagnosis.what } : {}),
      });
      if (outcome.diagnosis)
        this.emit({ type: 'diagnosis', diagnosis: this.scrubDiagnosis(outcome.diagnosis) });
    }
    return outcome;
  }

  private scrubDiagnosis(d: Diagnosis): Diagnosis {
    return this.scrubber.scrubDeep(d);
  }

  private report(): void {
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

  private ctx(step: WriteStepId): ClassifyContext {
    return this.session.context(step, 'write');
  }

  /** Sends a catalog request; a network failure fails the step (null diagnosis when cancelled). */
  private async send(
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
  private refused(
    step: WriteStepId,
    operation: WriteOperation,
    res: HttpResponse & { req: HttpRequest },
  ): Diagnosis {
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

  private need(step: WriteStepId, endpoint: string): void {
    if (serves(this.session, endpoint)) return;
    this.fail(
      writeDiagnosis('WRITE_ENDPOINT_MISSING', step, {
        what: `The catalog does not advertise ${endpoint} in its /v1/config endpoints`,
        evidence: { extra: { advertised: (this.session.endpoints ?? []).join(', ') } },
      }),
    );
  }

  /** The answer's JSON with 64-bit snapshot ids exact, or the step's failure as the read path words it. */
  private json(step: WriteStepId, res: HttpResponse & { req: HttpRequest }): unknown {
    const read = readJson(res.req, res, this.ctx(step), parseLossless);
    if ('diagnosis' in read) this.fail(read.diagnosis);
    return read.value;
  }

  private tableFacts(step: WriteStepId, res: HttpResponse & { req: HttpRequest }): TableFacts {
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

  /**
   * The namespace, level by level: each missing level is created (Iceberg's createNamespace does not
   * create parents, and catalogs refuse a child without its parent), and remembered for the cleanup.
   */
  private async ensureNamespace(): Promise<string> {
    const step: WriteStepId = 'write.namespace';
    const shown = this.namespace.join('.');
    for (let depth = 1; depth <= this.namespace.length; depth++) {
      const level = this.namespace.slice(0, depth);
      if (serves(this.session, 'GET /v1/{prefix}/namespaces/{namespace}')) {
        const res = await this.send(step, 'GET', catalogPath(this.session, level));
        if (res.status === 200) continue;
        if (res.status !== 404) this.fail(this.refused(step, 'load-namespace', res));
      }
      this.need(step, 'POST /v1/{prefix}/namespaces');
      // Journaled first: a create whose answer never comes may still have made it.
      await this.note((r) => r.createdNamespaces.push(level));
      const res = await this.send(
        step,
        'POST',
        catalogPath(this.session, null),
        JSON.stringify({ namespace: level, properties: {} }),
      );
      if (res.status >= 200 && res.status < 300) continue;
      // 409: it existed (not this run's); any other answer: it was not created.
      await this.note((r) => r.createdNamespaces.pop());
      if (res.status === 409) continue;
      if (res.status === 403) this.fail(this.refused(step, 'create-namespace', res));
      const base = diagnoseResponse(res.req, res, this.ctx(step));
      if (res.status >= 500 || res.status === 401 || res.status === 419) this.fail(base);
      this.fail(
        writeDiagnosis('WRITE_NAMESPACE_REFUSED', step, { what: base.what, evidence: base.evidence }),
      );
    }
    const created = this.record.createdNamespaces.map((level) => level.join('.'));
    return created.length ? `created ${created.join(', ')}` : `${shown} exists`;
  }

  private async createTable(): Promise<string> {
    this.need('write.table', 'POST /v1/{prefix}/namespaces/{namespace}/tables');
    const { olakeRawSchema } = await import('./files.js');
    const identifier = this.values.fields.noIdentifierFields !== true;
    // Journaled by the name floe chose before the request: stopped before the answer, it is dropped by that name.
    await this.note((r) => {
      r.table = this.name;
    });
    const res = await this.send(
      'write.table',
      'POST',
      catalogPath(this.session, this.namespace, 'tables'),
      JSON.stringify(createTableRequest(this.name, olakeRawSchema(identifier))),
    );
    if (res.status !== 200) {
      if (res.status === 403) this.fail(this.refused('write.table', 'create-table', res));
      const base = diagnoseResponse(res.req, res, this.ctx('write.table'));
      if (res.status >= 500 || res.status === 401 || res.status === 419) this.fail(base);
      this.fail(
        writeDiagnosis('WRITE_TABLE_REFUSED', 'write.table', {
          what: base.what,
          evidence: base.evidence,
          ...(STORAGE_FAILURE.test(`${base.evidence.errorCode ?? ''} ${base.evidence.extra?.message ?? ''}`)
            ? {
                cause:
                  'The catalog itself could not write the new table’s metadata file to its location: the catalog’s own storage settings or permissions (not the profile’s keys) fail there.',
                remedy:
                  'Fix the catalog’s storage configuration for that location (its bucket, region, keys or role, e.g. a Polaris catalog’s storage config); OLake’s first sync fails the same way.',
              }
            : {}),
        }),
      );
    }
    this.table = this.tableFacts('write.table', res);
    const table = this.table;
    await this.note((r) => {
      r.location = table.location;
      r.tableUuid = table.uuid;
      if (table.metadataLocation) r.catalogFiles.push(table.metadataLocation);
    });
    return `${this.namespace.join('.')}.${this.name} at ${this.table.location}`;
  }

  // ---- object store --------------------------------------------------------------------------

  /**
   * The table location as bucket, key prefix and base URL in the location's own scheme (s3a:// stays
   * s3a://), or the step's failure: a location the profile's store cannot reach (gs:// with S3 keys,
   * s3:// with a service-account key, another file system).
   */
  private tableBucket(step: WriteStepId): { bucket: string; prefix: string; base: string } {
    const location = this.table!.location;
    const kind = this.values.storage === 'gcs' ? 'gs' : 's3';
    const scheme = /^(s3a?|gs):\/\//.exec(location)?.[1];
    const parsed = scheme === 'gs' ? parseGsPath(location) : scheme ? parseS3Path(location) : null;
    if (!parsed || (scheme === 'gs') !== (kind === 'gs'))
      this.fail(
        writeDiagnosis('WRITE_LOCATION_UNSUPPORTED', step, {
          what: `The catalog put the table at ${location}, which is not ${kind === 'gs' ? 'a gs:// location (the profile’s storage is Google Cloud Storage)' : 'an s3:// location (the profile’s storage is S3)'}`,
          evidence: { extra: { tableLocation: location } },
        }),
      );
    return { ...parsed, base: `${scheme}://${parsed.bucket}/${parsed.prefix}` };
  }

  /** One object-store call with its own timeout; an error becomes the step's diagnosis, with both locations named. */
  private async storeCall<T>(
    step: WriteStepId,
    operation: StoreOperation,
    url: string,
    call: (store: WriteStore, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const store = this.objects;
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const signal = AbortSignal.any([this.signal, timeout]);
    try {
      return await untilAborted(() => call(store, signal), signal);
    } catch (error) {
      if (this.signal.aborted) this.fail(null);
      const { bucket, key } = splitUrl(url);
      const found = store.diagnose(error, { step, operation, bucket, key, timedOut: timeout.aborted });
      this.fail(this.atTableLocation(step, found));
    }
  }

  /** Storage diagnoses that mean "the table's location is not where the keys may write", said so. */
  private atTableLocation(step: WriteStepId, found: Diagnosis): Diagnosis {
    const location = this.table!.location;
    const probe = this.probeLocation ?? '(none: the storage check had no location)';
    const both = { tableLocation: location, probeLocation: probe };
    const codes: Partial<Record<string, WriteDiagnosisCode>> = {
      S3_ACCESS_DENIED_WRITE: 'WRITE_LOCATION_DENIED',
      S3_ACCESS_DENIED_READ: 'WRITE_LOCATION_DENIED',
      S3_NO_SUCH_BUCKET: 'WRITE_LOCATION_BUCKET_MISSING',
      S3_WRONG_REGION: 'WRITE_LOCATION_REGION',
    };
    const code = codes[found.code];
    const evidence = { ...found.evidence, extra: { ...found.evidence.extra, ...both } };
    const elsewhere = this.probeLocation && !location.startsWith(this.probeLocation.replace(/\/+$/, ''));
    // Cloud Storage's own diagnosis names the IAM permission, the account and the grant: it stays, with the table's location.
    if (found.code.startsWith('GCS_') && found.code !== 'GCS_KEY_INVALID')
      return {
        ...found,
        step,
        what: `${found.what} (the table’s location ${location}${elsewhere ? `; the storage check wrote under ${this.probeLocation}` : ''})`,
        evidence,
      };
    if (!code) return { ...found, step, evidence };
    return writeDiagnosis(code, step, {
      what: `${found.what}: the catalog put the table at ${location}${elsewhere ? `, while the storage check wrote under ${this.probeLocation}` : ''}`,
      evidence,
    });
  }

  /**
   * A new table's location holds nothing but the catalog's first metadata file. Anything else there is
   * someone's data: OLake would write into it, and floe writes nothing there. A store that refuses the
   * listing (no s3:ListBucket or storage.objects.list: a sync does not need it) is said so, and the check goes on.
   */
  private async ensureFreshLocation(base: string, bucket: string, prefix: string): Promise<string> {
    let keys: string[];
    try {
      keys = await this.storeCall('write.data', 'list', base, (store, signal) =>
        store.list(bucket, prefix, 50, signal),
      );
    } catch (error) {
      const status = error instanceof StepFailure ? error.diagnosis?.evidence.status : undefined;
      if (status !== 403) throw error;
      return `; could not list the location (no ${this.objects.listPermission}), so its emptiness was not checked`;
    }
    // The catalog's own metadata files (Iceberg's <version>-<uuid>.metadata.json, maybe compressed).
    const own = this.record.catalogFiles.map((f) => objectPath(f)?.key);
    const foreign = keys.filter(
      (key) =>
        !own.includes(objectPath(`${base.slice(0, base.indexOf(':'))}://${bucket}/${key}`)?.key) &&
        !(key.startsWith(`${prefix}metadata/`) && /\.metadata\.json(\.gz)?$/.test(key)),
    );
    if (foreign.length > 0)
      this.fail(
        writeDiagnosis('WRITE_LOCATION_NOT_EMPTY', 'write.data', {
          what: `The catalog put the new table at ${this.table!.location}, which already holds objects (${foreign
            .slice(0, LISTED_KEYS)
            .join(', ')}${foreign.length > LISTED_KEYS ? ', …' : ''}); floe wrote nothing there`,
          evidence: {
            extra: {
              tableLocation: this.table!.location,
              firstKeys: foreign.slice(0, LISTED_KEYS).join(' '),
            },
          },
        }),
      );
    return '';
  }

  private async writeData(): Promise<string> {
    const { bucket, prefix, base } = this.tableBucket('write.data');
    const listing = await this.ensureFreshLocation(base, bucket, prefix);
    const { writeDataFile } = await import('./files.js');
    const now = new Date();
    // OLake's check record (iceberg.go Check: CreateRawRecord({"name":"olake"}, _olake_id, _op_type "r")).
    this.row = {
      _olake_id: `floe-check-${randomUUID()}`,
      _olake_timestamp: now,
      _op_type: 'r',
      _cdc_timestamp: now,
      data: JSON.stringify({ name: 'olake' }),
    };
    const facts = await writeDataFile(this.table!.schema, [this.row]);
    // Iceberg Java's OutputFileFactory naming: <location>/data/<partitionId>-<taskId>-<operationId>-<fileCount>.parquet.
    const url = `${base}data/00000-0-${randomUUID()}-00001.parquet`;
    await this.put('write.data', url, facts.bytes);
    this.dataFile = { url, facts };
    return `${url} (${facts.bytes.length} bytes, 1 record)${listing}`;
  }

  /**
   * Writes one object of floe's. It counts as written (for the cleanup) unless the store refused it
   * outright (a 4xx): a time-out or a broken connection may still have stored it.
   */
  private async put(step: WriteStepId, url: string, bytes: Uint8Array): Promise<void> {
    const { bucket, key } = splitUrl(url);
    await this.note((r) => r.objects.push(url));
    try {
      await this.storeCall(step, 'put', url, (store, signal) => store.put(bucket, key, bytes, signal));
    } catch (error) {
      const status = error instanceof StepFailure ? error.diagnosis?.evidence.status : undefined;
      if (status !== undefined && status >= 400 && status < 500)
        await this.note((r) => r.objects.splice(r.objects.indexOf(url), 1));
      throw error;
    }
  }

  private async commit(): Promise<string> {
    this.need('write.commit', 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}');
    const { writeManifest, writeManifestList } = await import('./files.js');
    const table = this.table!;
    const { base } = this.tableBucket('write.commit');
    const metadataDir = `${base}metadata`;
    const snapshotId = newSnapshotId();
    this.snapshotId = snapshotId;
    const data = this.dataFile!;
    const commitId = randomUUID();
    const manifest = await writeManifest({
      schema: table.schema,
      formatVersion: 2,
      specId: 0,
      snapshotId: Number(snapshotId),
      dataFile: { path: data.url, sizeInBytes: data.facts.bytes.length, facts: data.facts },
    });
    // Iceberg Java SnapshotProducer: <commit uuid>-m<n>.avro and snap-<snapshot id>-<attempt>-<commit uuid>.avro.
    const manifestUrl = `${metadataDir}/${commitId}-m0.avro`;
    await this.put('write.commit', manifestUrl, manifest);
    let current = table;
    const url = catalogPath(this.session, this.namespace, 'tables', this.name);
    for (let attempt = 1; ; attempt++) {
      const sequenceNumber = current.lastSequenceNumber + 1;
      const list = await writeManifestList({
        snapshotId: Number(snapshotId),
        parentSnapshotId: current.mainSnapshot === null ? null : Number(current.mainSnapshot),
        sequenceNumber,
        manifest: {
          path: manifestUrl,
          length: manifest.length,
          specId: 0,
          addedSnapshotId: Number(snapshotId),
          addedFilesCount: 1,
          addedRowsCount: data.facts.recordCount,
        },
      });
      const listUrl = `${metadataDir}/snap-${snapshotId}-${attempt}-${commitId}.avro`;
      await this.put('write.commit', listUrl, list);
      const body = appendCommitRequest({
        table: current,
        namespace: this.namespace,
        name: this.name,
        snapshotId,
        sequenceNumber,
        manifestList: listUrl,
        timestampMs: Date.now(),
        addedFiles: 1,
        addedRecords: data.facts.recordCount,
        addedBytes: data.facts.bytes.length,
      });
      // Until a clear answer, the commit may have landed (Iceberg's CommitStateUnknownException).
      await this.note((r) => {
        r.commit = 'unknown';
      });
      const res = await this.sendCommit(url, body);
      if (res.status === 200) {
        await this.note((r) => {
          r.commit = 'committed';
        });
        const committed = this.tableFacts('write.commit', res);
        this.committedLocation = committed.metadataLocation;
        if (committed.metadataLocation) {
          const location = committed.metadataLocation;
          await this.note((r) => r.catalogFiles.push(location));
        }
        const retried = attempt > 1 ? `, after ${attempt - 1} ${attempt === 2 ? 'retry' : 'retries'}` : '';
        return `snapshot ${snapshotId}, sequence number ${sequenceNumber}${retried}`;
      }
      // Any answer but those of UNKNOWN_COMMIT says the commit did not land.
      if (!UNKNOWN_COMMIT.includes(res.status))
        await this.note((r) => {
          r.commit = 'none';
        });
      if (res.status === 409 && attempt <= COMMIT_RETRIES) {
        // Iceberg's BaseTransaction / SnapshotProducer: refresh the table, then retry with backoff.
        try {
          await sleep(RETRY_MIN_WAIT_MS * 2 ** (attempt - 1), undefined, { signal: this.signal });
        } catch {
          this.fail(null);
        }
        const reload = await this.send('write.commit', 'GET', url);
        if (reload.status !== 200) this.fail(this.refused('write.commit', 'load-table', reload));
        current = this.tableFacts('write.commit', reload);
        continue;
      }
      this.fail(this.commitFailure(res, attempt));
    }
  }

  /** The commit request: no answer at all (a time-out, a broken connection) leaves its outcome unknown. */
  private async sendCommit(url: string, body: string): Promise<HttpResponse & { req: HttpRequest }> {
    try {
      return await this.send('write.commit', 'POST', url, body);
    } catch (error) {
      if (!(error instanceof StepFailure) || !error.diagnosis) throw error;
      const d = error.diagnosis;
      this.fail(
        writeDiagnosis('WRITE_COMMIT_STATE_UNKNOWN', 'write.commit', {
          what: `The commit got no answer (${d.what}): it may or may not have been applied`,
          evidence: d.evidence,
        }),
      );
    }
  }

  private commitFailure(res: HttpResponse & { req: HttpRequest }, attempt: number): Diagnosis {
    if (res.status === 403) return this.refused('write.commit', 'commit', res);
    const base = diagnoseResponse(res.req, res, this.ctx('write.commit'));
    if (res.status === 409)
      return writeDiagnosis('WRITE_COMMIT_CONFLICT', 'write.commit', {
        what: `${base.what} on each of ${attempt} attempts`,
        evidence: base.evidence,
      });
    if (UNKNOWN_COMMIT.includes(res.status))
      return writeDiagnosis('WRITE_COMMIT_STATE_UNKNOWN', 'write.commit', {
        what: base.what,
        evidence: base.evidence,
      });
    if (res.status === 401 || res.status === 419) return base;
    const message = base.evidence.extra?.message;
    return writeDiagnosis('WRITE_COMMIT_REJECTED', 'write.commit', {
      what: `${base.what}${message ? `: ${message}` : ''}`,
      evidence: base.evidence,
    });
  }

  private async verify(): Promise<string> {
    const url = catalogPath(this.session, this.namespace, 'tables', this.name);
    const res = await this.send('write.verify', 'GET', url);
    if (res.status !== 200) this.fail(this.refused('write.verify', 'load-table', res));
    const loaded = this.tableFacts('write.verify', res);
    const mismatch = (what: string) =>
      this.fail(
        writeDiagnosis('WRITE_READBACK_MISMATCH', 'write.verify', {
          what,
          evidence: { extra: { table: `${this.namespace.join('.')}.${this.name}` } },
        }),
      );
    if (loaded.mainSnapshot !== this.snapshotId)
      mismatch(
        `The table’s main branch points at ${loaded.mainSnapshot ?? 'no snapshot'}, not at floe’s snapshot ${this.snapshotId}`,
      );
    const data = this.dataFile!;
    const { bucket, key } = splitUrl(data.url);
    const bytes = await this.storeCall('write.verify', 'get', data.url, (store, signal) =>
      store.get(bucket, key, signal),
    );
    const { readDataFile } = await import('./files.js');
    let rows: Record<string, unknown>[];
    try {
      rows = (await readDataFile(bytes)).rows;
    } catch (error) {
      return mismatch(
        `The data file read back is not the Parquet file floe wrote: ${(error as Error).message}`,
      );
    }
    const sent = this.row!;
    const got = rows[0] ?? {};
    const same =
      rows.length === 1 &&
      got._olake_id === sent._olake_id &&
      got.data === sent.data &&
      got._op_type === sent._op_type &&
      got._olake_timestamp instanceof Date &&
      got._olake_timestamp.getTime() === sent._olake_timestamp.getTime();
    if (!same)
      mismatch(`The data file read back holds ${rows.length} record(s) that differ from the one floe wrote`);
    this.rows = rows.length;
    return `snapshot ${this.snapshotId} is current; ${rows.length} record read back`;
  }

  // ---- cleanup -------------------------------------------------------------------------------

  /** What cleanup.ts needs of this run, bound to the cleanup's own budget. */
  private cleanupOps(budget: AbortSignal): CleanupOps {
    const step: WriteStepId = 'write.cleanup';
    const profile = this.record.profile;
    return {
      send: (method, url) => this.send(step, method, url),
      path: (namespace, table) =>
        table === undefined
          ? catalogPath(this.session, namespace)
          : catalogPath(this.session, namespace, 'tables', table),
      serves: (endpoint) => serves(this.session, endpoint),
      refused: (operation, res) => this.refused(step, operation, res),
      store: () => this.objects,
      budget,
      timeoutMs: this.opts.timeoutMs,
      again: `floe test --cleanup${profile ? ` --profile ${profile}` : ''}`,
    };
  }

  /**
   * Runs even after a failure or Ctrl-C, with its own time budget: this run's things (see cleanup.ts
   * for what may be deleted), then what earlier runs of the same catalog and store left. What stays is
   * a leftover, named with how to remove it: a warning, not a failed check.
   */
  private async cleanup(): Promise<void> {
    const step: WriteStepId = 'write.cleanup';
    // Another floe still running a check on this catalog has its own cleanup to do.
    const earlier = (await this.journal.pending(this.record.scope)).filter(
      (r) => r.id !== this.record.id && !stillRunning(r),
    );
    const own = !this.opts.write.cleanupOnly;
    const made =
      own &&
      (this.record.table !== null ||
        this.record.createdNamespaces.length > 0 ||
        this.record.objects.length > 0);
    const identifier = `${this.namespace.join('.')}.${this.name}`;
    const kept =
      made && this.opts.write.keep && this.table
        ? `kept ${identifier} (--keep); metadata ${this.committedLocation ?? this.table.metadataLocation ?? 'unknown'}`
        : null;
    if (own && (kept || !made)) await this.journal.remove(this.record.id);
    if (earlier.length === 0 && (kept || !made)) {
      this.set(step, 'skipped', {
        detail: kept ?? (own ? 'nothing to clean up' : 'no earlier write check left anything'),
      });
      return;
    }
    const started = performance.now();
    this.set(step, 'running');
    // Ctrl-C stopped the check, not the cleanup: it gets its own signal and a bounded budget.
    const budget = AbortSignal.timeout(Math.min(30_000, 3 * this.opts.timeoutMs));
    this.signal = budget;
    await this.http.close();
    this.http = this.client(budget);
    const ops = this.cleanupOps(budget);
    const done: string[] = kept ? [kept] : [];
    const left: Leftover[] = [];
    for (const record of made && !kept ? [this.record, ...earlier] : earlier) {
      const result = await cleanUp(record, ops);
      const name = record.table
        ? `${record.namespace.join('.')}.${record.table}`
        : record.namespace.join('.');
      if (record === this.record) done.push(...result.done);
      else if (result.done.length > 0)
        done.push(`earlier check ${name} (${record.startedAt}): ${result.done.join(', ')}`);
      left.push(...result.left);
      if (result.remaining) await this.journal.save(result.remaining);
      else await this.journal.remove(record.id);
    }
    await this.http.close();
    const durationMs = Math.round(performance.now() - started);
    this.leftovers = left.map((l) => this.scrubber.scrubDeep(l));
    if (left.length === 0) {
      this.set(step, 'ok', { durationMs, detail: done.join('; ') || 'nothing left' });
      return;
    }
    this.set(step, 'warning', {
      durationMs,
      detail: `left behind: ${left.map((l) => l.name).join(', ')}`,
    });
    for (const l of this.leftovers)
      this.emit({
        type: 'warning',
        message: `WRITE_CLEANUP_INCOMPLETE: left ${l.kind} ${l.name} (${l.why}${budget.aborted ? '; the cleanup ran out of time' : ''}). To remove it: ${l.remove}`,
      });
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
function splitUrl(url: string): { bucket: string; key: string } {
  const { bucket, key } = objectPath(url)!;
  return { bucket, key };
}

/**
 * The write chain. It needs the catalog chain's session (shared facts); without one (the catalog
 * check failed) every step is skipped.
 */
export const writeChain: Chain = async (values, opts) => {
  const session = opts.shared?.catalogSession;
  const write = opts.write;
  if (!session || !write) {
    for (const { id, title } of write?.cleanupOnly
      ? WRITE_STEPS.filter((s) => s.id === 'write.cleanup')
      : WRITE_STEPS)
      opts.emit({
        type: 'step',
        step: {
          id,
          chain: 'write',
          title,
          state: opts.signal.aborted ? 'cancelled' : 'skipped',
          detail: 'not run: the catalog check did not pass',
        },
      });
    return;
  }
  const probe = (await opts.shared?.catalogLocation) ?? null;
  const profileLocation =
    typeof values.fields.dataLocation === 'string' && values.fields.dataLocation
      ? values.fields.dataLocation
      : null;
  const warehouse =
    typeof values.fields.warehouse === 'string' && /^(s3a?|gs):\/\//.test(values.fields.warehouse)
      ? values.fields.warehouse
      : null;
  await new WriteRun(
    values,
    { ...opts, write },
    session,
    profileLocation ?? warehouse ?? probe?.url ?? null,
  ).run();
};
