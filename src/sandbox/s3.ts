// A loopback S3-compatible server for `floe sandbox`: s3rver (from npm) serving a directory the
// caller owns, with the warehouse bucket created up front. s3rver checks that the access key is its
// own ("S3RVER") but does not verify SigV4 signatures, so any secret key works.
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { lazy, type S3rverClass } from '../lazy.js';
import { logFailure, logRequests, type SandboxLog } from './log.js';

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
  /** Where every request and error goes (the sandbox's log). */
  log?: SandboxLog;
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

/**
 * s3rver 3.7 encrypts ListObjectsV2 continuation tokens with DES (controllers/bucket.js
 * generateContinuationToken), which OpenSSL 3 no longer offers: any truncated listing (more objects
 * than max-keys, e.g. the storage check's max-keys=1 once a kept --write table is in the bucket)
 * answered 500 InternalError. The token only has to survive the round trip through the client, so
 * in this process `des` becomes a pass-through (nothing else here asks for DES).
 */
function passThroughDes(): void {
  const original = crypto.createCipheriv;
  if ((original as { floeDes?: true }).floeDes) return;
  const passThrough = () => ({
    update: (data: string | Buffer) => Buffer.from(data),
    final: () => Buffer.alloc(0),
  });
  const cipher = ((algorithm: string, ...rest: unknown[]) =>
    algorithm === 'des'
      ? passThrough()
      : (original as (...args: unknown[]) => unknown)(algorithm, ...rest)) as typeof crypto.createCipheriv;
  const decipherOriginal = crypto.createDecipheriv;
  const decipher = ((algorithm: string, ...rest: unknown[]) =>
    algorithm === 'des'
      ? passThrough()
      : (decipherOriginal as (...args: unknown[]) => unknown)(
          algorithm,
          ...rest,
        )) as typeof crypto.createDecipheriv;
  Object.assign(cipher, { floeDes: true });
  crypto.createCipheriv = cipher;
  crypto.createDecipheriv = decipher;
}

async function loadS3rver(): Promise<S3rverClass> {
  passThroughDes();
  return lazy.s3rver();
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

/** How long close() waits for s3rver's handlers still running (each is a local file write). */
const HANDLER_GRACE_MS = 1000;

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
  // s3rver (Koa) emits what it failed with; its 500 says only "We encountered an internal error".
  server.on('error', (error: Error & { status?: number }, ctx?: { req: IncomingMessage }) => {
    if ((error.status ?? 500) >= 500 && ctx) logFailure(options.log, 's3', ctx.req, error);
  });
  // Koa's handler answers a promise per request: close() gives those still running a moment to end, so
  // s3rver neither writes to its folder after it was removed nor logs after its logger closed. It
  // closes that logger when its HTTP server closes (s3rver.js run(): on 'close'), as soon as the
  // connections are gone while a handler may still run; winston then prints "Attempt to write logs
  // with no transports" to stderr. So those 'close' listeners run here, after the handlers. A request
  // is done when its handler has settled and its response has closed: koa-logger logs on the response's
  // 'finish' or 'close' (koa-logger/index.js), which come after the handler, and 'close' comes last.
  // A PUT whose client left mid-body never ends (stores/filesystem.js putObject pipes the body without
  // its errors), and never writes or logs again: hence a grace, not a wait for all.
  const running = new Set<Promise<unknown>>();
  const callback = server.callback.bind(server);
  server.callback = () => {
    const handle = callback();
    return (req, res) => {
      const handled = handle(req, res);
      // Registered after koa-logger's own listener, so it runs after that one has logged.
      const responded = new Promise((resolve) => res.once('close', resolve));
      const run = Promise.allSettled([handled, responded]);
      running.add(run);
      void run.then(() => running.delete(run));
      return handled;
    };
  };
  const { port } = await server.run();
  const http = server.httpServer;
  const onClosed = http?.listeners('close') ?? [];
  http?.removeAllListeners('close');
  if (http) logRequests(http, 's3', options.log);
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    bucket: options.bucket,
    accessKey: S3RVER_ACCESS_KEY,
    secretKey: S3RVER_SECRET_KEY,
    close() {
      closed ??= (async () => {
        const stopped = server.close();
        http?.closeAllConnections();
        await stopped;
        // The grace ends with the handlers: its timer does not hold the process after them.
        if (running.size > 0) {
          const grace = new AbortController();
          await Promise.race([
            Promise.allSettled(running),
            delay(HANDLER_GRACE_MS, undefined, { signal: grace.signal }).catch(() => undefined),
          ]);
          grace.abort();
        }
        for (const listener of onClosed) listener.call(http);
      })();
      return closed;
    },
  };
}
