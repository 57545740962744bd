// The write check's data step: the table's location must be fresh (nothing but the catalog's metadata),
// then one Parquet file with OLake's check record is written there.
import { randomUUID } from 'node:crypto';
import { parseGsPath } from '../storage/gcs.js';
import { parseS3Path } from '../storage/s3path.js';
import { writeDiagnosis } from './diagnoses.js';
import { put, storeCall } from './objects.js';
import { objectPath } from './paths.js';
import { StepFailure, type WriteRun, type WriteStepId } from './run.js';

/** Keys a listing of a new table's location shows when it is not empty. */
const LISTED_KEYS = 5;

/**
 * The table location as bucket, key prefix and base URL in the location's own scheme (s3a:// stays
 * s3a://), or the step's failure: a location the profile's store cannot reach (gs:// with S3 keys,
 * s3:// with a service-account key, another file system).
 */
export function tableBucket(
  run: WriteRun,
  step: WriteStepId,
): { bucket: string; prefix: string; base: string } {
  const location = run.table!.location;
  const kind = run.values.storage === 'gcs' ? 'gs' : 's3';
  const scheme = /^(s3a?|gs):\/\//.exec(location)?.[1];
  const parsed = scheme === 'gs' ? parseGsPath(location) : scheme ? parseS3Path(location) : null;
  if (!parsed || (scheme === 'gs') !== (kind === 'gs'))
    run.fail(
      writeDiagnosis('WRITE_LOCATION_UNSUPPORTED', step, {
        what: `The catalog put the table at ${location}, which is not ${kind === 'gs' ? 'a gs:// location (the profile’s storage is Google Cloud Storage)' : 'an s3:// location (the profile’s storage is S3)'}`,
        evidence: { extra: { tableLocation: location } },
      }),
    );
  return { ...parsed, base: `${scheme}://${parsed.bucket}/${parsed.prefix}` };
}

/**
 * A new table's location holds nothing but the catalog's first metadata file. Anything else there is
 * someone's data: OLake would write into it, and floe writes nothing there. A store that refuses the
 * listing (no s3:ListBucket or storage.objects.list: a sync does not need it) is said so, and the check goes on.
 */
async function ensureFreshLocation(
  run: WriteRun,
  base: string,
  bucket: string,
  prefix: string,
): Promise<string> {
  let keys: string[];
  try {
    keys = await storeCall(run, 'write.data', 'list', base, (store, signal) =>
      store.list(bucket, prefix, 50, signal),
    );
  } catch (error) {
    const status = error instanceof StepFailure ? error.diagnosis?.evidence.status : undefined;
    if (status !== 403) throw error;
    return `; could not list the location (no ${run.objects.listPermission}), so its emptiness was not checked`;
  }
  // The catalog's own metadata files (Iceberg's <version>-<uuid>.metadata.json, maybe compressed).
  const own = run.record.catalogFiles.map((f) => objectPath(f)?.key);
  const foreign = keys.filter(
    (key) =>
      !own.includes(objectPath(`${base.slice(0, base.indexOf(':'))}://${bucket}/${key}`)?.key) &&
      !(key.startsWith(`${prefix}metadata/`) && /\.metadata\.json(\.gz)?$/.test(key)),
  );
  if (foreign.length > 0)
    run.fail(
      writeDiagnosis('WRITE_LOCATION_NOT_EMPTY', 'write.data', {
        what: `The catalog put the new table at ${run.table!.location}, which already holds objects (${foreign
          .slice(0, LISTED_KEYS)
          .join(', ')}${foreign.length > LISTED_KEYS ? ', …' : ''}); floe wrote nothing there`,
        evidence: {
          extra: {
            tableLocation: run.table!.location,
            firstKeys: foreign.slice(0, LISTED_KEYS).join(' '),
          },
        },
      }),
    );
  return '';
}

export async function writeData(run: WriteRun): Promise<string> {
  const { bucket, prefix, base } = tableBucket(run, 'write.data');
  const listing = await ensureFreshLocation(run, base, bucket, prefix);
  const { writeDataFile } = await import('./files.js');
  const now = new Date();
  // OLake's check record (iceberg.go Check: CreateRawRecord({"name":"olake"}, _olake_id, _op_type "r")).
  run.row = {
    _olake_id: `floe-check-${randomUUID()}`,
    _olake_timestamp: now,
    _op_type: 'r',
    _cdc_timestamp: now,
    data: JSON.stringify({ name: 'olake' }),
  };
  const facts = await writeDataFile(run.table!.schema, [run.row]);
  // Iceberg Java's OutputFileFactory naming: <location>/data/<partitionId>-<taskId>-<operationId>-<fileCount>.parquet.
  const url = `${base}data/00000-0-${randomUUID()}-00001.parquet`;
  await put(run, 'write.data', url, facts.bytes);
  run.dataFile = { url, facts };
  return `${url} (${facts.bytes.length} bytes, 1 record)${listing}`;
}
