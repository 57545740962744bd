// The catalog address of the sandbox: a small front on loopback that sends SigV4-signed requests
// (Authorization: AWS4-HMAC-SHA256 …) to one emulator and everything else to another. Headers pass
// through unchanged, so signatures over Host still verify.
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CatalogEmulator } from './catalog/index.js';
import { logRequests, type SandboxLog } from './log.js';

export const HOST = '127.0.0.1';
const PROXY_TIMEOUT_MS = 30_000;

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

export async function startFront(
  port: number,
  bearer: CatalogEmulator,
  sigv4: CatalogEmulator,
  log: SandboxLog,
) {
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

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
