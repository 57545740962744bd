// The AWS SDK is loaded only when the storage chain runs, with its Node-version warning disabled.
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { fakeS3 } from './fake-s3.js';
import { runStorage, storageValues } from './harness.js';

const sdkLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('@aws-sdk/client-s3'));

it('importing the chain does not load @aws-sdk/client-s3; running it does, without a warning', async () => {
  await import('../../src/storage/chain.js');
  expect(sdkLoaded()).toBe(false);
  delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  const server = await fakeS3((_req, res) => {
    res.writeHead(404);
    res.end();
  });
  try {
    const run = await runStorage(
      storageValues({
        warehouse: 's3://bucket',
        s3Endpoint: server.endpoint,
        accessKey: 'AKIA0000',
        secretKey: 'x'.repeat(40),
      }),
    );
    expect(run.diagnoses.map((d) => d.code)).toEqual(['S3_NO_SUCH_BUCKET']);
  } finally {
    process.off('warning', onWarning);
    await server.close();
  }
  expect(sdkLoaded()).toBe(true);
  expect(process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED).toBe('true');
  expect(warnings).toEqual([]);
});
