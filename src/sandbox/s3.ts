// A loopback S3-compatible server for `floe sandbox`: s3rver (from npm) serving a directory the
// caller owns, with the warehouse bucket created up front. s3rver checks that the access key is its
// own ("S3RVER") but does not verify SigV4 signatures, so any secret key works.
import type { Server } from 'node:http';
import { createServer } from 'node:net';

/** The only access key s3rver knows; it skips the signature check, so the secret is not verified. */
export const S3RVER_ACCESS_KEY = 'S3RVER';
export const S3RVER_SECRET_KEY = 'S3RVER';

export interface S3ServerOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  bucket: string;
  /** Where the objects are kept. */
  directory: string;
}

export interface S3Server {
  /** Endpoint URL, e.g. http://127.0.0.1:40123. */
  url: string;
  port: number;
  bucket: string;
  accessKey: string;
  secretKey: string;
  close(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/** s3rver ships no types: a non-literal specifier keeps the import dynamic and untyped. */
const S3RVER_MODULE = 's3rver';

async function loadS3rver(): Promise<S3rverClass> {
  // CommonJS: Node's import() (and esbuild's split bundle) may expose the class only as `default`.
  const loaded = (await import(S3RVER_MODULE)) as { default?: S3rverClass } | S3rverClass;
  return typeof loaded === 'function' ? loaded : (loaded.default as S3rverClass);
}

/**
 * Rejects (e.g. EADDRINUSE) when `port` cannot be bound: s3rver's listen has no error path, so a busy
 * port would otherwise surface as an uncaught 'error' event.
 */
function probePort(port: number, host: string): Promise<void> {
  const probe = createServer();
  return new Promise((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

export async function startS3Server(options: S3ServerOptions): Promise<S3Server> {
  const S3rver = await loadS3rver();
  const host = options.host ?? '127.0.0.1';
  if (options.port) await probePort(options.port, host);
  const server = new S3rver({
    address: host,
    port: options.port ?? 0,
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: options.bucket }],
  });
  const { port } = await server.run();
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    bucket: options.bucket,
    accessKey: S3RVER_ACCESS_KEY,
    secretKey: S3RVER_SECRET_KEY,
    close() {
      if (!closed) {
        closed = server.close();
        server.httpServer?.closeAllConnections();
      }
      return closed;
    },
  };
}
