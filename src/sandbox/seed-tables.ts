// OLake-shaped tables in a catalog, written by floe's own write path (write/files.ts: Parquet data
// files with OLake's raw schema, Avro manifests and manifest lists; write/store.ts: S3 or Cloud
// Storage) and committed through the REST catalog as appends (seed-snapshot.ts): the sandbox's demo
// tables and the fixtures of `floe tables`' tests. Each commit's manifest list carries every earlier
// manifest forward; equality delete files hold OLake's `_olake_id`.
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { HttpClient, type HttpResponse } from '../catalog/http.js';
import { type CatalogSession, catalogPath } from '../catalog/session.js';
import type { Values } from '../destination/fields.js';
import { parseLossless } from '../text/json.js';
import type {
  IcebergField,
  IcebergSchema,
  ManifestEntryInput,
  ManifestFileInput,
  RawRow,
} from '../write/files.js';
import { objectPath } from '../write/paths.js';
import { openWriteStore, type WriteStore } from '../write/store.js';
import { createTableRequest, readTable, type TableFacts } from '../write/table.js';
import {
  type AddedFiles,
  appendRequest,
  newSnapshotId,
  positionDeleteFile,
  snapshotSummary,
  zeroTotals,
} from './seed-snapshot.js';

type Files = typeof import('../write/files.js');

/** A created table, with its `_olake_id` field and the schema of its equality delete files. */
interface NewTable extends TableFacts {
  idField: IcebergField;
  equalitySchema: IcebergSchema;
}

export interface SeedCommit {
  /** Data files added, each with `rows` records. */
  files: number;
  rows: number;
  /** Equality delete files added, each with `rows` deleted ids. */
  equalityDeletes?: { files: number; rows: number };
  /** Position delete files added, each with `rows` positions. */
  positionDeletes?: { files: number; rows: number };
  /** The snapshot's time. */
  timestampMs: number;
}

export interface SeedTable {
  namespace: string[];
  name: string;
  commits: SeedCommit[];
  /** Leave the Iceberg totals out of every summary (writers may): readers must go to the manifests. */
  noTotals?: boolean;
  properties?: Record<string, string>;
}

export interface SeededTable {
  namespace: string[];
  name: string;
  metadataLocation: string;
}

export interface SeedOptions {
  values: Values;
  session: CatalogSession;
  signal: AbortSignal;
  timeoutMs?: number;
}

class Seeder {
  private readonly http: HttpClient;
  private store?: WriteStore;

  constructor(private readonly opts: SeedOptions) {
    // Eight puts at once, each (and its S3 or HTTP call) listening to the signal, beside a catalog request.
    setMaxListeners(32, opts.signal);
    this.http = new HttpClient({
      emit: () => {},
      signal: opts.signal,
      timeoutMs: opts.timeoutMs ?? 10_000,
      scrubber: opts.session.scrubber,
      env: opts.session.env,
      maxBodyBytes: 16 * 1024 * 1024,
    });
  }

  private async send(method: 'GET' | 'POST', url: string, body?: unknown): Promise<HttpResponse> {
    const target = new URL(url);
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    return this.http.send(
      {
        method,
        url: target,
        headers: {
          ...this.opts.session.headers(target),
          ...(text === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(text === undefined ? {} : { body: text }),
      },
      this.opts.session.prepare,
    );
  }

  /** Through the write check's store (S3 or Cloud Storage, as the profile's storage says). */
  private async put(url: string, bytes: Uint8Array): Promise<void> {
    this.store ??= openWriteStore(this.opts.values, {
      emit: () => {},
      scrubber: this.opts.session.scrubber,
      timeoutMs: this.opts.timeoutMs ?? 10_000,
      env: this.opts.session.env,
    });
    const path = objectPath(url);
    if (!path) throw new Error(`not an object location: ${url}`);
    await this.store.put(path.bucket, path.key, bytes, this.opts.signal);
  }

  async namespace(levels: string[]): Promise<void> {
    for (let depth = 1; depth <= levels.length; depth++) {
      const res = await this.send('POST', catalogPath(this.opts.session, null), {
        namespace: levels.slice(0, depth),
        properties: {},
      });
      if (res.status !== 200 && res.status !== 409)
        throw new Error(
          `creating namespace ${levels.slice(0, depth).join('.')}: HTTP ${res.status} ${res.body.slice(0, 200)}`,
        );
    }
  }

  /** Creates the table with OLake's raw schema; what its commits need of it. */
  private async create(spec: SeedTable, files: Files): Promise<NewTable> {
    const request = createTableRequest(spec.name, files.olakeRawSchema(true));
    request.properties = { ...(request.properties as Record<string, string>), ...spec.properties };
    const created = await this.send(
      'POST',
      catalogPath(this.opts.session, spec.namespace, 'tables'),
      request,
    );
    if (created.status !== 200)
      throw new Error(`creating ${spec.name}: HTTP ${created.status} ${created.body.slice(0, 200)}`);
    const table = readTable(parseLossless(created.body));
    if ('problem' in table) throw new Error(`creating ${spec.name}: the table ${table.problem}`);
    const idField = table.schema.fields.find((f) => f.name === '_olake_id')!;
    const equalitySchema: IcebergSchema = {
      type: 'struct',
      'schema-id': table.schema['schema-id'],
      fields: [idField],
    };
    return { ...table, idField, equalitySchema };
  }

  /** The commit's data files: one Parquet file per commit, stored under each data file's own path. */
  private async dataFiles(
    files: Files,
    table: NewTable,
    c: number,
    commit: SeedCommit,
    snapshotId: number,
    rowIds: { next: number },
  ): Promise<ManifestEntryInput[]> {
    const { schema, location } = table;
    const stamp = new Date(commit.timestampMs);
    const rows: RawRow[] = Array.from({ length: commit.rows }, () => ({
      _olake_id: `id-${rowIds.next++}`,
      _olake_timestamp: stamp,
      _op_type: 'r',
      _cdc_timestamp: stamp,
      data: JSON.stringify({ n: rowIds.next }),
    }));
    const facts = commit.files ? await files.writeDataFile(schema, rows) : null;
    const paths = Array.from(
      { length: commit.files },
      (_, f) =>
        `${location}/data/${String(c).padStart(5, '0')}-${f}-${randomBytes(4).toString('hex')}.parquet`,
    );
    for (let start = 0; start < paths.length; start += 8)
      await Promise.all(paths.slice(start, start + 8).map((path) => this.put(path, facts!.bytes)));
    return paths.map((path) => ({
      status: 1,
      snapshotId,
      sequenceNumber: null,
      content: 0,
      path,
      recordCount: commit.rows,
      sizeInBytes: facts!.bytes.length,
      facts: facts!,
    }));
  }

  /** The commit's equality delete files (of `_olake_id`), then its position delete files. */
  private async deleteFiles(
    files: Files,
    table: NewTable,
    c: number,
    commit: SeedCommit,
    snapshotId: number,
    target: string,
  ): Promise<ManifestEntryInput[]> {
    const { location } = table;
    const deletes: ManifestEntryInput[] = [];
    for (let f = 0; f < (commit.equalityDeletes?.files ?? 0); f++) {
      const rows = Array.from(
        { length: commit.equalityDeletes!.rows },
        (_, i) => ({ _olake_id: `id-${i}` }) as RawRow,
      );
      const facts = await files.writeDataFile(table.equalitySchema, rows);
      const path = `${location}/data/${String(c).padStart(5, '0')}-eq-${f}-${randomBytes(4).toString('hex')}.parquet`;
      await this.put(path, facts.bytes);
      deletes.push({
        status: 1,
        snapshotId,
        sequenceNumber: null,
        content: 2,
        path,
        recordCount: rows.length,
        sizeInBytes: facts.bytes.length,
        equalityIds: [table.idField.id],
      });
    }
    for (let f = 0; f < (commit.positionDeletes?.files ?? 0); f++) {
      const bytes = await positionDeleteFile(target, commit.positionDeletes!.rows);
      const path = `${location}/data/${String(c).padStart(5, '0')}-pos-${f}-${randomBytes(4).toString('hex')}.parquet`;
      await this.put(path, bytes);
      deletes.push({
        status: 1,
        snapshotId,
        sequenceNumber: null,
        content: 1,
        path,
        recordCount: commit.positionDeletes!.rows,
        sizeInBytes: bytes.length,
      });
    }
    return deletes;
  }

  /** A data manifest and a delete manifest for what the commit added, appended to `manifests`. */
  private async writeManifests(
    files: Files,
    table: NewTable,
    added: AddedFiles,
    snapshotId: number,
    sequence: number,
    manifests: ManifestFileInput[],
  ): Promise<void> {
    const { schema, location } = table;
    for (const [kind, entries] of [
      ['data', added.data],
      ['deletes', added.deletes],
    ] as const) {
      if (!entries.length) continue;
      const bytes = await files.writeManifestEntries({
        schema,
        formatVersion: 2,
        specId: 0,
        content: kind,
        entries,
      });
      const path = `${location}/metadata/${randomBytes(8).toString('hex')}-m${kind === 'data' ? 0 : 1}.avro`;
      await this.put(path, bytes);
      manifests.push({
        path,
        length: bytes.length,
        specId: 0,
        content: kind === 'data' ? 0 : 1,
        sequenceNumber: sequence,
        minSequenceNumber: sequence,
        addedSnapshotId: snapshotId,
        addedFilesCount: entries.length,
        existingFilesCount: 0,
        deletedFilesCount: 0,
        addedRowsCount: entries.reduce((n, e) => n + e.recordCount, 0),
        existingRowsCount: 0,
        deletedRowsCount: 0,
      });
    }
  }

  async table(spec: SeedTable): Promise<SeededTable> {
    const files = await import('../write/files.js');
    const table = await this.create(spec, files);
    const { location } = table;
    const manifests: ManifestFileInput[] = [];
    const totals = zeroTotals();
    let parent: number | null = null;
    let metadataLocation = table.metadataLocation ?? '';
    let sequence = table.lastSequenceNumber;
    const rowIds = { next: 0 };
    for (const [c, commit] of spec.commits.entries()) {
      sequence++;
      const snapshotId = newSnapshotId();
      const data = await this.dataFiles(files, table, c, commit, snapshotId, rowIds);
      const target = data[0]?.path ?? manifests[0]?.path ?? `${location}/data/none.parquet`;
      const added: AddedFiles = {
        data,
        deletes: await this.deleteFiles(files, table, c, commit, snapshotId, target),
      };
      await this.writeManifests(files, table, added, snapshotId, sequence, manifests);
      const list = await files.writeManifestListFiles({
        snapshotId,
        parentSnapshotId: parent,
        sequenceNumber: sequence,
        manifests,
      });
      const listPath = `${location}/metadata/snap-${snapshotId}-1-${randomBytes(8).toString('hex')}.avro`;
      await this.put(listPath, list);
      const summary = snapshotSummary(added, totals, spec.noTotals);
      const body = appendRequest(
        { namespace: spec.namespace, name: spec.name, uuid: table.uuid, schemaId: table.schema['schema-id'] },
        { snapshotId, parent, sequence, timestampMs: commit.timestampMs, listPath, summary },
      );
      const res = await this.send(
        'POST',
        catalogPath(this.opts.session, spec.namespace, 'tables', spec.name),
        body,
      );
      if (res.status !== 200)
        throw new Error(`committing to ${spec.name}: HTTP ${res.status} ${res.body.slice(0, 200)}`);
      if (c === spec.commits.length - 1) {
        const committed = readTable(parseLossless(res.body));
        if (!('problem' in committed) && committed.metadataLocation)
          metadataLocation = committed.metadataLocation;
      }
      // Later commits carry this one's manifests as they are (their entries stay ADDED, as Java's
      // MergeAppend keeps a manifest it does not rewrite).
      parent = snapshotId;
    }
    return { namespace: spec.namespace, name: spec.name, metadataLocation };
  }

  async close(): Promise<void> {
    await this.store?.close();
    await this.http.close();
  }
}

/** Creates and fills the tables in order (s3rver resets connections under many parallel writes). */
export async function seedTables(tables: SeedTable[], opts: SeedOptions): Promise<SeededTable[]> {
  const seeder = new Seeder(opts);
  try {
    const seeded: SeededTable[] = [];
    for (const table of tables) {
      await seeder.namespace(table.namespace);
      seeded.push(await seeder.table(table));
    }
    return seeded;
  } finally {
    await seeder.close();
  }
}

const HOUR = 3_600_000;

/**
 * The demo's tables, named after the sandbox jobs' streams (olake-ui/seed.ts TABLES; OLake names the
 * table after the stream, index.ts SANDBOX_TABLE_NAMESPACE says where it goes): a healthy one, a fragmented one, one with CDC equality and position deletes, one with
 * many snapshots, a stale one, and one whose summaries carry no totals.
 */
export function demoTables(nowMs: number, namespace = ['olake_demo']): SeedTable[] {
  const at = (hoursAgo: number) => nowMs - hoursAgo * HOUR;
  return [
    { namespace, name: 'customers', commits: [{ files: 4, rows: 50, timestampMs: at(2) }] },
    {
      namespace,
      name: 'events',
      commits: [
        { files: 40, rows: 2, timestampMs: at(3) },
        { files: 40, rows: 2, timestampMs: at(1) },
      ],
    },
    {
      namespace,
      name: 'orders',
      commits: [
        { files: 6, rows: 40, timestampMs: at(5) },
        {
          files: 2,
          rows: 40,
          equalityDeletes: { files: 3, rows: 10 },
          positionDeletes: { files: 2, rows: 5 },
          timestampMs: at(1),
        },
      ],
    },
    {
      namespace,
      name: 'sessions',
      commits: Array.from({ length: 110 }, (_, i) => ({
        files: 1,
        rows: 3,
        timestampMs: at((109 - i) * 24 + 1),
      })),
    },
    { namespace, name: 'invoices', commits: [{ files: 3, rows: 30, timestampMs: at(24 * 9) }] },
    { namespace, name: 'payments', noTotals: true, commits: [{ files: 5, rows: 20, timestampMs: at(4) }] },
  ];
}
