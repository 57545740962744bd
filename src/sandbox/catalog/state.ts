// The catalog emulator's state, made once from its options: the flavour and its rules, the tokens and
// keys it takes, the namespaces and tables, the object store, the faults switched on, and the route
// handlers over them (tables.ts, tokens.ts, auth.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { authenticator, type IssuedToken } from './auth.js';
import type { CatalogFault, FaultRoute } from './faults.js';
import { DEFAULT_WAREHOUSES, FLAVOURS, type Privilege, REST_RULES } from './flavours/index.js';
import type { FlavourModel } from './flavours/model.js';
import type { CatalogEmulatorOptions, RecordedRequest } from './options.js';
import {
  gcsObjectStore,
  memoryObjectStore,
  type NamespaceEntry,
  nsKey,
  s3ObjectStore,
  type TableEntry,
} from './store.js';
import { tableRoutes } from './tables.js';
import { tokenEndpoints } from './tokens.js';

const DEFAULT_ACCOUNT = '123456789012';
const DEFAULT_GCP_PROJECT = 'floe-emulator';

function objectStoreOf(options: CatalogEmulatorOptions) {
  return options.objectStore === undefined
    ? memoryObjectStore()
    : 'kind' in options.objectStore
      ? gcsObjectStore(options.objectStore)
      : s3ObjectStore(options.objectStore);
}

/**
 * What answers `{basePath}/v1/oauth/tokens`. `absent`: no route in this server, so it authenticates
 * first, like any unknown path. `unserved`: a token route switched off (legacyTokenEndpoint false)
 * stays outside the authenticated API, like the spec's getToken (no required security): 404.
 */
function legacyTokenRouteOf(
  model: FlavourModel | undefined,
  options: CatalogEmulatorOptions,
): 'nessie' | 'absent' | 'unserved' | 'polaris' | 'idp' {
  return model?.legacyToken === 'not-implemented'
    ? 'nessie'
    : model?.legacyToken === 'absent'
      ? 'absent'
      : options.legacyTokenEndpoint === false
        ? 'unserved'
        : model
          ? 'polaris'
          : 'idp';
}

/** The tokens, keys and clients the emulator takes: its token endpoints and its authenticator. */
function authOf(options: CatalogEmulatorOptions, counter: { issued: number }) {
  const authMode = options.auth ?? 'none';
  const ttl = options.tokenTtlSeconds ?? 3600;
  const tokens = new Map<string, IssuedToken>();
  const staticTokens = new Set(options.tokens ?? []);
  const keys = new Map((options.sigv4?.keys ?? []).map((k) => [k.accessKeyId, k]));
  const now = () => Date.now() + (options.clockOffsetMs ?? 0);
  const issue = (principal: string) => {
    const token = randomBytes(24).toString('base64url');
    tokens.set(token, { principal, expiresAt: now() + ttl * 1000 });
    counter.issued++;
    return token;
  };
  const endpoints = tokenEndpoints({
    clients: options.clients ?? [],
    serviceAccounts: options.serviceAccounts ?? [],
    ttl,
    now,
    issue,
    keys,
    stsRoles: options.sts?.allowedRoles ?? [],
  });
  const authenticate = authenticator({
    mode: authMode,
    sigv4: {
      service: options.sigv4?.service ?? 'execute-api',
      region: options.sigv4?.region ?? 'us-east-1',
      keys,
    },
    staticTokens,
    tokens,
    ...(options.trustedTokens ? { trusted: options.trustedTokens } : {}),
    now,
    expiredTokenStatus: options.expiredTokenStatus ?? 401,
  });
  return { authMode, tokens, staticTokens, keys, now, endpoints, authenticate };
}

export type CatalogState = ReturnType<typeof createCatalogState>;

export function createCatalogState(options: CatalogEmulatorOptions) {
  const state = { issued: 0, origin: '', deniedPrivileges: new Set<Privilege>(options.deny ?? []) };
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const prefix = options.prefix === undefined ? 'main' : options.prefix;
  // The prefix is inserted into paths as advertised (maybe percent-encoded); routes compare decoded segments.
  const prefixSegments = prefix ? prefix.split('/').map((part) => decodeURIComponent(part)) : [];
  const flavour = options.flavour ?? 'rest';
  const model = flavour === 'rest' ? undefined : FLAVOURS[flavour];
  const warehouses = options.warehouses ?? (flavour === 'rest' ? [] : [DEFAULT_WAREHOUSES[flavour]]);
  const dataLocation = options.dataLocation ?? 's3://warehouse';
  const callerAccount =
    /^arn:aws:iam::(\d{12}):/.exec(options.sigv4?.keys[0]?.arn ?? '')?.[1] ?? DEFAULT_ACCOUNT;
  const denied = new Set(options.denied ?? []);
  const { authMode, tokens, staticTokens, keys, now, endpoints, authenticate } = authOf(options, state);
  const namespaces = new Map<string, NamespaceEntry>(
    (options.namespaces ?? [['default']]).map((levels) => [
      nsKey(levels),
      { levels, properties: {}, uuid: randomUUID() },
    ]),
  );
  const tables = new Map<string, TableEntry>();
  const objectStore = objectStoreOf(options);
  const faults = new Map<FaultRoute, CatalogFault>();
  const requests: RecordedRequest[] = [];
  // Closing aborts the waits of slow faults; close() awaits every handler still running, so none
  // writes to the object store after the emulator said it stopped.
  const closing = new AbortController();
  const running = new Set<Promise<void>>();
  const baseCtx = {
    warehouses,
    dataLocation,
    callerAccount,
    catalogProperties: options.catalogProperties ?? {},
    project: options.gcpProject ?? DEFAULT_GCP_PROJECT,
  };
  const routes = tableRoutes({
    rules: model ?? REST_RULES,
    ctx: { ...baseCtx, baseUrl: '' },
    store: objectStore,
    namespaces,
    tables,
    denied: () => state.deniedPrivileges,
    base: options.tableLocationBase ?? dataLocation,
    now,
  });

  const legacyTokenRoute = legacyTokenRouteOf(model, options);

  return Object.assign(state, {
    options,
    basePath,
    prefix,
    prefixSegments,
    flavour,
    model,
    callerAccount,
    authMode,
    tokens,
    staticTokens,
    denied,
    keys,
    namespaces,
    tables,
    objectStore,
    faults,
    requests,
    closing,
    running,
    now,
    endpoints,
    baseCtx,
    routes,
    authenticate,
    legacyTokenRoute,
  });
}
