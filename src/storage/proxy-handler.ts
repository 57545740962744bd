// A request handler for the AWS SDK that sends through undici's EnvHttpProxyAgent, so the object-store
// probe honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY like the catalog client. Loaded (with the SDK)
// only when the storage check runs and a proxy variable is set; otherwise the SDK's own handler works.
import { HttpResponse } from '@smithy/protocol-http';
import type { HttpHandlerOptions, HttpRequest } from '@smithy/types';
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { proxyAwareAgent } from '../net/proxy.js';

/** As @smithy/util-uri-escape: RFC 3986, so the URL sent is the one SigV4 signed. */
const escapeUri = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** As @smithy/querystring-builder. */
export function queryString(query: HttpRequest['query']): string {
  const parts: string[] = [];
  for (const name of Object.keys(query ?? {})) {
    const value = query?.[name];
    const key = escapeUri(name);
    if (Array.isArray(value)) for (const item of value) parts.push(`${key}=${escapeUri(item)}`);
    else parts.push(value || typeof value === 'string' ? `${key}=${escapeUri(value)}` : key);
  }
  return parts.join('&');
}

/** Headers undici sets itself or refuses. */
const DROPPED = new Set(['expect', 'transfer-encoding', 'connection']);

export class ProxyAwareHandler {
  readonly metadata = { handlerProtocol: 'http/1.1' };
  readonly #agent: Dispatcher;

  constructor(env: NodeJS.ProcessEnv) {
    this.#agent = proxyAwareAgent({ env });
  }

  async handle(req: HttpRequest, options: HttpHandlerOptions = {}): Promise<{ response: HttpResponse }> {
    const query = queryString(req.query);
    const port = req.port ? `:${req.port}` : '';
    const url = `${req.protocol}//${req.hostname}${port}${req.path}${query ? `?${query}` : ''}`;
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => !DROPPED.has(name.toLowerCase())),
    );
    const res = await request(url, {
      method: req.method as Dispatcher.HttpMethod,
      headers,
      body: req.body as Dispatcher.RequestOptions['body'],
      signal: options.abortSignal as AbortSignal | undefined,
      dispatcher: this.#agent,
    });
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
    return {
      response: new HttpResponse({ statusCode: res.statusCode, headers: responseHeaders, body: res.body }),
    };
  }

  updateHttpClientConfig(): void {}

  httpHandlerConfigs(): Record<string, never> {
    return {};
  }

  destroy(): void {
    void this.#agent.destroy();
  }
}
