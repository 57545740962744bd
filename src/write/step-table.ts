// The write check's first two steps: the namespace (each missing level created and journaled) and the
// table, created with OLake's raw schema by the name floe chose (journaled before the request).
import { diagnoseResponse } from '../catalog/classify.js';
import { catalogPath, serves } from '../catalog/session.js';
import { writeDiagnosis } from './diagnoses.js';
import type { WriteRun, WriteStepId } from './run.js';
import { createTableRequest } from './table.js';

/** A catalog's error that comes from its own object store (Java's S3FileIO, AWS SDK exceptions). */
const STORAGE_FAILURE = /S3Exception|NoSuchBucket|AccessDenied|Access Denied|StorageException/i;

/**
 * The namespace, level by level: each missing level is created (Iceberg's createNamespace does not
 * create parents, and catalogs refuse a child without its parent), and remembered for the cleanup.
 */
export async function ensureNamespace(run: WriteRun): Promise<string> {
  const step: WriteStepId = 'write.namespace';
  const shown = run.namespace.join('.');
  for (let depth = 1; depth <= run.namespace.length; depth++) {
    const level = run.namespace.slice(0, depth);
    if (serves(run.session, 'GET /v1/{prefix}/namespaces/{namespace}')) {
      const res = await run.send(step, 'GET', catalogPath(run.session, level));
      if (res.status === 200) continue;
      if (res.status !== 404) run.fail(run.refused(step, 'load-namespace', res));
    }
    run.need(step, 'POST /v1/{prefix}/namespaces');
    // Journaled first: a create whose answer never comes may still have made it.
    await run.note((r) => r.createdNamespaces.push(level));
    const res = await run.send(
      step,
      'POST',
      catalogPath(run.session, null),
      JSON.stringify({ namespace: level, properties: {} }),
    );
    if (res.status >= 200 && res.status < 300) continue;
    // 409: it existed (not this run's); any other answer: it was not created.
    await run.note((r) => r.createdNamespaces.pop());
    if (res.status === 409) continue;
    if (res.status === 403) run.fail(run.refused(step, 'create-namespace', res));
    const base = diagnoseResponse(res.req, res, run.ctx(step));
    if (res.status >= 500 || res.status === 401 || res.status === 419) run.fail(base);
    run.fail(writeDiagnosis('WRITE_NAMESPACE_REFUSED', step, { what: base.what, evidence: base.evidence }));
  }
  const created = run.record.createdNamespaces.map((level) => level.join('.'));
  return created.length ? `created ${created.join(', ')}` : `${shown} exists`;
}

export async function createTable(run: WriteRun): Promise<string> {
  run.need('write.table', 'POST /v1/{prefix}/namespaces/{namespace}/tables');
  const { olakeRawSchema } = await import('./files.js');
  const identifier = run.values.fields.noIdentifierFields !== true;
  // Journaled by the name floe chose before the request: stopped before the answer, it is dropped by that name.
  await run.note((r) => {
    r.table = run.name;
  });
  const res = await run.send(
    'write.table',
    'POST',
    catalogPath(run.session, run.namespace, 'tables'),
    JSON.stringify(createTableRequest(run.name, olakeRawSchema(identifier))),
  );
  if (res.status !== 200) {
    if (res.status === 403) run.fail(run.refused('write.table', 'create-table', res));
    const base = diagnoseResponse(res.req, res, run.ctx('write.table'));
    if (res.status >= 500 || res.status === 401 || res.status === 419) run.fail(base);
    run.fail(
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
  run.table = run.tableFacts('write.table', res);
  const table = run.table;
  await run.note((r) => {
    r.location = table.location;
    r.tableUuid = table.uuid;
    if (table.metadataLocation) r.catalogFiles.push(table.metadataLocation);
  });
  return `${run.namespace.join('.')}.${run.name} at ${run.table.location}`;
}
