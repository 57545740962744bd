// The fault switches (CatalogEmulator.setFault): what each one answers.
import type { ServerResponse } from 'node:http';
import { hostileAnswers } from '../hostile.js';
import { awsError, icebergError, json } from './http.js';

export type CatalogFault =
  /** An HTML page (a web UI, a login page or a proxy error), default status 200. */
  | { kind: 'html'; status?: number }
  /** 200 with a text/plain body. */
  | { kind: 'not-json' }
  /** 200 application/json streaming `bytes` (default 8 MiB). */
  | { kind: 'huge'; bytes?: number }
  /** A redirect to a login page. */
  | { kind: 'redirect'; status?: 301 | 302 | 303 | 307 | 308; location?: string }
  /** 503 with Retry-After, `times` times (default: until cleared). */
  | { kind: 'unavailable'; retryAfterSeconds?: number; times?: number }
  /** 500 as an Iceberg error, or 502/504 as a proxy's HTML page. */
  | { kind: 'server-error'; status?: number }
  /** Answer after `delayMs`. */
  | { kind: 'slow'; delayMs: number }
  /** Accept the request and never answer. */
  | { kind: 'silent' }
  /** /v1/config advertises a prefix the namespace routes do not serve. */
  | { kind: 'wrong-prefix'; prefix?: string }
  /** Any JSON answer, e.g. an Iceberg error of some status or a body of the wrong shape. */
  | { kind: 'json'; status?: number; body: unknown }
  /** An AWS gateway's 403 for an unsigned request. */
  | { kind: 'missing-auth-token' }
  /** Every text field of the JSON answer carries terminal control sequences (../hostile.ts). */
  | { kind: 'hostile-text' }
  /**
   * A table commit loses to a concurrent one, `times` times (default: until cleared): 409
   * CommitFailedException with apache/iceberg UpdateRequirement.AssertRefSnapshotID's text. Only
   * commits (POST …/tables/{table}) feel it.
   */
  | { kind: 'commit-conflict'; times?: number };

/**
 * Where a fault applies: /v1/config, the namespace routes, the table routes (create, load, drop,
 * list), table commits, the token endpoints, or everything. A commit feels a `commit` fault first,
 * then a `tables` one, then `any`.
 */
export type FaultRoute = 'config' | 'namespaces' | 'tables' | 'commit' | 'token' | 'any';

const LOGIN_PAGE =
  '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form method="post" action="/login"><input name="user"><input name="password" type="password"><button>Sign in</button></form></body></html>';
const PROXY_PAGE = (status: number) =>
  `<html><head><title>${status} Bad Gateway</title></head><body><center><h1>${status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>`;

/** Counts a `times` fault down; the last use removes it. */
export function spend(faults: Map<FaultRoute, CatalogFault>, route: FaultRoute, fault: CatalogFault): void {
  if (!('times' in fault) || fault.times === undefined) return;
  if (fault.times <= 1) faults.delete(route);
  else faults.set(route, { ...fault, times: fault.times - 1 });
}

/** Answers the fault; false when the request goes on (hostile-text, wrong-prefix, slow, commit-conflict). */
export function applyFault(
  fault: CatalogFault,
  route: FaultRoute,
  res: ServerResponse,
  faults: Map<FaultRoute, CatalogFault>,
  origin: string,
): boolean {
  switch (fault.kind) {
    case 'html':
      res.writeHead(fault.status ?? 200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(LOGIN_PAGE);
      return true;
    case 'not-json':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('OK');
      return true;
    case 'huge': {
      const total = fault.bytes ?? 8 * 1024 * 1024;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': total });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < total && !res.destroyed) {
          const part = chunk.subarray(0, Math.min(chunk.length, total - sent));
          sent += part.length;
          if (!res.write(part)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      return true;
    }
    case 'redirect':
      res.writeHead(fault.status ?? 302, {
        location: fault.location ?? `${origin}/login?next=%2F`,
        'content-type': 'text/html',
      });
      res.end(LOGIN_PAGE);
      return true;
    case 'unavailable':
      spend(faults, route, fault);
      res.setHeader('retry-after', String(fault.retryAfterSeconds ?? 1));
      icebergError(res, 503, 'SlowDownException', 'Slow down');
      return true;
    case 'server-error': {
      const status = fault.status ?? 500;
      if (status === 502 || status === 504) {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end(PROXY_PAGE(status));
      } else icebergError(res, status, 'InternalServerError', 'Internal Server Error');
      return true;
    }
    case 'json':
      json(res, fault.status ?? 200, fault.body);
      return true;
    case 'silent':
      return true;
    case 'hostile-text':
      hostileAnswers.add(res);
      return false;
    case 'missing-auth-token':
      awsError(res, {
        status: 403,
        errorType: 'MissingAuthenticationTokenException',
        message: 'Missing Authentication Token',
      });
      return true;
    default:
      return false;
  }
}
