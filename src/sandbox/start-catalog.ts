// The sandbox's catalog emulators, in its flavour (SANDBOX_CATALOGS). In `rest` the catalog emulator
// checks one auth mode per server, so two run: a SigV4 one and a bearer/OAuth2 one, which also takes
// Google's jwt-bearer grant for a service-account key file written into the sandbox's directory; each
// keeps its own namespaces and tables. Other flavours run one emulator. `biglake` keeps its data in
// Cloud Storage (gcs.ts), whose token endpoint issues the tokens both it and the catalog take (Google's
// one token endpoint); the catalog writes its metadata files there with a service account of its own.
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  type CatalogFlavour,
  POLARIS_PURGE_PROPERTY,
  type Privilege,
  startCatalogEmulator,
} from './catalog/index.js';
import { SANDBOX_CATALOGS } from './catalogs.js';
import { SANDBOX } from './credentials.js';
import { HOST } from './front.js';
import { type GcsEmulator, startGcsEmulator } from './gcs.js';
import type { SandboxLog } from './log.js';
import { DEFAULT_GCS_PORT, onFreePort } from './ports.js';
import type { SandboxCatalogFacts } from './profile.js';
import { S3RVER_ACCESS_KEY, S3RVER_SECRET_KEY, type S3Server } from './s3.js';

/** What starting a part of the sandbox shares: where it writes, logs, notes a moved port, and its stops. */
export interface StartContext {
  directory: string;
  log: SandboxLog;
  notices: string[];
  stops: (() => Promise<void>)[];
  /** Cloud Storage's preferred port (`biglake`). */
  gcsPort?: number;
}

export interface StartedCatalog {
  bearer: CatalogEmulator;
  sigv4: CatalogEmulator;
  serviceAccountFile?: string;
  gcs?: GcsEmulator;
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

/** The options every flavour shares, and its OAuth2 client and SigV4 keys. */
function catalogOptions(facts: SandboxCatalogFacts, deny: Privilege[], s3: S3Server, log: SandboxLog) {
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
  return { common, oauthClient, sigv4Options };
}

/**
 * BigLake: Cloud Storage with the user's service account and the catalog's own (its metadata
 * writes), the key file for the user's; the catalog takes the tokens Cloud Storage's endpoint issues.
 */
async function googleCatalog(
  ctx: StartContext,
  flavoured: CatalogEmulatorOptions,
  started: Partial<StartedCatalog>,
): Promise<CatalogEmulatorOptions> {
  const user = serviceAccountKey(SANDBOX.google.clientEmail);
  const agent = serviceAccountKey(SANDBOX.google.catalogEmail);
  const store = await onFreePort(
    'Cloud Storage emulator',
    ctx.gcsPort ?? DEFAULT_GCS_PORT,
    (port) =>
      startGcsEmulator({
        port,
        serviceAccounts: [user, agent],
        buckets: [{ name: SANDBOX.bucket, location: 'US' }],
        projects: [SANDBOX.google.projectId],
        log: ctx.log,
      }),
    ctx.notices,
  );
  started.gcs = store;
  ctx.stops.push(() => store.close());
  started.serviceAccountFile = join(ctx.directory, 'gcp-service-account.json');
  writeFileSync(started.serviceAccountFile, user.json(store.tokenUrl), { mode: 0o600 });
  return {
    ...flavoured,
    auth: 'bearer',
    trustedTokens: store.principalOf,
    gcpProject: SANDBOX.google.projectId,
    objectStore: { kind: 'gcs', base: store.url, serviceAccountJson: agent.json(store.tokenUrl) },
  };
}

/** Starts the flavour's catalog emulators (two for `rest`, else one), each stopped by ctx.stops. */
export async function startCatalogs(
  ctx: StartContext,
  flavour: CatalogFlavour,
  deny: Privilege[],
  s3: S3Server,
): Promise<StartedCatalog> {
  const facts = SANDBOX_CATALOGS[flavour];
  const { common, oauthClient, sigv4Options } = catalogOptions(facts, deny, s3, ctx.log);
  if (flavour === 'rest') {
    const rest = { ...common, warehouses: [SANDBOX.dataLocation], prefix: SANDBOX.bucket };
    const google = serviceAccountKey(SANDBOX.google.clientEmail);
    const bearer = await startCatalogEmulator({
      ...rest,
      auth: 'bearer',
      tokens: [SANDBOX.token],
      clients: [oauthClient],
      tokenPath: facts.tokenPath,
      serviceAccounts: [google],
    });
    ctx.stops.push(() => bearer.close());
    const serviceAccountFile = join(ctx.directory, 'gcp-service-account.json');
    writeFileSync(serviceAccountFile, google.json(bearer.tokenUrl), { mode: 0o600 });
    const sigv4 = await startCatalogEmulator({ ...rest, ...sigv4Options });
    ctx.stops.push(() => sigv4.close());
    return { bearer, sigv4, serviceAccountFile };
  }
  const flavoured: CatalogEmulatorOptions = {
    ...common,
    flavour,
    warehouses: [facts.warehouse],
    dataLocation: facts.dataLocation,
    // Real Polaris refuses purgeRequested=true unless this is set (default false); the sandbox
    // sets it, and /v1/config reports it in defaults as Polaris does.
    ...(flavour === 'polaris' ? { catalogProperties: { [POLARIS_PURGE_PROPERTY]: 'true' } } : {}),
  };
  const started: Partial<StartedCatalog> = {};
  const emulator = await startCatalogEmulator(
    facts.auth === 'sigv4'
      ? { ...flavoured, ...sigv4Options }
      : facts.auth === 'token'
        ? { ...flavoured, auth: 'bearer', tokens: [SANDBOX.token] }
        : facts.auth === 'google'
          ? await googleCatalog(ctx, flavoured, started)
          : { ...flavoured, auth: 'bearer', clients: [oauthClient], tokenPath: facts.tokenPath },
  );
  ctx.stops.push(() => emulator.close());
  return { ...started, bearer: emulator, sigv4: emulator };
}
