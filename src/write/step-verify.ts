// The write check's read-back: the table loaded again (main at floe's snapshot) and the data file read
// back holding the record floe wrote.
import { catalogPath } from '../catalog/session.js';
import { writeDiagnosis } from './diagnoses.js';
import { storeCall } from './objects.js';
import { splitUrl, type WriteRun } from './run.js';

export async function verify(run: WriteRun): Promise<string> {
  const url = catalogPath(run.session, run.namespace, 'tables', run.name);
  const res = await run.send('write.verify', 'GET', url);
  if (res.status !== 200) run.fail(run.refused('write.verify', 'load-table', res));
  const loaded = run.tableFacts('write.verify', res);
  const mismatch = (what: string) =>
    run.fail(
      writeDiagnosis('WRITE_READBACK_MISMATCH', 'write.verify', {
        what,
        evidence: { extra: { table: `${run.namespace.join('.')}.${run.name}` } },
      }),
    );
  if (loaded.mainSnapshot !== run.snapshotId)
    mismatch(
      `The table’s main branch points at ${loaded.mainSnapshot ?? 'no snapshot'}, not at floe’s snapshot ${run.snapshotId}`,
    );
  const data = run.dataFile!;
  const { bucket, key } = splitUrl(data.url);
  const bytes = await storeCall(run, 'write.verify', 'get', data.url, (store, signal) =>
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
  const sent = run.row!;
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
  run.rows = rows.length;
  return `snapshot ${run.snapshotId} is current; ${rows.length} record read back`;
}
