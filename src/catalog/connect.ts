// The first step: resolve the catalog host, open a TCP connection and (for https) complete the TLS
// handshake, timing each phase. Failures here are told apart before any HTTP is spoken. Through a
// proxy (HTTPS_PROXY / HTTP_PROXY, unless NO_PROXY exempts the host) DNS and TCP are the proxy's,
// then a CONNECT tunnel to the catalog, as undici's ProxyAgent does for every later request.
import { lookup } from 'node:dns/promises';
import { isIP, type Socket, connect as tcpConnect } from 'node:net';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { proxyFor, proxyLabel } from '../net/proxy.js';
import { classifyError, NetworkFailure } from './http.js';

export interface ConnectResult {
  address: string;
  dnsMs: number;
  tcpMs: number;
  tlsMs?: number;
  tlsProtocol?: string;
  /** The proxy the connection went through (no credentials), and how long its CONNECT took. */
  proxy?: string;
  tunnelMs?: number;
}

/** The proxy's answer to CONNECT: its status line, read up to the blank line that ends the headers. */
async function tunnel(socket: Socket, target: string, proxy: URL, signal: AbortSignal): Promise<void> {
  const auth =
    proxy.username || proxy.password
      ? `Proxy-Authorization: Basic ${Buffer.from(
          `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`,
        ).toString('base64')}\r\n`
      : '';
  socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
  const head = await new Promise<string>((resolve, reject) => {
    let received = '';
    const cleanup = () => {
      signal.removeEventListener('abort', onAbort);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('end', onEnd);
    };
    const onAbort = () => {
      cleanup();
      reject(signal.reason);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onEnd = () => {
      cleanup();
      reject(
        new NetworkFailure('proxy-connect', 'PROXY_CLOSED', 'the proxy closed the connection after CONNECT'),
      );
    };
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n') || received.length > 16_384) {
        cleanup();
        resolve(received);
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('data', onData);
    socket.once('error', onError);
    socket.once('end', onEnd);
  });
  const status = /^HTTP\/1\.[01] (\d{3})([^\r\n]*)/.exec(head);
  if (!status)
    throw new NetworkFailure('proxy-connect', 'PROXY_NOT_HTTP', 'the proxy did not answer CONNECT with HTTP');
  if (!status[1]?.startsWith('2'))
    throw new NetworkFailure(
      'proxy-connect',
      `PROXY_HTTP_${status[1]}`,
      `the proxy answered CONNECT ${target} with HTTP ${status[1]}${(status[2] ?? '').slice(0, 80)}`,
    );
}

function once<T extends Socket>(socket: T, event: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    const cleanup = () => {
      signal.removeEventListener('abort', onAbort);
      socket.off('error', onError);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('error', onError);
    socket.once(event, () => {
      cleanup();
      resolve();
    });
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Throws NetworkFailure. */
export async function probeConnection(
  url: URL,
  opts: { signal: AbortSignal; timeoutMs: number; ca?: string; env: NodeJS.ProcessEnv },
): Promise<ConnectResult> {
  const timer = AbortSignal.timeout(opts.timeoutMs);
  const signal = AbortSignal.any([opts.signal, timer]);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const proxy = proxyFor(url, opts.env);
  const via = proxy ? { proxy: proxyLabel(proxy) } : {};
  let socket: Socket | undefined;
  let secure: TLSSocket | undefined;
  let tunnelled = false;
  try {
    const first = proxy ?? url;
    const firstHost = first.hostname.replace(/^\[|\]$/g, '');
    const firstPort = Number(first.port || (first.protocol === 'https:' ? 443 : 80));
    let t = performance.now();
    const { address } = isIP(firstHost) ? { address: firstHost } : await abortable(lookup(firstHost), signal);
    const dnsMs = Math.round(performance.now() - t);
    t = performance.now();
    socket = tcpConnect({ host: address, port: firstPort });
    await once(socket, 'connect', signal);
    const tcpMs = Math.round(performance.now() - t);
    let tunnelMs: number | undefined;
    if (proxy) {
      t = performance.now();
      if (proxy.protocol === 'https:') {
        const toProxy = tlsConnect({
          socket,
          host: firstHost,
          ...(isIP(firstHost) ? {} : { servername: firstHost }),
        });
        await once(toProxy, 'secureConnect', signal);
        socket = toProxy;
      }
      await tunnel(socket, `${url.hostname}:${port}`, proxy, signal);
      tunnelled = true;
      tunnelMs = Math.round(performance.now() - t);
    }
    const timings = { address, dnsMs, tcpMs, ...via, ...(tunnelMs === undefined ? {} : { tunnelMs }) };
    if (url.protocol !== 'https:') return timings;
    t = performance.now();
    secure = tlsConnect({
      socket,
      host,
      ...(isIP(host) ? {} : { servername: host }),
      ...(opts.ca ? { ca: opts.ca } : {}),
    });
    await once(secure, 'secureConnect', signal);
    return {
      ...timings,
      tlsMs: Math.round(performance.now() - t),
      tlsProtocol: secure.getProtocol() ?? undefined,
    };
  } catch (error) {
    const failure =
      error instanceof NetworkFailure ? error : classifyError(error, opts.signal.aborted, timer.aborted);
    if (!proxy) throw failure;
    // Before the tunnel stands, any failure is the proxy's; after it, the catalog's (e.g. its TLS).
    const kind =
      !tunnelled && failure.kind !== 'cancelled' && failure.kind !== 'proxy-connect'
        ? 'proxy-unreachable'
        : failure.kind;
    throw new NetworkFailure(kind, failure.code, failure.message, proxyLabel(proxy));
  } finally {
    secure?.destroy();
    socket?.destroy();
  }
}
