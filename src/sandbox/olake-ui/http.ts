// How the OLake UI emulator reads requests and writes answers: olake-ui's JSON envelope
// (`server/internal/utils/gin_utils.go`: success, message, data), its errors, and the write timeout of
// v0.4.2–v0.4.3 (`internal/httpserver/server.go`).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerText } from '../hostile.js';

const MAX_UPLOAD = 64 * 1024 * 1024;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function ulid(): string {
  let time = Date.now();
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32] + head;
    time = Math.floor(time / 32);
  }
  const tail = Array.from(randomBytes(16), (b) => CROCKFORD[b % 32]).join('');
  return head + tail;
}

export function iso(ms = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Responses that must be finished by then, or the connection closes unanswered (a write timeout). */
export const deadlines = new WeakMap<ServerResponse, number>();

export function send(res: ServerResponse, status: number, body: unknown): void {
  const deadline = deadlines.get(res);
  if (deadline !== undefined && Date.now() > deadline) {
    res.destroy();
    return;
  }
  const text = answerText(res, body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function ok(res: ServerResponse, message: string, data?: unknown): void {
  send(res, 200, data === undefined ? { success: true, message } : { success: true, message, data });
}

export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_UPLOAD) throw new HttpError(413, 'request body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Invalid request format');
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The single-page app's index.html (what the UI serves outside /api/). */
export function spa(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end('<!doctype html><html><head><title>OLake</title></head><body><div id="root"></div></body></html>');
}
