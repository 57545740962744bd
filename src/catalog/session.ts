// What the catalog check hands on once it has authenticated and read /v1/config: the base URL (after
// overrides.uri), the prefix, the namespace separator and the advertised endpoints, and how to
// authenticate a request. The write check sends its table calls through it, so every auth type,
// proxy, SigV4, prefix and separator rule of the read path applies to the write path unchanged.
import type { SecretScrubber } from '../check/scrub.js';
import type { ClassifyContext, Route } from './classify.js';
import type { HttpRequest } from './http.js';

export interface CatalogSession {
  /** The REST base URL, without a trailing slash. */
  base: string;
  prefix?: string;
  /** The separator of namespace levels in a path, as the config sent it (URL-encoded), default %1F. */
  separator: string;
  /** What /v1/config advertised; undefined: the spec's default set. */
  endpoints?: string[];
  scrubber: SecretScrubber;
  /** Trusted CA certificates (PEM) the catalog check used, if not Node's. */
  ca?: string;
  /** The command's environment the catalog check ran with (its proxy variables apply here too). */
  env: NodeJS.ProcessEnv;
  /** The auth headers for a request to `url` (bearer token, Google's user project). */
  headers(url: URL): Record<string, string>;
  /** Signs a request (SigV4 profiles); runs before each attempt. */
  prepare?: (req: HttpRequest) => Promise<void>;
  /** How a failed exchange of `step` is read. */
  context(step: string, route: Route): ClassifyContext;
}

/** The default endpoints a client must assume when /v1/config lists none (the spec's CatalogConfig). */
export const DEFAULT_ENDPOINTS = [
  'GET /v1/{prefix}/namespaces',
  'POST /v1/{prefix}/namespaces',
  'GET /v1/{prefix}/namespaces/{namespace}',
  'DELETE /v1/{prefix}/namespaces/{namespace}',
  'POST /v1/{prefix}/namespaces/{namespace}/properties',
  'GET /v1/{prefix}/namespaces/{namespace}/tables',
  'POST /v1/{prefix}/namespaces/{namespace}/tables',
  'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'POST /v1/{prefix}/namespaces/{namespace}/register',
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics',
  'POST /v1/{prefix}/tables/rename',
  'POST /v1/{prefix}/transactions/commit',
];

/** Whether the server serves `endpoint` (e.g. `POST /v1/{prefix}/namespaces`). */
export function serves(session: Pick<CatalogSession, 'endpoints'>, endpoint: string): boolean {
  return (session.endpoints ?? DEFAULT_ENDPOINTS).includes(endpoint);
}

/** `/v1/{prefix}/…` on the session's base, with each namespace level encoded and joined by the separator. */
export function catalogPath(session: CatalogSession, namespace: string[] | null, ...rest: string[]): string {
  const parts = [`${session.base}/v1`];
  if (session.prefix) parts.push(session.prefix);
  parts.push('namespaces');
  if (namespace) parts.push(namespace.map(encodeURIComponent).join(session.separator));
  for (const part of rest) parts.push(encodeURIComponent(part));
  return parts.join('/');
}
