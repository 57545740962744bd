// The local sandbox behind `floe sandbox`: a REST-catalog emulator, an S3-compatible server and the
// OLake UI emulator on loopback, with fixed, printable credentials. Used by the command, the tests,
// the benchmarks and the screenshots. No React here.
//
// The catalog emulator checks one auth mode per server, so the catalog address is a small front that
// sends SigV4-signed requests (Authorization: AWS4-HMAC-SHA256 …) to a SigV4 emulator and everything
// else to a bearer/OAuth2 one. Headers pass through unchanged, so signatures over Host still verify.
// The bearer emulator also takes Google's jwt-bearer grant, for a service-account key file written
// into the sandbox's temporary directory.
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
import { type CatalogEmulator, startCatalogEmulator } from './catalog/index.js';
import { type OlakeUiEmulator, seedJobs, startOlakeUiEmulator } from './olake-ui/index.js';
import { S3RVER_ACCESS_KEY, S3RVER_SECRET_KEY, type S3Server, startS3Server } from './s3.js';

export const DEFAULT_PORTS = { catalog: 8181, olake: 8000, s3: 0 } as const;
export const DEFAULT_JOBS = 50;
/** How many ports after a busy preferred one are tried before any free port. */
const PORT_ATTEMPTS = 10;
const PROXY_TIMEOUT_MS = 30_000;
const HOST = '127.0.0.1';

/** Sandbox credentials: fixed so they can be printed and typed. None of them is a real secret. */
export const SANDBOX = {
  bucket: 'warehouse',
  s3Path: 's3://warehouse',
  region: 'us-east-1',
  basePath: '/api/catalog',
  namespaces: [['default'], ['olake'], ['olake', 'staging']],
  oauth: { clientId: 'floe-sandbox', clientSecret: 'sandbox-client-secret', scope: 'catalog' },
  token: 'sandbox-bearer-token',
  /** OLake signs catalog requests with the storage keys, so the SigV4 catalog takes s3rver's. */
  sigv4: { signingName: 'glue', region: 'us-east-1' },
  olake: { username: 'admin', password: 'password', project: '123' },
  google: {
    clientEmail: 'floe-sandbox@sandbox-project.iam.gserviceaccount.com',
    projectId: 'sandbox-project',
  },
} as const;

export interface SandboxPorts {
  /** Preferred ports; when busy, the next ones are tried, then any free port. 0: any free port. */
  catalog?: number;
  olake?: number;
  s3?: number;
}

export interface SandboxOptions {
  ports?: SandboxPorts;
  /** Seeded OLake UI jobs; default 50. */
  jobs?: number;
}

export interface SandboxCatalog {
  /** The REST catalog URL (with its base path). */
  url: string;
  port: number;
  /** The OAuth2 token endpoint. */
  tokenUrl: string;
  /**
   * A Google service-account key file (JSON, mode 0600) the catalog accepts for the Google auth type;
   * its token_uri is the bearer emulator's own token endpoint, the audience it checks.
   */
  serviceAccountFile: string;
  /** The bearer/OAuth2 and SigV4 emulators behind the front (for tests: recorded requests, faults). */
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
  olake: SandboxOlake;
  /** One sentence per service moved off its preferred port, e.g. "8181 is busy; the catalog is on 8182". */
  notices: string[];
  /** Stops everything and removes the temporary data; safe to call twice. */
  stop(): Promise<void>;
}

const isAddressInUse = (error: unknown) => (error as { code?: unknown }).code === 'EADDRINUSE';

/** Starts `start` on `preferred`, else the next ports, else any free one; notes a move. */
async function onFreePort<T extends { port: number }>(
  what: string,
  preferred: number,
  start: (port: number) => Promise<T>,
  notices: string[],
): Promise<T> {
  const candidates =
    preferred === 0 ? [0] : [...Array.from({ length: PORT_ATTEMPTS }, (_, i) => preferred + i), 0];
  for (const port of candidates) {
    try {
      const started = await start(port);
      if (preferred !== 0 && started.port !== preferred)
        notices.push(`${preferred} is busy; the ${what} is on ${started.port}`);
      return started;
    } catch (error) {
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

async function startFront(port: number, bearer: CatalogEmulator, sigv4: CatalogEmulator) {
  const server: Server = createServer((req, res) => {
    const signed = /^AWS4-HMAC-SHA256\s/i.test(req.headers.authorization ?? '');
    forward(req, res, signed ? sigv4.port : bearer.port);
  });
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
  const notices: string[] = [];
  const stops: (() => Promise<void>)[] = [];
  const directory = mkdtempSync(join(tmpdir(), 'floe-sandbox-'));
  const removeData = () => rmSync(directory, { recursive: true, force: true });
  process.once('exit', removeData);
  let stopped: Promise<void> | undefined;
  const stopAll = () => {
    stopped ??= (async () => {
      await Promise.allSettled([...stops].reverse().map((stop) => stop()));
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
      (port) => startS3Server({ port, bucket: SANDBOX.bucket, directory: data }),
      notices,
    );
    stops.push(() => s3.close());

    const common = {
      host: HOST,
      basePath: SANDBOX.basePath,
      warehouses: [SANDBOX.s3Path],
      prefix: SANDBOX.bucket,
      namespaces: SANDBOX.namespaces.map((ns) => [...ns]),
    };
    const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const bearer = await startCatalogEmulator({
      ...common,
      auth: 'bearer',
      tokens: [SANDBOX.token],
      clients: [
        { id: SANDBOX.oauth.clientId, secret: SANDBOX.oauth.clientSecret, scopes: [SANDBOX.oauth.scope] },
      ],
      tokenPath: '/token',
      serviceAccounts: [
        {
          clientEmail: SANDBOX.google.clientEmail,
          publicKey: google.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        },
      ],
    });
    stops.push(() => bearer.close());
    const serviceAccountFile = join(directory, 'gcp-service-account.json');
    writeFileSync(
      serviceAccountFile,
      JSON.stringify(
        {
          type: 'service_account',
          project_id: SANDBOX.google.projectId,
          client_email: SANDBOX.google.clientEmail,
          private_key: google.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          token_uri: bearer.tokenUrl,
        },
        null,
        2,
      ),
      { mode: 0o600 },
    );
    const sigv4 = await startCatalogEmulator({
      ...common,
      auth: 'sigv4',
      sigv4: {
        service: SANDBOX.sigv4.signingName,
        region: SANDBOX.sigv4.region,
        keys: [{ accessKeyId: S3RVER_ACCESS_KEY, secretAccessKey: S3RVER_SECRET_KEY }],
      },
    });
    stops.push(() => sigv4.close());
    const front = await onFreePort(
      'catalog',
      ports.catalog,
      (port) => startFront(port, bearer, sigv4),
      notices,
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
        }),
      notices,
    );
    stops.push(() => emulator.close());

    const catalogUrl = `http://${HOST}:${front.port}${SANDBOX.basePath}`;
    // The seeded jobs write to this sandbox (OAuth2 client, s3rver), so testing their destination passes.
    const destination = JSON.stringify({
      type: 'ICEBERG',
      writer: {
        catalog_type: 'rest',
        rest_auth_type: 'oauth2',
        rest_catalog_url: catalogUrl,
        credential: `${SANDBOX.oauth.clientId}:${SANDBOX.oauth.clientSecret}`,
        oauth2_uri: `${catalogUrl}/v1/oauth/tokens`,
        scope: SANDBOX.oauth.scope,
        iceberg_s3_path: SANDBOX.s3Path,
        aws_region: SANDBOX.region,
        s3_endpoint: s3.url,
        aws_access_key: s3.accessKey,
        aws_secret_key: s3.secretKey,
        rest_signing_v_4: false,
        no_identifier_fields: false,
      },
    });
    for (const job of emulator.jobs) job.destination.config = destination;
    return {
      directory,
      catalog: {
        url: catalogUrl,
        port: front.port,
        tokenUrl: `${catalogUrl}/v1/oauth/tokens`,
        serviceAccountFile,
        bearer,
        sigv4,
      },
      s3,
      olake: { url: emulator.url, port: emulator.port, emulator },
      notices,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
