// The local sandbox behind `floe sandbox`: a REST-catalog emulator, an S3-compatible server and the
// OLake UI emulator on loopback, with fixed, printable credentials. Used by the command, the tests,
// the benchmarks and the screenshots. No React here.
//
// The catalog runs in one flavour (SANDBOX_CATALOGS): a real server's behaviour (Polaris, Lakekeeper,
// Nessie, Unity, Glue, S3 Tables) or `rest`, the generic fixture that takes every auth type. In `rest`
// the catalog emulator checks one auth mode per server, so the catalog address is a small front that
// sends SigV4-signed requests (Authorization: AWS4-HMAC-SHA256 …) to a SigV4 emulator and everything
// else to a bearer/OAuth2 one; there the bearer emulator also takes Google's jwt-bearer grant, for a
// service-account key file written into the sandbox's temporary directory. Other flavours run one
// emulator behind the front. Headers pass through unchanged, so signatures over Host still verify.
// The catalog writes table metadata files into s3rver's bucket; in `rest` each of the two emulators
// keeps its own namespaces and tables, so a client sees those made with its own auth type. `biglake`
// keeps its data in Cloud Storage instead: the GCS emulator (gcs.ts), whose token endpoint issues the
// tokens both it and the catalog take (Google's one token endpoint), for a service-account key file the
// sandbox writes; the catalog writes its metadata files there with a service account of its own.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Values } from '../destination/fields.js';
import { toDestinationJson } from '../destination/olake.js';
import {
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  type CatalogFlavour,
  lakekeeperWarehouseId,
  POLARIS_PURGE_PROPERTY,
  type Privilege,
  startCatalogEmulator,
} from './catalog/index.js';
import { SANDBOX } from './credentials.js';
import { type GcsEmulator, startGcsEmulator } from './gcs.js';
import { createSandboxLog, logRequests, type SandboxLog } from './log.js';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from './olake-ui/index.js';
import { type SandboxCatalogFacts, sandboxProfile } from './profile.js';
import type { SeededTable } from './seed-tables.js';

export type { SandboxCatalogFacts } from './profile.js';

import { S3RVER_ACCESS_KEY, S3RVER_SECRET_KEY, type S3Server, startS3Server } from './s3.js';

/** The S3 port is s3rver's own default, so a saved sandbox profile still points at it after a restart. */
export const DEFAULT_PORTS = { catalog: 8181, olake: 8000, s3: 4568 } as const;
/** Cloud Storage's (`biglake` only): fake-gcs-server's default, so a saved profile's key file still reaches it. */
export const DEFAULT_GCS_PORT = 4443;
export const DEFAULT_JOBS = 50;
/** How many ports after a busy preferred one are tried before any free port. */
const PORT_ATTEMPTS = 10;
const PROXY_TIMEOUT_MS = 30_000;
const HOST = '127.0.0.1';

export { CATALOG_FLAVOURS, type CatalogFlavour, PRIVILEGES, type Privilege } from './catalog/index.js';
export { SANDBOX } from './credentials.js';

const S3TABLES_ARN = 'arn:aws:s3tables:us-east-1:123456789012:bucket/warehouse';

/**
 * Each flavour's connection facts, keyed by flavour. OAuth2 flavours take the client
 * SANDBOX.oauth.clientId / clientSecret; `unity` takes the bearer token SANDBOX.token; SigV4 flavours
 * take s3rver's keys. Catalog references: shared/reference/catalogs.md §1.1.
 */
export const SANDBOX_CATALOGS: Record<CatalogFlavour, SandboxCatalogFacts> = {
  rest: {
    title: 'generic REST catalog (every auth type)',
    basePath: '/api/catalog',
    warehouse: SANDBOX.dataLocation,
    dataLocation: SANDBOX.dataLocation,
    auth: 'oauth2',
    tokenPath: '/token',
    scope: 'catalog',
    prefix: 'overrides.prefix "warehouse"',
  },
  polaris: {
    title: 'Apache Polaris',
    basePath: '/api/catalog',
    warehouse: 'olake_catalog',
    dataLocation: SANDBOX.dataLocation,
    auth: 'oauth2',
    tokenPath: '/api/catalog/v1/oauth/tokens',
    scope: 'PRINCIPAL_ROLE:ALL',
    prefix: 'overrides.prefix "olake_catalog"',
  },
  lakekeeper: {
    title: 'Lakekeeper (tokens from a Keycloak-style identity provider)',
    basePath: '/catalog',
    warehouse: 'demo',
    dataLocation: SANDBOX.dataLocation,
    auth: 'oauth2',
    tokenPath: '/realms/iceberg/protocol/openid-connect/token',
    scope: 'lakekeeper',
    prefix: `defaults.prefix "${lakekeeperWarehouseId('demo')}", overrides.uri`,
  },
  nessie: {
    title: 'Project Nessie (tokens from a Keycloak-style identity provider)',
    basePath: '/iceberg',
    warehouse: SANDBOX.dataLocation,
    dataLocation: SANDBOX.dataLocation,
    auth: 'oauth2',
    tokenPath: '/realms/nessie/protocol/openid-connect/token',
    scope: 'catalog',
    prefix: `defaults.prefix "${encodeURIComponent(`main|${SANDBOX.dataLocation}`)}", overrides.uri`,
  },
  unity: {
    title: 'Unity Catalog',
    basePath: '/api/2.1/unity-catalog/iceberg',
    warehouse: 'unity',
    dataLocation: SANDBOX.dataLocation,
    auth: 'token',
    prefix: 'overrides.prefix "catalogs/unity"',
  },
  glue: {
    title: 'AWS Glue Iceberg REST',
    basePath: '/iceberg',
    warehouse: '123456789012',
    dataLocation: SANDBOX.dataLocation,
    auth: 'sigv4',
    signingName: 'glue',
    prefix: 'overrides.prefix "catalogs/123456789012"',
  },
  s3tables: {
    title: 'Amazon S3 Tables',
    basePath: '/iceberg',
    warehouse: S3TABLES_ARN,
    dataLocation: SANDBOX.dataLocation,
    auth: 'sigv4',
    signingName: 's3tables',
    prefix: `defaults.prefix "${encodeURIComponent(S3TABLES_ARN)}"`,
  },
  biglake: {
    title: 'Google BigLake metastore (a Cloud Storage bucket catalog)',
    basePath: '/iceberg/v1/restcatalog',
    warehouse: SANDBOX.gcsLocation,
    dataLocation: SANDBOX.gcsLocation,
    auth: 'google',
    prefix: `overrides.prefix "projects/${SANDBOX.google.projectId}/catalogs/${SANDBOX.bucket}"`,
  },
};

export interface SandboxPorts {
  /** Preferred ports; when busy, the next ones are tried, then any free port. 0: any free port. */
  catalog?: number;
  olake?: number;
  s3?: number;
  /** Cloud Storage (`biglake` only); default DEFAULT_GCS_PORT. */
  gcs?: number;
  /** These services take exactly their port, or the start fails (the user named it: no silent move). */
  exact?: ('catalog' | 'olake' | 's3')[];
}

/** A port the user named is busy. */
export class PortBusyError extends Error {
  constructor(
    readonly service: 'catalog' | 'olake' | 's3',
    readonly port: number,
  ) {
    super(`port ${port} is busy`);
  }
}

export interface SandboxOptions {
  ports?: SandboxPorts;
  /** Seeded OLake UI jobs; default 50. */
  jobs?: number;
  /** The catalog's flavour; default `rest` (`floe sandbox` itself defaults to `polaris`). */
  catalog?: CatalogFlavour;
  /** Privileges the catalog's principal lacks: those operations get the flavour's refusal. */
  deny?: Privilege[];
  /**
   * Seed the demo tables (seed-tables.ts demoTables) in the background, as `floe sandbox` does: the
   * sandbox answers at once and the tables appear one by one (the 150-snapshot one takes ~20 s).
   */
  tables?: boolean;
  /** Where the emulators' requests and errors go; default a new log (Sandbox.log). */
  log?: SandboxLog;
}

/** The background seeding of the demo tables: the tables done so far, and how it ended. */
export interface SandboxTables {
  /** Where OLake writes the seeded streams (SANDBOX_TABLE_NAMESPACE). */
  namespace: string[];
  seeded: SeededTable[];
  /** Settles when every table is seeded, the seeding failed (`error`) or the sandbox stopped. */
  done: Promise<{ error?: string }>;
}

/**
 * The namespace of the seeded tables: OLake writes a stream to its `destination_database`, else the
 * writer's `iceberg_db`, else the stream's own namespace (datazip-inc/olake types/stream_configured.go
 * GetDestinationDatabase), and names the table after the stream (GetDestinationTable). The emulator's
 * streams (olake-ui/seed.ts streamsConfig) carry neither and the sandbox destination no iceberg_db, so
 * the jobs' streams `public.orders`, `public.events`… land in `public`.
 */
export const SANDBOX_TABLE_NAMESPACE = ['public'];

export interface SandboxCatalog {
  flavour: CatalogFlavour;
  /** The privileges the catalog refuses (SandboxOptions.deny). */
  deny: Privilege[];
  /** The flavour's connection facts (SANDBOX_CATALOGS). */
  facts: SandboxCatalogFacts;
  /** The REST catalog URL (with its base path). */
  url: string;
  port: number;
  /**
   * The OAuth2 token endpoint of the flavour (facts.tokenPath); for token and SigV4 flavours the
   * spec's default `<url>/v1/oauth/tokens`, which those servers do not serve.
   */
  tokenUrl: string;
  /**
   * `rest` and `biglake`: a Google service-account key file (JSON, mode 0600) the catalog accepts for
   * the Google auth type; its token_uri is the bearer emulator's own token endpoint (`rest`) or the GCS
   * emulator's (`biglake`, whose storage takes the same key).
   */
  serviceAccountFile?: string;
  /**
   * The emulators behind the front that answer unsigned and SigV4-signed requests (for tests:
   * recorded requests, faults). Outside `rest` both are the flavour's one emulator.
   */
  bearer: CatalogEmulator;
  sigv4: CatalogEmulator;
}

export interface SandboxOlake {
  url: string;
  port: number;
  emulator: OlakeUiEmulator;
}

export interface Sandbox {
  /** The temporary directory holding the objects and the key file; removed by stop(). */
  directory: string;
  catalog: SandboxCatalog;
  s3: S3Server;
  /** `biglake`: Cloud Storage (its url is what STORAGE_EMULATOR_HOST names). */
  gcs?: GcsEmulator;
  olake: SandboxOlake;
  /** One sentence per service moved off its preferred port, e.g. "8181 is busy; the catalog is on 8182". */
  notices: string[];
  /** The demo tables being seeded (SandboxOptions.tables); undefined when not asked for. */
  tables?: SandboxTables;
  /** Every request the emulators answered and every error they failed with. */
  log: SandboxLog;
  /** Stops everything and removes the temporary data; safe to call twice. */
  stop(): Promise<void>;
}

/** Seeds the demo tables through the sandbox's own profile, the seeded list growing as it goes. */
function seedInBackground(values: Values, stops: (() => Promise<void>)[]): SandboxTables {
  const abort = new AbortController();
  const seeded: SeededTable[] = [];
  const done = (async (): Promise<{ error?: string }> => {
    try {
      const [{ openSession }, { demoTables, seedTables }] = await Promise.all([
        import('../tables/session.js'),
        import('./seed-tables.js'),
      ]);
      const opened = await openSession(values, { signal: abort.signal, timeoutMs: 10_000 });
      if (abort.signal.aborted) return {};
      if (!('session' in opened))
        return { error: opened.diagnoses.map((d) => d.what).join('; ') || 'no catalog session' };
      const opts = { values, session: opened.session, signal: abort.signal };
      for (const table of demoTables(Date.now(), SANDBOX_TABLE_NAMESPACE)) {
        if (abort.signal.aborted) break;
        seeded.push(...(await seedTables([table], opts)));
      }
      return {};
    } catch (error) {
      return abort.signal.aborted ? {} : { error: error instanceof Error ? error.message : String(error) };
    }
  })();
  stops.push(async () => {
    abort.abort();
    await done;
  });
  return { namespace: SANDBOX_TABLE_NAMESPACE, seeded, done };
}

/** A new service account's key: its public half, and its key file's JSON for a token endpoint. */
function serviceAccountKey(clientEmail: string) {
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    clientEmail,
    publicKey: key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    json: (tokenUri: string) =>
      JSON.stringify(
        {
          type: 'service_account',
          project_id: SANDBOX.google.projectId,
          client_email: clientEmail,
          private_key: key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          token_uri: tokenUri,
        },
        null,
        2,
      ),
  };
}

const isAddressInUse = (error: unknown) => (error as { code?: unknown }).code === 'EADDRINUSE';

/** Starts `start` on `preferred`, else the next ports, else any free one; notes a move. */
async function onFreePort<T extends { port: number }>(
  what: string,
  preferred: number,
  start: (port: number) => Promise<T>,
  notices: string[],
  exact?: 'catalog' | 'olake' | 's3',
): Promise<T> {
  const candidates =
    preferred === 0 || exact
      ? [preferred]
      : [...Array.from({ length: PORT_ATTEMPTS }, (_, i) => preferred + i), 0];
  for (const port of candidates) {
    try {
      const started = await start(port);
      if (preferred !== 0 && started.port !== preferred)
        notices.push(`${preferred} is busy; the ${what} is on ${started.port}`);
      return started;
    } catch (error) {
      if (exact && isAddressInUse(error)) throw new PortBusyError(exact, port);
      if (!isAddressInUse(error) || port === 0) throw error;
    }
  }
  throw new Error(`no free port for the ${what}`);
}

function forward(req: IncomingMessage, res: ServerResponse, port: number): void {
  const upstream = httpRequest(
    { host: HOST, port, method: req.method, path: req.url, headers: req.headers, timeout: PROXY_TIMEOUT_MS },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('timeout', () => upstream.destroy(new Error('catalog emulator timed out')));
  upstream.on('error', () => {
    if (res.headersSent) res.destroy();
    else {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"Bad Gateway","type":"BadGatewayException","code":502}}');
    }
  });
  req.pipe(upstream);
}

async function startFront(port: number, bearer: CatalogEmulator, sigv4: CatalogEmulator, log: SandboxLog) {
  const server: Server = createServer((req, res) => {
    const signed = /^AWS4-HMAC-SHA256\s/i.test(req.headers.authorization ?? '');
    forward(req, res, signed ? sigv4.port : bearer.port);
  });
  logRequests(server, 'catalog', log);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const ports = { ...DEFAULT_PORTS, ...options.ports };
  const exact = (service: 'catalog' | 'olake' | 's3') =>
    ports.exact?.includes(service) ? service : undefined;
  const log = options.log ?? createSandboxLog();
  const notices: string[] = [];
  const stops: (() => Promise<void>)[] = [];
  const directory = mkdtempSync(join(tmpdir(), 'floe-sandbox-'));
  const removeData = () => rmSync(directory, { recursive: true, force: true });
  process.once('exit', removeData);
  let stopped: Promise<void> | undefined;
  const stopAll = () => {
    stopped ??= (async () => {
      // Last started, first stopped, one after the other: the tables' seeding ends before the catalog and
      // the store it writes to close, and the store before its folder goes.
      for (const stop of [...stops].reverse()) await stop().catch(() => undefined);
      removeData();
      process.off('exit', removeData);
    })();
    return stopped;
  };

  try {
    const data = join(directory, 's3');
    mkdirSync(data);
    const s3 = await onFreePort(
      'object store',
      ports.s3,
      (port) => startS3Server({ port, bucket: SANDBOX.bucket, directory: data, log }),
      notices,
      exact('s3'),
    );
    stops.push(() => s3.close());

    const flavour = options.catalog ?? 'rest';
    const facts = SANDBOX_CATALOGS[flavour];
    const deny = [...new Set(options.deny ?? [])];
    const common: CatalogEmulatorOptions = {
      host: HOST,
      log,
      basePath: facts.basePath,
      namespaces: SANDBOX.namespaces.map((ns) => [...ns]),
      deny,
      // Table metadata files land in the sandbox's bucket, where a client's data files go.
      objectStore: {
        endpoint: s3.url,
        region: SANDBOX.region,
        accessKeyId: S3RVER_ACCESS_KEY,
        secretAccessKey: S3RVER_SECRET_KEY,
      },
    };
    const oauthClient = {
      id: SANDBOX.oauth.clientId,
      secret: SANDBOX.oauth.clientSecret,
      scopes: facts.scope ? [facts.scope] : [],
    };
    const sigv4Options: CatalogEmulatorOptions = {
      auth: 'sigv4',
      sigv4: {
        service: facts.signingName ?? SANDBOX.sigv4.signingName,
        region: SANDBOX.region,
        keys: [
          {
            accessKeyId: S3RVER_ACCESS_KEY,
            secretAccessKey: S3RVER_SECRET_KEY,
            arn: 'arn:aws:iam::123456789012:user/olake',
          },
        ],
      },
    };
    let bearer: CatalogEmulator;
    let sigv4: CatalogEmulator;
    let serviceAccountFile: string | undefined;
    let gcs: GcsEmulator | undefined;
    /**
     * BigLake: Cloud Storage with the user's service account and the catalog's own (its metadata
     * writes), the key file for the user's; the catalog takes the tokens Cloud Storage's endpoint issues.
     */
    const googleCatalog = async (flavoured: CatalogEmulatorOptions): Promise<CatalogEmulatorOptions> => {
      const user = serviceAccountKey(SANDBOX.google.clientEmail);
      const agent = serviceAccountKey(SANDBOX.google.catalogEmail);
      const store = await onFreePort(
        'Cloud Storage emulator',
        ports.gcs ?? DEFAULT_GCS_PORT,
        (port) =>
          startGcsEmulator({
            port,
            serviceAccounts: [user, agent],
            buckets: [{ name: SANDBOX.bucket, location: 'US' }],
            projects: [SANDBOX.google.projectId],
            log,
          }),
        notices,
      );
      gcs = store;
      stops.push(() => store.close());
      serviceAccountFile = join(directory, 'gcp-service-account.json');
      writeFileSync(serviceAccountFile, user.json(store.tokenUrl), { mode: 0o600 });
      return {
        ...flavoured,
        auth: 'bearer',
        trustedTokens: store.principalOf,
        gcpProject: SANDBOX.google.projectId,
        objectStore: { kind: 'gcs', base: store.url, serviceAccountJson: agent.json(store.tokenUrl) },
      };
    };
    if (flavour === 'rest') {
      const rest = { ...common, warehouses: [SANDBOX.dataLocation], prefix: SANDBOX.bucket };
      const google = serviceAccountKey(SANDBOX.google.clientEmail);
      bearer = await startCatalogEmulator({
        ...rest,
        auth: 'bearer',
        tokens: [SANDBOX.token],
        clients: [oauthClient],
        tokenPath: facts.tokenPath,
        serviceAccounts: [google],
      });
      stops.push(() => bearer.close());
      serviceAccountFile = join(directory, 'gcp-service-account.json');
      writeFileSync(serviceAccountFile, google.json(bearer.tokenUrl), { mode: 0o600 });
      sigv4 = await startCatalogEmulator({ ...rest, ...sigv4Options });
      stops.push(() => sigv4.close());
    } else {
      const flavoured: CatalogEmulatorOptions = {
        ...common,
        flavour,
        warehouses: [facts.warehouse],
        dataLocation: facts.dataLocation,
        // Real Polaris refuses purgeRequested=true unless this is set (default false); the sandbox
        // sets it, and /v1/config reports it in defaults as Polaris does.
        ...(flavour === 'polaris' ? { catalogProperties: { [POLARIS_PURGE_PROPERTY]: 'true' } } : {}),
      };
      const emulator = await startCatalogEmulator(
        facts.auth === 'sigv4'
          ? { ...flavoured, ...sigv4Options }
          : facts.auth === 'token'
            ? { ...flavoured, auth: 'bearer', tokens: [SANDBOX.token] }
            : facts.auth === 'google'
              ? await googleCatalog(flavoured)
              : { ...flavoured, auth: 'bearer', clients: [oauthClient], tokenPath: facts.tokenPath },
      );
      stops.push(() => emulator.close());
      bearer = emulator;
      sigv4 = emulator;
    }
    const front = await onFreePort(
      'catalog',
      ports.catalog,
      (port) => startFront(port, bearer, sigv4, log),
      notices,
      exact('catalog'),
    );
    stops.push(() => closeServer(front.server));

    const emulator = await onFreePort(
      'OLake UI',
      ports.olake,
      (port) =>
        startOlakeUiEmulator({
          host: HOST,
          port,
          users: { [SANDBOX.olake.username]: SANDBOX.olake.password },
          project: SANDBOX.olake.project,
          jobs: seedJobs(options.jobs ?? DEFAULT_JOBS, 1, Date.now(), SANDBOX.olake.project),
          log,
        }),
      notices,
      exact('olake'),
    );
    stops.push(() => emulator.close());

    const origin = `http://${HOST}:${front.port}`;
    const catalogUrl = `${origin}${facts.basePath}`;
    const tokenUrl = facts.tokenPath ? `${origin}${facts.tokenPath}` : `${catalogUrl}/v1/oauth/tokens`;
    const profile = sandboxProfile({
      flavour,
      facts,
      catalogUrl,
      tokenUrl,
      s3,
      ...(serviceAccountFile === undefined ? {} : { serviceAccountFile }),
    });
    // The seeded jobs write to this sandbox (its catalog flavour, its store), so testing their destination passes.
    const destination = JSON.stringify(toDestinationJson(profile));
    for (const job of emulator.jobs) job.destination.config = destination;
    for (const record of emulator.destinations) record.config = destination;
    // The demo tables are written through S3 (seed-tables.ts): BigLake's Cloud Storage gets none.
    const tables = options.tables && !gcs ? seedInBackground(profile, stops) : undefined;
    return {
      directory,
      catalog: {
        flavour,
        deny,
        facts,
        url: catalogUrl,
        port: front.port,
        tokenUrl,
        ...(serviceAccountFile === undefined ? {} : { serviceAccountFile }),
        bearer,
        sigv4,
      },
      s3,
      ...(gcs ? { gcs } : {}),
      olake: { url: emulator.url, port: emulator.port, emulator },
      notices,
      ...(tables ? { tables } : {}),
      log,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The sandbox as a profile: the catalog's flavour as the preset, with its facts; s3rver as the store. */
export function sandboxValues(sandbox: Sandbox): Values {
  const { flavour, facts, url, tokenUrl, serviceAccountFile } = sandbox.catalog;
  return sandboxProfile({
    flavour,
    facts,
    catalogUrl: url,
    tokenUrl,
    s3: sandbox.s3,
    ...(serviceAccountFile === undefined ? {} : { serviceAccountFile }),
  });
}
