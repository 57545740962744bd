// The catalog emulator's options and handle (emulator.ts starts it).
import type { SandboxLog } from '../log.js';
import type { CatalogFault, FaultRoute } from './faults.js';
import type { CatalogFlavour, Privilege } from './flavours/index.js';
import type { GcsStoreOptions, ObjectStoreOptions } from './store.js';
import type { OAuthClient } from './tokens.js';
import type { AccessKey, ServiceAccount } from './verify.js';

/** What catalog routes require. */
export type CatalogAuthMode = 'none' | 'bearer' | 'sigv4';

export interface CatalogEmulatorOptions {
  /**
   * Where the errors it fails with go (the sandbox's log; its requests are logged at the sandbox's front).
   * Each such error is also the message of its 500.
   */
  log?: SandboxLog;
  /**
   * The real server to model (flavours/); default `rest`, the generic fixture driven by `prefix`,
   * `warehouses`, `defaults` and `overrides`. Other flavours compute the config themselves and
   * ignore `prefix`; `defaults` and `overrides` are added to theirs.
   */
  flavour?: CatalogFlavour;
  /** The storage location a flavour reports (Polaris default-base-location, Nessie warehouse) and the base of new tables; default s3://warehouse. */
  dataLocation?: string;
  /** Overrides the base of every new table's default location (the flavour's rule still applies below it). */
  tableLocationBase?: string;
  /**
   * Where table metadata files are written: S3 (path style), or Cloud Storage's JSON API (gs://
   * locations, as BigLake writes them). Without it they are kept in memory and `metadata-location`
   * names an object no one else can read.
   */
  objectStore?: ObjectStoreOptions | GcsStoreOptions;
  /** Privileges the caller lacks: those operations get the flavour's refusal (see setDeny). */
  deny?: Privilege[];
  /** BigLake: the Google Cloud project whose catalogs the prefix names (projects/<project>/catalogs/<bucket>). */
  gcpProject?: string;
  /** Polaris: the catalog's properties, reported in config defaults (e.g. polaris.config.drop-with-purge.enabled). */
  catalogProperties?: Record<string, string>;
  /**
   * The external base URL (scheme and host, no path) the server puts in overrides.uri, like
   * LAKEKEEPER__BASE_URI; default: derived from X-Forwarded-* or Host, as lakekeeper request_metadata.rs.
   */
  baseUri?: string;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Base path of the REST API, e.g. `/api/catalog`; default none. */
  basePath?: string;
  /** Serve https with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
  auth?: CatalogAuthMode;
  /** Static bearer tokens. */
  tokens?: string[];
  clients?: OAuthClient[];
  /** Google service accounts accepted by the jwt-bearer grant. */
  serviceAccounts?: ServiceAccount[];
  /**
   * Bearer tokens another issuer gave (Google's one token endpoint serves BigLake and Cloud Storage
   * alike: the GCS emulator's `principalOf`): the principal, or undefined for a token it did not issue.
   */
  trustedTokens?: (token: string) => string | undefined;
  /**
   * An extra token endpoint at this absolute path, like an external identity provider's (Keycloak
   * behaviour); the only one that takes Google's jwt-bearer grant. When it is the flavour's own
   * token route (Polaris's, Nessie's), the flavour answers.
   */
  tokenPath?: string;
  /**
   * Serve the deprecated `{basePath}/v1/oauth/tokens` (flavours `rest` and `polaris`); default true.
   * Nessie always answers it 501; Lakekeeper, Unity, Glue and S3 Tables have no such route.
   */
  legacyTokenEndpoint?: boolean;
  tokenTtlSeconds?: number;
  /** Status for an expired issued token: 401 (default) or 419. */
  expiredTokenStatus?: 401 | 419;
  sigv4?: { service: string; region: string; keys: AccessKey[] };
  /** Principals (token, client id, service-account email or access key id) that may not read: 403. */
  denied?: string[];
  /**
   * Known warehouses. `rest`: when set, any other `?warehouse=` gets 404 NoSuchWarehouseException.
   * Flavours: catalog names (Polaris, Unity), warehouse names (Lakekeeper, Nessie), account ids
   * (Glue), table-bucket ARNs (S3 Tables), gs:// buckets (BigLake); default the flavour's one (DEFAULT_WAREHOUSES).
   */
  warehouses?: string[];
  /** The prefix returned in overrides; null for none. Default `main`. */
  prefix?: string | null;
  defaults?: Record<string, string>;
  overrides?: Record<string, string>;
  /** Advertised endpoints; null omits the field. Default: the routes served here (DEFAULT_ENDPOINTS). */
  endpoints?: string[] | null;
  namespaces?: string[][];
  /** The server's clock runs this far ahead (negative: behind); it shows in `Date` and in checks. */
  clockOffsetMs?: number;
  /** Answer STS AssumeRole at `POST /` (for AWS_ENDPOINT_URL_STS): only these role ARNs may be assumed. */
  sts?: { allowedRoles: string[] };
}

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface CatalogEmulator {
  flavour: CatalogFlavour;
  /** Base URL including the base path, e.g. http://127.0.0.1:40123/api/catalog. */
  url: string;
  origin: string;
  port: number;
  /** The extra token endpoint's URL, else the legacy one. */
  tokenUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** How many tokens the token endpoints issued. */
  issuedTokens(): number;
  setFault(fault: CatalogFault | null, route?: FaultRoute): void;
  /** Replaces the denied privileges (an empty list allows everything). */
  setDeny(privileges: Privilege[]): void;
  close(): Promise<void>;
}

/** The routes served here, as /v1/config advertises them. */
export const DEFAULT_ENDPOINTS = [
  'GET /v1/{prefix}/namespaces',
  'POST /v1/{prefix}/namespaces',
  'GET /v1/{prefix}/namespaces/{namespace}',
  'HEAD /v1/{prefix}/namespaces/{namespace}',
  'DELETE /v1/{prefix}/namespaces/{namespace}',
  'GET /v1/{prefix}/namespaces/{namespace}/tables',
  'POST /v1/{prefix}/namespaces/{namespace}/tables',
  'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'POST /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'POST /v1/{prefix}/namespaces/{namespace}/properties',
  'POST /v1/{prefix}/tables/rename',
];
