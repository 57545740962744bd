// The first step: resolve the catalog host, open a TCP connection and (for https) complete the TLS
// handshake, timing each phase. Failures here are told apart before any HTTP is spoken.
import { lookup } from 'node:dns/promises';
import { isIP, type Socket, connect as tcpConnect } from 'node:net';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { classifyError, NetworkFailure } from './http.js';

export interface ConnectResult {
  address: string;
  dnsMs: number;
  tcpMs: number;
  tlsMs?: number;
  tlsProtocol?: string;
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
  opts: { signal: AbortSignal; timeoutMs: number; ca?: string },
): Promise<ConnectResult> {
  const timer = AbortSignal.timeout(opts.timeoutMs);
  const signal = AbortSignal.any([opts.signal, timer]);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let socket: Socket | undefined;
  let secure: TLSSocket | undefined;
  try {
    let t = performance.now();
    const { address } = isIP(host) ? { address: host } : await abortable(lookup(host), signal);
    const dnsMs = Math.round(performance.now() - t);
    t = performance.now();
    socket = tcpConnect({ host: address, port });
    await once(socket, 'connect', signal);
    const tcpMs = Math.round(performance.now() - t);
    if (url.protocol !== 'https:') return { address, dnsMs, tcpMs };
    t = performance.now();
    secure = tlsConnect({
      socket,
      host,
      ...(isIP(host) ? {} : { servername: host }),
      ...(opts.ca ? { ca: opts.ca } : {}),
    });
    await once(secure, 'secureConnect', signal);
    return {
      address,
      dnsMs,
      tcpMs,
      tlsMs: Math.round(performance.now() - t),
      tlsProtocol: secure.getProtocol() ?? undefined,
    };
  } catch (error) {
    throw error instanceof NetworkFailure ? error : classifyError(error, opts.signal.aborted, timer.aborted);
  } finally {
    secure?.destroy();
    socket?.destroy();
  }
}
