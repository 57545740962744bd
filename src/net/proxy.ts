// HTTP(S) proxies from the environment (the command's, io.env, handed down as `env`), as curl and
// undici read them: HTTPS_PROXY for https URLs, HTTP_PROXY for http ones (lower-case names first),
// NO_PROXY exceptions ("*", host, .domain, host:port). One reading for every client floe has — the
// catalog's, the OLake UI's, the S3 probe's — so the trace and the diagnoses name the proxy each request
// really went through.
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
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): URL | undefined {
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
export function proxiesConfigured(env: NodeJS.ProcessEnv): boolean {
  return fromEnv(env, 'https_proxy') !== undefined || fromEnv(env, 'http_proxy') !== undefined;
}

export type ProxyAwareOptions = Omit<
  NonNullable<ConstructorParameters<typeof EnvHttpProxyAgent>[0]>,
  'httpProxy' | 'httpsProxy' | 'noProxy'
> & {
  /** The environment whose proxy variables apply (the command's, not necessarily the process's). */
  env: NodeJS.ProcessEnv;
  /** Extra trusted CAs (PEM) for the target, also through a proxy tunnel. */
  ca?: string;
};

/**
 * An undici dispatcher that honours `env`'s HTTPS_PROXY / HTTP_PROXY / NO_PROXY (a plain agent when
 * unset). The three are always given, '' when unset, so undici never falls back to process.env.
 */
export function proxyAwareAgent({ env, ca, ...options }: ProxyAwareOptions): EnvHttpProxyAgent {
  return new EnvHttpProxyAgent({
    ...options,
    httpProxy: fromEnv(env, 'http_proxy') ?? '',
    // '' for https: undici's https requests then take the http proxy, as proxyFor does.
    httpsProxy: fromEnv(env, 'https_proxy') ?? '',
    noProxy: fromEnv(env, 'no_proxy') ?? '',
    ...(ca ? { connect: { ...options.connect, ca }, requestTls: { ca } } : {}),
  });
}
