// The sandbox's log: one line per request each emulator (catalog, OLake UI, S3, GCS) answered, with
// the status, and the message of every error it answered or failed with. `floe sandbox --verbose`
// prints it as it grows; the demo's home screen shows it under the sandbox's facts (s). Request
// headers and bodies are never logged, nor query strings (a presigned URL's signature lives there).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export type SandboxService = 'catalog' | 'olake-ui' | 's3' | 'gcs';

export interface SandboxLog {
  /** Adds a line for `service`. */
  add(service: SandboxService, text: string): void;
  /** The latest lines (at most `limit`), oldest first. */
  lines(): string[];
  /** Calls `listener` with each new line; returns the unsubscribe. */
  follow(listener: (line: string) => void): () => void;
}

/** How much of an error answer is read for its message. */
const SNIFF_BYTES = 8192;

export function createSandboxLog(limit = 500, clock: () => Date = () => new Date()): SandboxLog {
  const kept: string[] = [];
  const listeners = new Set<(line: string) => void>();
  return {
    add(service, text) {
      const line = `${clock().toISOString().slice(11, 23)} ${service.padEnd(8)} ${text}`;
      kept.push(line);
      if (kept.length > limit) kept.splice(0, kept.length - limit);
      for (const listener of listeners) listener(line);
    },
    lines: () => [...kept],
    follow(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The message of an error answer: Iceberg's error.message, OAuth's error_description, AWS/GCS XML or JSON. */
export function answerMessage(body: string): string | undefined {
  const xml = /<Message>([^<]*)<\/Message>/.exec(body);
  if (xml) return xml[1];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const top = parsed as Record<string, unknown>;
  const error = top.error;
  if (typeof error === 'object' && error !== null) {
    const inner = error as Record<string, unknown>;
    if (typeof inner.message === 'string') return `${inner.type ?? inner.code ?? 'error'}: ${inner.message}`;
  }
  if (typeof top.error_description === 'string') return `${String(top.error)}: ${top.error_description}`;
  if (typeof top.message === 'string') return top.message;
  return typeof error === 'string' ? error : undefined;
}

/**
 * Logs every request `server` answers, as `service`: method, path, status and time, and for a status of
 * 400 or more the message of the answer. Registered before the server's own handler.
 */
export function logRequests(server: Server, service: SandboxService, log: SandboxLog | undefined): void {
  if (!log) return;
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const path = (req.url ?? '/').replace(/\?.*$/s, '?…');
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (size >= SNIFF_BYTES || chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      chunks.push(buffer.subarray(0, SNIFF_BYTES - size));
      size += Math.min(buffer.length, SNIFF_BYTES - size);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return write(...args);
    }) as ServerResponse['write'];
    res.end = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return end(...args);
    }) as ServerResponse['end'];
    const report = (ended: boolean) => {
      const ms = Math.round(performance.now() - started);
      const status = ended ? String(res.statusCode) : 'closed before an answer';
      const message =
        ended && res.statusCode >= 400 ? answerMessage(Buffer.concat(chunks).toString('utf8')) : undefined;
      log.add(service, `${req.method} ${path} → ${status} (${ms} ms)${message ? `: ${message}` : ''}`);
    };
    res.once('finish', () => report(true));
    res.once('close', () => {
      if (!res.writableFinished) report(false);
    });
  });
}

/** Logs an error an emulator failed with while answering (its 500 carries the same message). */
export function logFailure(
  log: SandboxLog | undefined,
  service: SandboxService,
  req: IncomingMessage,
  error: unknown,
): void {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  log?.add(service, `${req.method} ${(req.url ?? '/').replace(/\?.*$/s, '?…')} failed: ${message}`);
}
