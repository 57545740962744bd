// What goes wrong between floe and the OLake UI, in words: a URL refused before sending, a network
// failure (proxy, time-out, refused, DNS, reset, TLS), an HTTP status, sessions switched off.
import { proxyFor, proxyLabel } from '../../net/proxy.js';
import { ManagementError } from '../types.js';

/** Parses and checks a user-supplied URL; returns it without a trailing slash. */
export function normalizeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ManagementError('bad-request', `"${raw}" is not a URL; use e.g. http://localhost:8000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ManagementError('bad-request', `"${raw}" must start with http:// or https://`);
  if (url.username || url.password)
    throw new ManagementError('bad-request', 'Put no credentials in the URL; floe asks for the password');
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

/** undici's ProxyAgent when the proxy answers its CONNECT with anything but 200. */
const PROXY_REFUSED = /Proxy response \((\d+)\) !== 200/;

export function describeNetworkError(
  error: unknown,
  origin: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv,
): ManagementError {
  const err = error as { name?: string; code?: string; cause?: { code?: string }; message?: string };
  const code = err.code ?? err.cause?.code;
  const refused = PROXY_REFUSED.exec(err.message ?? '');
  if (refused) {
    const proxy = proxyFor(new URL(origin), env);
    const via = proxy ? `The proxy ${proxyLabel(proxy)}` : 'The proxy';
    const status = Number(refused[1]);
    return new ManagementError(
      'network',
      status === 407
        ? `${via} wants credentials to reach ${origin} (HTTP 407 Proxy Authentication Required): put them in HTTPS_PROXY / HTTP_PROXY (http://user:password@proxy:3128), or add the host to NO_PROXY if it is reachable directly`
        : `${via} could not open a connection to ${origin} (HTTP ${status}): check that the proxy may reach it, or add the host to NO_PROXY if it is reachable directly`,
    );
  }
  if (err.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return new ManagementError(
      'network',
      `${origin} did not answer within ${Math.round(timeoutMs / 1000)} s (is the OLake UI overloaded or stuck?)`,
    );
  if (code === 'ECONNREFUSED')
    return new ManagementError(
      'network',
      `Cannot connect to ${origin}: connection refused. Is the OLake UI running there? (docker compose up, or "floe sandbox")`,
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new ManagementError('network', `Cannot resolve the host of ${origin}; check the URL`);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return new ManagementError('network', `${origin} closed the connection before answering`);
  if (typeof code === 'string' && /CERT|SSL|TLS/.test(code))
    return new ManagementError('network', `TLS with ${origin} failed (${code}); check its certificate`);
  return new ManagementError(
    'network',
    `Cannot reach ${origin}: ${code ?? err.message ?? 'unknown network error'}`,
  );
}

export function statusError(status: number, message: string, path: string): ManagementError {
  const said = message || `HTTP ${status}`;
  if (status === 400)
    return new ManagementError(
      'bad-request',
      `The OLake UI rejected the request as invalid: ${said}`,
      status,
      message,
    );
  if (status === 401)
    return path === '/login'
      ? new ManagementError(
          'unauthorized',
          `Invalid credentials: the OLake UI did not accept that username and password (${said})`,
          status,
          message,
        )
      : new ManagementError(
          'unauthorized',
          `Not logged in, or the OLake UI session has expired (${said})`,
          status,
          message,
        );
  if (status === 404) return new ManagementError('not-found', `Not found: ${said}`, status, message);
  if (status === 409) return new ManagementError('conflict', said, status, message);
  if (status === 413)
    return new ManagementError(
      'bad-request',
      `The OLake UI refused the request as too large (${said})`,
      status,
      message,
    );
  // Beego (olake-ui ≤ v0.4.1) answers every handler error with 500, a missing job too.
  if (status === 500 && /\bnot found\b/i.test(message))
    return new ManagementError('not-found', `Not found: ${said}`, status, message);
  return new ManagementError('server', `The OLake UI failed (HTTP ${status}): ${said}`, status, message);
}

/**
 * With SESSION_ON=false the middleware lets every call through, but handlers that need a user id
 * (pause, resume, create) answer 401 "Not authenticated"; logging in again cannot help.
 */
export function sessionsOffError(path: string): ManagementError {
  return new ManagementError(
    'server',
    `The OLake UI answered "Not authenticated" to ${path.replace(/\/project\/[^/]+/, '/project/…')} although it lets other calls through without a session: it runs with sessions switched off (SESSION_ON=false), and then refuses actions that record who made them (pause, resume, creating destinations). Turn sessions on in the OLake UI's configuration to use them`,
    401,
    'Not authenticated',
  );
}
