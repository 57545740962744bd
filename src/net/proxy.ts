// HTTP(S) proxies from the environment, as curl and undici read them: HTTPS_PROXY for https URLs,
// HTTP_PROXY for http ones (lower-case names first), NO_PROXY exceptions ("*", host, .domain,
// host:port). One reading for every client floe has — the catalog's, the OLake UI's, the S3 probe's
// — so the trace and the diagnoses name the proxy each request really went through.
import { EnvHttpProxyAgent } from 'undici';

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

function fromEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return value === undefined || value === '' ? undefined : value;
}

/** Whether NO_PROXY exempts `url` (undici's EnvHttpProxyAgent rules). */
function exempt(url: URL, noProxy: string): boolean {
  if (noProxy.trim() === '*') return true;
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
  return noProxy
    .split(/[,\s]/)
    .filter(Boolean)
    .some((entry) => {
      const parsed = /^(.+):(\d+)$/.exec(entry);
      const host = (parsed ? (parsed[1] as string) : entry).replace(/^\*?\./, '').toLowerCase();
      if (parsed && Number(parsed[2]) !== port) return false;
      return hostname === host || hostname.endsWith(`.${host}`);
    });
}

/** The proxy a request to `url` goes through, or undefined (none set, or NO_PROXY exempts it). */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv = process.env): URL | undefined {
  const raw =
    url.protocol === 'https:'
      ? (fromEnv(env, 'https_proxy') ?? fromEnv(env, 'http_proxy'))
      : fromEnv(env, 'http_proxy');
  if (raw === undefined || exempt(url, fromEnv(env, 'no_proxy') ?? '')) return undefined;
  try {
    return new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    return undefined;
  }
}

/** A proxy as shown in traces and diagnoses: scheme, host and port, never its credentials. */
export function proxyLabel(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/** Whether any proxy variable is set: only then do clients need a proxy-aware transport. */
export function proxiesConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return fromEnv(env, 'https_proxy') !== undefined || fromEnv(env, 'http_proxy') !== undefined;
}

export type ProxyAwareOptions = ConstructorParameters<typeof EnvHttpProxyAgent>[0] & {
  /** Extra trusted CAs (PEM) for the target, also through a proxy tunnel. */
  ca?: string;
};

/** An undici dispatcher that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY (a plain agent when unset). */
export function proxyAwareAgent({ ca, ...options }: ProxyAwareOptions = {}): EnvHttpProxyAgent {
  return new EnvHttpProxyAgent({
    ...options,
    ...(ca ? { connect: { ...options.connect, ca }, requestTls: { ca } } : {}),
  });
}
