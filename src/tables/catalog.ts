// The catalog side of `floe tables`, through the session the catalog check hands on (base, prefix,
// separator, auth, signing): namespaces (nested levels through `parent`) and tables, each list route
// followed page by page with `pageToken` (the spec's ListNamespacesResponse / ListTablesResponse
// `next-page-token`), and a table loaded with its 64-bit ids exact. Every request has the profile's
// timeout and stops with the signal; answers are untrusted and read within bounds.
import { diagnoseFailure, readJson } from '../catalog/classify.js';
import { HttpClient, type HttpRequest, type HttpResponse, NetworkFailure } from '../catalog/http.js';
import { type CatalogSession, catalogPath } from '../catalog/session.js';
import type { Diagnosis, Emit } from '../check/types.js';
import { parseLossless } from '../text/json.js';
import type { Limit } from './limit.js';
import { readTableMetadata, type TableMetadata } from './metadata.js';

/** A table's metadata answer may hold hundreds of snapshots: larger than a config, still bounded. */
export const MAX_TABLE_BYTES = 16 * 1024 * 1024;
/** A list answer's pages are followed at most this many times (a server inventing tokens stops here). */
export const MAX_PAGES = 1_000;
/** A namespace level or table name longer than this is not a name. */
const MAX_NAME = 1024;

export class CatalogReadError extends Error {
  constructor(readonly diagnosis: Diagnosis | null) {
    super(diagnosis?.what ?? 'cancelled');
  }
}

export interface TableRef {
  namespace: string[];
  name: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_NAME;

export interface CatalogReaderOptions {
  session: CatalogSession;
  emit: Emit;
  signal: AbortSignal;
  timeoutMs: number;
  /** Each request takes a slot of this limiter. */
  limit: Limit;
}

export class CatalogReader {
  private readonly http: HttpClient;

  constructor(private readonly opts: CatalogReaderOptions) {
    this.http = new HttpClient({
      emit: opts.emit,
      signal: opts.signal,
      timeoutMs: opts.timeoutMs,
      scrubber: opts.session.scrubber,
      env: opts.session.env,
      maxBodyBytes: MAX_TABLE_BYTES,
      ...(opts.session.ca ? { ca: opts.session.ca } : {}),
    });
  }

  private async get(step: string, url: string): Promise<{ req: HttpRequest; res: HttpResponse }> {
    const target = new URL(url);
    const req: HttpRequest = { method: 'GET', url: target, headers: this.opts.session.headers(target) };
    try {
      const res = await this.opts.limit(() => this.http.send(req, this.opts.session.prepare));
      return { req, res };
    } catch (error) {
      if (!(error instanceof NetworkFailure)) throw error;
      throw new CatalogReadError(
        diagnoseFailure(step, req, error, this.opts.session.scrubber, this.opts.timeoutMs),
      );
    }
  }

  private async json(step: string, url: string): Promise<unknown> {
    const { req, res } = await this.get(step, url);
    const read = readJson(req, res, this.opts.session.context(step, 'namespaces'), parseLossless);
    if ('diagnosis' in read) throw new CatalogReadError(read.diagnosis);
    return read.value;
  }

  /** Every item of a paged list route: `pageToken` empty first, then each `next-page-token`. */
  private async pages(step: string, url: string, key: string): Promise<unknown[]> {
    const items: unknown[] = [];
    const seen = new Set<string>();
    let token = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const sep = url.includes('?') ? '&' : '?';
      const body = await this.json(step, `${url}${sep}pageToken=${encodeURIComponent(token)}`);
      const list = isRecord(body) ? body[key] : undefined;
      if (!Array.isArray(list))
        throw new CatalogReadError({
          code: 'CATALOG_BAD_RESPONSE',
          step,
          what: `The catalog answered a ${key} list without "${key}"`,
          cause: 'The server is not an Iceberg REST catalog, or not the one the profile means',
          remedy: 'Run floe test on the profile',
          evidence: {},
        });
      items.push(...list);
      const next = isRecord(body) ? body['next-page-token'] : undefined;
      // An empty page that still names a next one is a server going round: stop there.
      if (typeof next !== 'string' || next === '' || seen.has(next) || list.length === 0) return items;
      seen.add(next);
      token = next;
    }
    return items;
  }

  /** The namespaces directly under `parent` (the top level for []). */
  async namespaces(parent: string[]): Promise<string[][]> {
    const query = parent.length
      ? `?parent=${parent.map(encodeURIComponent).join(this.opts.session.separator)}`
      : '';
    const items = await this.pages(
      'tables.namespaces',
      `${catalogPath(this.opts.session, null)}${query}`,
      'namespaces',
    );
    return items.filter(
      (ns): ns is string[] => Array.isArray(ns) && ns.length > 0 && ns.length <= 64 && ns.every(isName),
    );
  }

  /** The tables of one namespace. */
  async tables(namespace: string[]): Promise<TableRef[]> {
    const items = await this.pages(
      'tables.list',
      catalogPath(this.opts.session, namespace, 'tables'),
      'identifiers',
    );
    return items.flatMap((id) => (isRecord(id) && isName(id.name) ? [{ namespace, name: id.name }] : []));
  }

  /** A table's metadata, or why it cannot be read. */
  async load(ref: TableRef): Promise<TableMetadata | { problem: string; diagnosis?: Diagnosis }> {
    let body: unknown;
    try {
      body = await this.json(
        'tables.load',
        catalogPath(this.opts.session, ref.namespace, 'tables', ref.name),
      );
    } catch (error) {
      if (!(error instanceof CatalogReadError)) {
        const message = error instanceof Error ? error.message : String(error);
        return { problem: `the catalog’s answer could not be read: ${message.slice(0, 200)}` };
      }
      if (!error.diagnosis) throw error;
      return { problem: error.diagnosis.what, diagnosis: error.diagnosis };
    }
    const meta = readTableMetadata(body);
    if ('problem' in meta) return { problem: `the catalog’s table answer is unusable: ${meta.problem}` };
    // Credentials a catalog vends with the table are secrets from here on.
    for (const [key, value] of Object.entries(meta.config))
      if (/secret|token|key|credential|password/i.test(key)) this.opts.session.scrubber.add(value);
    return meta;
  }

  async close(): Promise<void> {
    await this.http.close();
  }
}
