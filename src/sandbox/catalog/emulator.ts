// A loopback Iceberg REST catalog for tests and `floe sandbox`: /v1/config, the namespace and table
// routes (tables.ts; metadata files in an object store, store.ts), an OAuth2 token endpoint
// (tokens.ts), bearer or SigV4 checks on catalog routes, an STS AssumeRole stand-in, privilege
// refusals (`deny`) and a switch for every fault floe diagnoses (faults.ts). node:http only.
//
// Like real servers it authenticates before routing (401, not 404, for an unknown path without
// credentials) and answers the spec's routes it does not implement with 406
// UnsupportedOperationException (the status apache/iceberg's RESTCatalogAdapter and polaris
// IcebergExceptionMapper give UnsupportedOperationException), never 404. A flavour (flavours/)
// models one real server's /v1/config, warehouse, prefix, token endpoint, table locations and
// refusals.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { logFailure } from '../log.js';
import { handle } from './dispatch.js';
import { icebergError } from './http.js';
import type { CatalogEmulator, CatalogEmulatorOptions } from './options.js';
import { createCatalogState } from './state.js';

export type { CatalogFault, FaultRoute } from './faults.js';
export type { CatalogFlavour, Privilege } from './flavours/index.js';
export {
  type CatalogAuthMode,
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  DEFAULT_ENDPOINTS,
  type RecordedRequest,
} from './options.js';
export type { GcsStoreOptions, ObjectStoreOptions } from './store.js';
export type { OAuthClient } from './tokens.js';
export type { AccessKey, ServiceAccount } from './verify.js';

export async function startCatalogEmulator(options: CatalogEmulatorOptions = {}): Promise<CatalogEmulator> {
  const state = createCatalogState(options);
  const { basePath, flavour, faults, requests, closing, running, objectStore } = state;
  const sockets = new Set<Socket>();

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const run = handle(state, req, res).catch((error: unknown) => {
      if (closing.signal.aborted) return void res.destroy();
      logFailure(options.log, 'catalog', req, error);
      // As Iceberg's REST servers map an unexpected exception: its class as the type, its message.
      if (!res.headersSent)
        icebergError(
          res,
          500,
          error instanceof Error ? error.name : 'InternalServerError',
          `the catalog emulator failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      else res.destroy();
    });
    running.add(run);
    void run.finally(() => running.delete(run));
  };
  const server: Server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, listener)
    : createHttpServer(listener);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  state.origin = origin;

  return {
    flavour,
    url: `${origin}${basePath}`,
    origin,
    port,
    tokenUrl: options.tokenPath ? `${origin}${options.tokenPath}` : `${origin}${basePath}/v1/oauth/tokens`,
    requests,
    issuedTokens: () => state.issued,
    setFault(fault, route = 'any') {
      if (fault) faults.set(route, fault);
      else faults.delete(route);
    },
    setDeny(privileges) {
      state.deniedPrivileges = new Set(privileges);
    },
    async close() {
      closing.abort();
      for (const socket of sockets) socket.destroy();
      if ('close' in objectStore) objectStore.close();
      await Promise.allSettled(running);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
