// A table with 100,000 data files, read exactly from its manifests: a generated manifest set (written
// by floe's write path, write/avro.ts) of 20 manifests of 5,000 entries each, some of them DELETED
// history, with delete manifests beside; the scan reports progress manifest by manifest and its numbers
// equal the sums over what was written. Time and memory of such a read go to the bench, not here.
import { describe, expect, it } from 'vitest';
import { HISTOGRAM_EDGES, scanManifests } from '../../src/tables/manifests.js';
import type { ObjectReader } from '../../src/tables/objects.js';
import {
  type ManifestEntryInput,
  type ManifestFileInput,
  writeManifestEntries,
  writeManifestListFiles,
} from '../../src/write/avro.js';
import { olakeRawSchema } from '../../src/write/files.js';

const MANIFESTS = 20;
const PER_MANIFEST = 5_000;
const SNAPSHOT = 4242;
const SMALL = 1 << 20;

describe('scanning 100,000 data files', () => {
  it('reports progress per manifest and counts every live entry exactly', async () => {
    const schema = olakeRawSchema(true);
    const files = new Map<string, Uint8Array>();
    const expected = {
      records: 0,
      dataFiles: 0,
      dataBytes: 0,
      deleteFiles: { position: 0, equality: 0 },
      deleteRows: { position: 0, equality: 0 },
      small: 0,
      histogram: [...HISTOGRAM_EDGES, null].map(() => 0),
    };
    const list: ManifestFileInput[] = [];
    let live = 0;
    for (let m = 0; m < MANIFESTS + 2; m++) {
      const deletes = m >= MANIFESTS;
      const count = deletes ? 50 : PER_MANIFEST;
      const entries: ManifestEntryInput[] = Array.from({ length: count }, (_, i) => {
        const n = m * PER_MANIFEST + i;
        // Every 97th data entry is DELETED history (not counted); sizes span the histogram's buckets.
        const status = !deletes && n % 97 === 0 ? 2 : n % 3 === 0 ? 0 : 1;
        return {
          status,
          snapshotId: SNAPSHOT,
          sequenceNumber: status === 1 ? null : 1,
          content: deletes ? (m === MANIFESTS ? 1 : 2) : 0,
          path: `s3://lake/t/data/${n}.parquet`,
          recordCount: (n % 7) + 1,
          sizeInBytes: (n % 1000) * 700_000 + 100,
          ...(deletes && m > MANIFESTS ? { equalityIds: [1] } : {}),
        };
      });
      for (const e of entries) {
        if (e.status === 2) continue;
        if (e.content === 0) {
          live++;
          expected.dataFiles++;
          expected.records += e.recordCount;
          expected.dataBytes += e.sizeInBytes;
          if (e.sizeInBytes < SMALL) expected.small++;
          const bucket = HISTOGRAM_EDGES.findIndex((edge) => e.sizeInBytes < edge);
          expected.histogram[bucket === -1 ? HISTOGRAM_EDGES.length : bucket]!++;
        } else {
          const kind = e.content === 1 ? 'position' : 'equality';
          expected.deleteFiles[kind]++;
          expected.deleteRows[kind] += e.recordCount;
        }
      }
      const bytes = await writeManifestEntries({
        schema,
        formatVersion: 2,
        specId: 0,
        content: deletes ? 'deletes' : 'data',
        entries,
      });
      const path = `s3://lake/t/metadata/m${m}.avro`;
      files.set(path, bytes);
      const byStatus = (s: number) => entries.filter((e) => e.status === s).length;
      list.push({
        path,
        length: bytes.length,
        specId: 0,
        content: deletes ? 1 : 0,
        sequenceNumber: 1,
        minSequenceNumber: 1,
        addedSnapshotId: SNAPSHOT,
        addedFilesCount: byStatus(1),
        existingFilesCount: byStatus(0),
        deletedFilesCount: byStatus(2),
        addedRowsCount: 0,
        existingRowsCount: 0,
        deletedRowsCount: 0,
      });
    }
    expect(live).toBeGreaterThan(98_000);
    const listPath = 's3://lake/t/metadata/snap-4242.avro';
    files.set(
      listPath,
      await writeManifestListFiles({
        snapshotId: SNAPSHOT,
        parentSnapshotId: null,
        sequenceNumber: 1,
        manifests: list,
      }),
    );
    let reads = 0;
    const reader: ObjectReader = {
      read: async (url) => {
        reads++;
        const bytes = files.get(url);
        if (!bytes) throw new Error(`no ${url}`);
        return bytes;
      },
      close: () => {},
    };
    const progress: [number, number][] = [];
    const stats = await scanManifests(listPath, {
      reader,
      signal: new AbortController().signal,
      smallFileBytes: SMALL,
      onProgress: (done, total) => progress.push([done, total]),
    });
    const total = MANIFESTS + 2;
    expect(progress).toEqual(Array.from({ length: total + 1 }, (_, i) => [i, total]));
    expect(reads).toBe(total + 1);
    expect(stats).toEqual({
      records: expected.records,
      dataFiles: expected.dataFiles,
      dataBytes: expected.dataBytes,
      deleteFiles: expected.deleteFiles,
      deleteRows: expected.deleteRows,
      manifests: total,
      histogram: [...HISTOGRAM_EDGES, null].map((below, i) => ({ below, files: expected.histogram[i] })),
      smallDataFiles: expected.small,
    });
  }, 120_000);
});
