// A loopback proxy in front of a catalog emulator that rewrites chosen answers: a buggy or hostile
// catalog for the write check (metadata paths naming other objects, another table location, a drop
// refused, an answer lost after the catalog applied the request).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  status: number;
  body: string;
}

export interface ProxyRule {
  method: string;
  /** Matched against the path (no query). */
  path: RegExp;
  /** A new answer from the real one; 'hang' forwards the request, then never answers. */
  answer: (upstream: Upstream) => Upstream | 'hang';
  /** Only the first `times` matches (default: every one). */
  times?: number;
  /** false: the catalog never sees the request (default true: the answer is rewritten after it acted). */
  forward?: boolean;
}

export interface CatalogProxy {
  url: string;
  rules: ProxyRule[];
  /** Every request that passed, as `METHOD path`. */
  seen: string[];
  close(): Promise<void>;
}

/** `target` is the emulator's base URL; the proxy keeps its path, so `url` replaces it one for one. */
export async function startCatalogProxy(target: string): Promise<CatalogProxy> {
  const base = new URL(target);
  const rules: ProxyRule[] = [];
  const seen: string[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '/').split('?')[0]!;
    seen.push(`${req.method} ${path}`);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    const rule = rules.find((r) => r.method === req.method && r.path.test(path) && (r.times ?? 1) > 0);
    if (rule?.times !== undefined) rule.times--;
    const upstream =
      rule?.forward === false
        ? null
        : await fetch(new URL(req.url ?? '/', base.origin), {
            method: req.method ?? 'GET',
            headers,
            ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
            redirect: 'manual',
          });
    const answer: Upstream = upstream
      ? { status: upstream.status, body: await upstream.text() }
      : { status: 599, body: '' };
    const out = rule ? rule.answer(answer) : answer;
    if (out === 'hang') {
      hanging.add(res);
      return;
    }
    res.writeHead(out.status, {
      'content-type': upstream?.headers.get('content-type') ?? 'application/json',
    });
    res.end(out.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base.pathname.replace(/\/+$/, '')}`,
    rules,
    seen,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A table answer (LoadTableResult / CommitTableResponse) with `change` applied to its JSON. */
export function rewriteTable(change: (body: Record<string, unknown>) => void): (u: Upstream) => Upstream {
  return (u) => {
    if (u.status !== 200) return u;
    const body = JSON.parse(u.body) as Record<string, unknown>;
    change(body);
    return { status: 200, body: JSON.stringify(body) };
  };
}
