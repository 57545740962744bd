// A PutObject that fails or times out after the store kept the object is followed by a DeleteObject;
// when that fails too, a warning names the probe key to delete by hand.
import { afterEach, describe, expect, it } from 'vitest';
import { EMPTY_LIST, type FakeS3, fakeS3, s3Error, xml } from './fake-s3.js';
import { runStorage, storageValues } from './harness.js';

const KEYS = { accessKey: 'AKIAFAKEFAKEFAKE0001', secretKey: 'SENTINEL-fake-secret-0000000000000000000' };
let server: FakeS3 | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A store that keeps every PUT, then answers it with `put`; DELETE answers `deleteStatus`. */
async function keepingStore(put: 'error' | 'silence', deleteStatus: number) {
  const kept = new Set<string>();
  server = await fakeS3((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (req.method === 'HEAD') return xml(res, 200, '');
    if (req.method === 'GET' && (req.url ?? '').includes('list-type=2')) return xml(res, 200, EMPTY_LIST);
    if (req.method === 'PUT') {
      kept.add(path);
      if (put === 'error')
        return xml(res, 500, s3Error('InternalError', 'We encountered an internal error.'));
      return;
    }
    if (req.method === 'DELETE') {
      if (deleteStatus === 204) kept.delete(path);
      if (deleteStatus >= 400) return xml(res, deleteStatus, s3Error('AccessDenied', 'Access Denied'));
      res.writeHead(deleteStatus);
      return res.end();
    }
    xml(res, 400, s3Error('InvalidRequest', 'unexpected'));
  });
  const run = await runStorage(
    storageValues({ warehouse: 's3://bucket/olake', s3Endpoint: server.endpoint, ...KEYS }),
    { timeoutMs: 1500 },
  );
  return { run, kept, requests: server.requests };
}

describe('the probe object after a failed PutObject', () => {
  it('is deleted when PutObject answered an error after storing it', async () => {
    const { run, kept, requests } = await keepingStore('error', 204);
    expect(run.states['storage.put']).toBe('failed');
    expect(requests.some((r) => r.startsWith('DELETE /bucket/olake/.floe-probe/'))).toBe(true);
    expect(kept.size).toBe(0);
    expect(run.warnings).toEqual([]);
  });

  it('is deleted when PutObject timed out after storing it', async () => {
    const { run, kept } = await keepingStore('silence', 204);
    expect(run.states['storage.put']).toBe('failed');
    expect(run.diagnoses[0]?.code).toMatch(/TIMEOUT/);
    expect(kept.size).toBe(0);
  });

  it('is named for deletion by hand when the DeleteObject fails too', async () => {
    const { run, kept } = await keepingStore('error', 403);
    expect(kept.size).toBe(1);
    const [key] = [...kept];
    expect(run.warnings).toEqual([expect.stringContaining(`remove s3:/${key} by hand`)]);
    expect(run.warnings.join('\n')).not.toContain(KEYS.secretKey);
  });
});
