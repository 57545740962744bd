// The sandbox's S3 server lists a bucket page by page: s3rver's DES continuation tokens, which
// OpenSSL 3 refuses, are passed through (src/sandbox/s3.ts), so a truncated listing is not a 500.
import { rmSync } from 'node:fs';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { expect, it } from 'vitest';
import { s3rverWithClient } from '../support/s3rver.js';

it('lists three objects one page at a time, following the continuation token', async () => {
  const { directory, server, client } = await s3rverWithClient('floe-s3-listing-');
  try {
    for (const key of ['a/1', 'a/2', 'b/3'])
      await client.send(new PutObjectCommand({ Bucket: 'warehouse', Key: key, Body: key }));
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: 'warehouse', MaxKeys: 1, ContinuationToken: token }),
      );
      seen.push(...(page.Contents ?? []).map((o) => o.Key ?? ''));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    expect(seen).toEqual(['a/1', 'a/2', 'b/3']);
  } finally {
    client.destroy();
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  }
});
