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
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Values } from '../destination/fields.js';
import { toDestinationJson } from '../destination/olake.js';
import { SANDBOX_CATALOGS } from './catalogs.js';
import { SANDBOX } from './credentials.js';
import { closeServer, HOST, startFront } from './front.js';
import { createSandboxLog } from './log.js';
import { seedJobs, startOlakeUiEmulator } from './olake-ui/index.js';
import { DEFAULT_PORTS, onFreePort } from './ports.js';
import { sandboxProfile } from './profile.js';
import { startS3Server } from './s3.js';
import { seedInBackground } from './seeding.js';
import { type StartContext, startCatalogs } from './start-catalog.js';
import type { Sandbox, SandboxOptions } from './types.js';

export { CATALOG_FLAVOURS, type CatalogFlavour, PRIVILEGES, type Privilege } from './catalog/index.js';
export { SANDBOX_CATALOGS } from './catalogs.js';
export { SANDBOX } from './credentials.js';
export { DEFAULT_GCS_PORT, DEFAULT_PORTS, PortBusyError, type SandboxPorts } from './ports.js';
export type { SandboxCatalogFacts } from './profile.js';
export { SANDBOX_TABLE_NAMESPACE, type SandboxTables } from './seeding.js';
export type { Sandbox, SandboxCatalog, SandboxOlake, SandboxOptions } from './types.js';

export const DEFAULT_JOBS = 50;

/** The sandbox's temporary directory and its stops: last started, first stopped; safe to call twice. */
function lifecycle() {
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
  return { stops, directory, stopAll };
}

/** s3rver on the sandbox's bucket, its objects under the sandbox's directory. */
async function startStore(ctx: StartContext, preferred: number, exact: 's3' | undefined) {
  const data = join(ctx.directory, 's3');
  mkdirSync(data);
  const s3 = await onFreePort(
    'object store',
    preferred,
    (port) => startS3Server({ port, bucket: SANDBOX.bucket, directory: data, log: ctx.log }),
    ctx.notices,
    exact,
  );
  ctx.stops.push(() => s3.close());
  return s3;
}

/** The OLake UI emulator with the sandbox's user, project and seeded jobs. */
async function startOlake(ctx: StartContext, preferred: number, exact: 'olake' | undefined, jobs: number) {
  const emulator = await onFreePort(
    'OLake UI',
    preferred,
    (port) =>
      startOlakeUiEmulator({
        host: HOST,
        port,
        users: { [SANDBOX.olake.username]: SANDBOX.olake.password },
        project: SANDBOX.olake.project,
        jobs: seedJobs(jobs, 1, Date.now(), SANDBOX.olake.project),
        log: ctx.log,
      }),
    ctx.notices,
    exact,
  );
  ctx.stops.push(() => emulator.close());
  return emulator;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const ports = { ...DEFAULT_PORTS, ...options.ports };
  const exact = <S extends 'catalog' | 'olake' | 's3'>(service: S): S | undefined =>
    ports.exact?.includes(service) ? service : undefined;
  const log = options.log ?? createSandboxLog();
  const notices: string[] = [];
  const { stops, directory, stopAll } = lifecycle();
  const ctx: StartContext = {
    directory,
    log,
    notices,
    stops,
    ...(ports.gcs === undefined ? {} : { gcsPort: ports.gcs }),
  };

  try {
    const s3 = await startStore(ctx, ports.s3, exact('s3'));

    const flavour = options.catalog ?? 'rest';
    const facts = SANDBOX_CATALOGS[flavour];
    const deny = [...new Set(options.deny ?? [])];
    const { bearer, sigv4, serviceAccountFile, gcs } = await startCatalogs(ctx, flavour, deny, s3);
    const front = await onFreePort(
      'catalog',
      ports.catalog,
      (port) => startFront(port, bearer, sigv4, log),
      notices,
      exact('catalog'),
    );
    stops.push(() => closeServer(front.server));

    const emulator = await startOlake(ctx, ports.olake, exact('olake'), options.jobs ?? DEFAULT_JOBS);

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
