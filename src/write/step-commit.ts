// The write check's commit: the manifest and manifest list, then an append commit (409: reload and
// retry with backoff, as Iceberg clients do); no clear answer leaves the commit's state unknown.
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { diagnoseResponse } from '../catalog/classify.js';
import type { HttpRequest, HttpResponse } from '../catalog/http.js';
import { catalogPath } from '../catalog/session.js';
import type { Diagnosis } from '../check/types.js';
import { writeDiagnosis } from './diagnoses.js';
import { put } from './objects.js';
import { StepFailure, type WriteRun } from './run.js';
import { tableBucket } from './step-data.js';
import { appendCommitRequest, type SnapshotId } from './table.js';

/** Iceberg Java's commit.retry.num-retries default. */
const COMMIT_RETRIES = 4;
/** Iceberg's ErrorHandlers.CommitErrorHandler: these answers throw CommitStateUnknownException. */
const UNKNOWN_COMMIT = [500, 502, 503, 504];
/** Iceberg Java's commit.retry.min-wait-ms default; doubled each retry. */
const RETRY_MIN_WAIT_MS = 100;

/** A positive snapshot id below 2^53 (Java uses random positive longs; any unused id is valid). */
function newSnapshotId(): SnapshotId {
  return String((randomBytes(6).readUIntBE(0, 6) % 2 ** 47) + 1);
}

export async function commit(run: WriteRun): Promise<string> {
  run.need('write.commit', 'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}');
  const { writeManifest, writeManifestList } = await import('./files.js');
  const table = run.table!;
  const { base } = tableBucket(run, 'write.commit');
  const metadataDir = `${base}metadata`;
  const snapshotId = newSnapshotId();
  run.snapshotId = snapshotId;
  const data = run.dataFile!;
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
  await put(run, 'write.commit', manifestUrl, manifest);
  let current = table;
  const url = catalogPath(run.session, run.namespace, 'tables', run.name);
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
    await put(run, 'write.commit', listUrl, list);
    const body = appendCommitRequest({
      table: current,
      namespace: run.namespace,
      name: run.name,
      snapshotId,
      sequenceNumber,
      manifestList: listUrl,
      timestampMs: Date.now(),
      addedFiles: 1,
      addedRecords: data.facts.recordCount,
      addedBytes: data.facts.bytes.length,
    });
    // Until a clear answer, the commit may have landed (Iceberg's CommitStateUnknownException).
    await run.note((r) => {
      r.commit = 'unknown';
    });
    const res = await sendCommit(run, url, body);
    if (res.status === 200) {
      await run.note((r) => {
        r.commit = 'committed';
      });
      const committed = run.tableFacts('write.commit', res);
      run.committedLocation = committed.metadataLocation;
      if (committed.metadataLocation) {
        const location = committed.metadataLocation;
        await run.note((r) => r.catalogFiles.push(location));
      }
      const retried = attempt > 1 ? `, after ${attempt - 1} ${attempt === 2 ? 'retry' : 'retries'}` : '';
      return `snapshot ${snapshotId}, sequence number ${sequenceNumber}${retried}`;
    }
    // Any answer but those of UNKNOWN_COMMIT says the commit did not land.
    if (!UNKNOWN_COMMIT.includes(res.status))
      await run.note((r) => {
        r.commit = 'none';
      });
    if (res.status === 409 && attempt <= COMMIT_RETRIES) {
      // Iceberg's BaseTransaction / SnapshotProducer: refresh the table, then retry with backoff.
      try {
        await sleep(RETRY_MIN_WAIT_MS * 2 ** (attempt - 1), undefined, { signal: run.signal });
      } catch {
        run.fail(null);
      }
      const reload = await run.send('write.commit', 'GET', url);
      if (reload.status !== 200) run.fail(run.refused('write.commit', 'load-table', reload));
      current = run.tableFacts('write.commit', reload);
      continue;
    }
    run.fail(commitFailure(run, res, attempt));
  }
}

/** The commit request: no answer at all (a time-out, a broken connection) leaves its outcome unknown. */
async function sendCommit(
  run: WriteRun,
  url: string,
  body: string,
): Promise<HttpResponse & { req: HttpRequest }> {
  try {
    return await run.send('write.commit', 'POST', url, body);
  } catch (error) {
    if (!(error instanceof StepFailure) || !error.diagnosis) throw error;
    const d = error.diagnosis;
    run.fail(
      writeDiagnosis('WRITE_COMMIT_STATE_UNKNOWN', 'write.commit', {
        what: `The commit got no answer (${d.what}): it may or may not have been applied`,
        evidence: d.evidence,
      }),
    );
  }
}

function commitFailure(run: WriteRun, res: HttpResponse & { req: HttpRequest }, attempt: number): Diagnosis {
  if (res.status === 403) return run.refused('write.commit', 'commit', res);
  const base = diagnoseResponse(res.req, res, run.ctx('write.commit'));
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
