// The emulator's HTTP answers: JSON bodies (through ../hostile.ts, which the hostile-text fault
// switches on), Iceberg errors, OAuth errors and AWS-style errors, and the request body reader.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerText } from '../hostile.js';
import type { AwsRejection } from './verify.js';

/** Bodies above this are refused (the socket is closed): no catalog request floe sends comes near it. */
const MAX_REQUEST_BODY = 1024 * 1024;

/** An answer a flavour gives: a status, its headers and a JSON body. */
export interface Refusal {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = answerText(res, body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The spec's IcebergErrorResponse. */
export function icebergError(res: ServerResponse, status: number, type: string, message: string): void {
  json(res, status, { error: { message, type, code: status } });
}

export function refuse(res: ServerResponse, refusal: Refusal): void {
  json(res, refusal.status, refusal.body, refusal.headers);
}

export function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  json(res, status, { error, error_description: description }, { 'cache-control': 'no-store' });
}

export function awsError(res: ServerResponse, rejection: AwsRejection): void {
  json(res, rejection.status, { message: rejection.message }, { 'x-amzn-errortype': rejection.errorType });
}

/** A status without a body (HEAD answers, 204). */
export function empty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, headers);
  res.end();
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BODY) {
        req.destroy();
        reject(new Error('request body too large'));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function flat(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
