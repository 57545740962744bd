// The write check's cleanup, for this run and for what earlier runs left (their journal records).
// It deletes only what floe wrote: the table by the name floe chose, floe's own objects by exact key,
// and the catalog's metadata files of that table only when the catalog did not purge them and their
// normalized path lies under the table's own metadata folder. While a commit may have landed and the
// table is still registered, the table's files are kept: deleting them would break a loadable table
// (Iceberg keeps the files when the commit state is unknown).
import type { HttpRequest, HttpResponse } from '../catalog/http.js';
import type { WriteRecord } from '../check/journal.js';
import type { Diagnosis, Leftover } from '../check/types.js';
import { untilAborted } from '../storage/client.js';
import { isInside, objectPath } from './paths.js';
import type { WriteStore } from './store.js';

/** What the cleanup needs of the run: catalog calls and the object store, within its own budget. */
export interface CleanupOps {
  /** A catalog request under the cleanup step; throws on a network failure or time-out. */
  send(method: HttpRequest['method'], url: string): Promise<HttpResponse & { req: HttpRequest }>;
  /** The catalog path of a namespace, or of one of its tables. */
  path(namespace: string[], table?: string): string;
  /** Whether the catalog advertises the route (absent endpoints: all are served). */
  serves(endpoint: string): boolean;
  /** A refused catalog call as a diagnosis in the catalog's terms (its remedy names the grant). */
  refused(operation: 'drop-table' | 'drop-namespace', res: HttpResponse & { req: HttpRequest }): Diagnosis;
  /** The profile's object store (S3 or Cloud Storage). */
  store(): WriteStore;
  /** The cleanup's budget (Ctrl-C stopped the check, not its cleanup). */
  budget: AbortSignal;
  timeoutMs: number;
  /** How the user runs the cleanup again, e.g. `floe test --cleanup --profile prod`. */
  again: string;
}

export interface CleanupResult {
  /** What was removed, for the step's detail. */
  done: string[];
  left: Leftover[];
  /** The record less what was removed; null once nothing of the run is left. */
  remaining: WriteRecord | null;
}

const DROP = 'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}';

/** Runs `fn`; an error it throws becomes the message returned (null when it succeeded). */
async function tried(fn: () => Promise<void>): Promise<string | null> {
  try {
    await fn();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** `aws s3 rm` (or gcloud) for one object, with the endpoint of an S3-compatible store. */
function removeObject(url: string, store: string): string {
  if (url.startsWith('gs://')) return `gcloud storage rm ${url}`;
  const s3url = url.replace(/^s3a:/, 's3:');
  return /^https?:\/\//.test(store) ? `aws s3 rm ${s3url} --endpoint-url ${store}` : `aws s3 rm ${s3url}`;
}

export async function cleanUp(record: WriteRecord, ops: CleanupOps): Promise<CleanupResult> {
  // --keep: the table and its files are the user's now.
  if (record.kept) return { done: [], left: [], remaining: null };
  const done: string[] = [];
  const left: Leftover[] = [];
  const identifier = record.table ? `${record.namespace.join('.')}.${record.table}` : '';
  let dropped = record.table === null;
  let purged = false;

  if (record.table !== null) {
    const table = record.table;
    let refusal: Diagnosis | null = null;
    const failure = await tried(async () => {
      if (!ops.serves(DROP)) throw new Error(`the catalog does not advertise ${DROP}`);
      const url = ops.path(record.namespace, table);
      let res = await ops.send('DELETE', `${url}?purgeRequested=true`);
      purged = true;
      // Polaris refuses purge unless DROP_WITH_PURGE_ENABLED / polaris.config.drop-with-purge.enabled
      // (IcebergCatalogHandler.dropTableWithPurge): drop it without, floe removes the files itself.
      if (res.status === 403 && /unable to purge|drop.with.purge/i.test(res.body)) {
        res = await ops.send('DELETE', url);
        purged = false;
      }
      if (res.status === 404) {
        // Never created (a create stopped before the catalog answered), or already gone.
        purged = false;
        done.push(`no table ${identifier} to drop`);
        return;
      }
      if (res.status !== 204 && res.status !== 200) {
        refusal = ops.refused('drop-table', res);
        throw new Error(refusal.what);
      }
      done.push(
        purged ? 'dropped the table with purge' : 'dropped the table (the catalog has purge turned off)',
      );
    });
    dropped = failure === null;
    if (failure !== null) {
      const grant = (refusal as Diagnosis | null)?.remedy;
      left.push({
        kind: 'table',
        name: identifier,
        why: `${failure}${record.commit === 'none' ? '' : '; it may hold floe’s committed snapshot'}`,
        remove: `${grant ? `${grant}; then ` : ''}${ops.again} (or drop it with purge in an engine, e.g. Spark: DROP TABLE <catalog>.${identifier} PURGE)`,
      });
    }
  }

  // While the table stands with a commit that may have landed, its files belong to it.
  const keepFiles = !dropped && record.commit !== 'none';
  const inLocation = (url: string) => record.location !== null && isInside(url, record.location);
  const metadataFolder = record.location === null ? null : `${record.location}/metadata`;
  const targets = [
    ...record.objects.filter(inLocation),
    // The catalog's own metadata files: only when it did not purge, and only in the table's metadata folder.
    ...(dropped && !purged && metadataFolder
      ? record.catalogFiles.filter((url) => isInside(url, metadataFolder))
      : []),
  ];
  const remaining = new Set<string>();
  let removed = 0;
  if (keepFiles)
    for (const url of targets) {
      remaining.add(url);
      left.push({
        kind: 'object',
        name: url,
        why:
          record.commit === 'unknown'
            ? 'the commit’s outcome is unknown and the table is still registered: the file may be part of it'
            : 'the table is still registered and its snapshot uses the file',
        remove: `drop the table with purge first (${ops.again}); or check it: GET ${ops.path(record.namespace, record.table ?? '')} names its snapshots`,
      });
    }
  else
    for (const url of new Set(targets)) {
      const path = objectPath(url)!;
      const failure = await tried(async () => {
        const store = ops.store();
        // A journal record names the store it wrote to (its scope); a URL of another store is not this one's.
        if ((path.scheme === 'gs') !== (store.kind === 'gs'))
          throw new Error(`the profile’s object store is not ${path.scheme}://`);
        const signal = AbortSignal.any([ops.budget, AbortSignal.timeout(ops.timeoutMs)]);
        if (!(await untilAborted(() => store.exists(path.bucket, path.key, signal), signal))) return;
        await untilAborted(() => store.delete(path.bucket, path.key, signal), signal);
        removed++;
      });
      if (failure !== null) {
        remaining.add(url);
        left.push({ kind: 'object', name: url, why: failure, remove: removeObject(url, record.scope.store) });
      }
    }
  if (targets.length > 0)
    done.push(
      removed ? `removed ${removed} ${removed === 1 ? 'file' : 'files'} still there` : 'no file left',
    );
  // Named by the catalog but outside the table's metadata folder: never floe's to delete.
  if (dropped && !purged && metadataFolder)
    for (const url of record.catalogFiles.filter((u) => !isInside(u, metadataFolder)))
      left.push({
        kind: 'object',
        name: url,
        why: `the catalog named it as the table’s metadata, but it lies outside ${metadataFolder}: floe deletes only what it wrote`,
        remove: `check what it is; if it is the dropped table's, remove it: ${removeObject(url, record.scope.store)}`,
      });

  const namespacesLeft: string[][] = [];
  if (dropped)
    for (const [i, level] of [...record.createdNamespaces].reverse().entries()) {
      const name = level.join('.');
      let kept = false;
      const failure = await tried(async () => {
        const res = await ops.send('DELETE', ops.path(level));
        // 409 NamespaceNotEmptyException: something else is in it now; it stays.
        if (res.status === 409) {
          kept = true;
          return;
        }
        if (res.status !== 204 && res.status !== 200 && res.status !== 404)
          throw new Error(ops.refused('drop-namespace', res).what);
      });
      if (kept) {
        done.push(`kept namespace ${name} (not empty)`);
        break;
      }
      if (failure === null) done.push(`dropped namespace ${name}`);
      else {
        namespacesLeft.push(...record.createdNamespaces.slice(0, record.createdNamespaces.length - i));
        left.push({ kind: 'namespace', name, why: failure, remove: ops.again });
        break;
      }
    }
  else namespacesLeft.push(...record.createdNamespaces);

  const rest: WriteRecord = {
    ...record,
    table: dropped ? null : record.table,
    createdNamespaces: namespacesLeft,
    objects: record.objects.filter((url) => remaining.has(url)),
    catalogFiles: record.catalogFiles.filter((url) => remaining.has(url)),
  };
  const empty =
    rest.table === null &&
    rest.createdNamespaces.length === 0 &&
    rest.objects.length === 0 &&
    rest.catalogFiles.length === 0;
  return { done, left, remaining: empty ? null : rest };
}
