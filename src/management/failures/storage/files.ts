// A file the table's metadata names and the store lacks (Iceberg's NotFoundException, S3 and GCS alike).
import { capture, type FailureRule, facts, or } from '../rule.js';

export const RUN_TABLE_FILE_MISSING: FailureRule = {
  code: 'RUN_TABLE_FILE_MISSING',
  component: 'storage',
  summary:
    'A file the table’s metadata names is gone from the object store (NotFoundException: Location does not exist).',
  example:
    'org.apache.iceberg.exceptions.NotFoundException: Location does not exist: s3://lake/olake/orders/metadata/00003-….metadata.json',
  match: /Location does not exist: /,
  facts: (text) => facts({ location: capture(text, /Location does not exist: (\S{1,500})/) }),
  what: (f) =>
    f.location
      ? `The table’s file ${f.location} is missing from the object store`
      : 'A file the table’s metadata names is missing from the object store',
  cause: () =>
    'It was deleted outside Iceberg (a bucket lifecycle rule, a manual delete, another engine’s orphan-file cleanup), or the catalog points at a table whose files were removed.',
  remedy: (f) =>
    `Restore ${or(f.location, 'the file')} (from the bucket’s versioning) and remove any lifecycle rule on the warehouse prefix; if it cannot be restored, clear the destination in the OLake UI (Jobs → the job → Clear destination) so the table is written again.`,
};
