// The sandbox's S3 server (s3rver) on a new folder and any free port, with an S3 client for it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { type S3Server, startS3Server } from '../../src/sandbox/s3.js';

export async function s3rverWithClient(
  prefix: string,
): Promise<{ directory: string; server: S3Server; client: S3Client }> {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  const server = await startS3Server({ port: 0, bucket: 'warehouse', directory });
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: server.url,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKey, secretAccessKey: server.secretKey },
    maxAttempts: 1,
  });
  return { directory, server, client };
}
