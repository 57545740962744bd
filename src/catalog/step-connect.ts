// The catalog chain's first step: DNS, TCP (through the proxy, if any) and TLS to the catalog's host.
import { safeUrl } from '../check/scrub.js';
import type { StepOutcome } from '../check/steps.js';
import { diagnoseFailure } from './classify.js';
import { probeConnection } from './connect.js';
import { diagnosis } from './diagnoses.js';
import type { NetworkFailure } from './http.js';
import { type CatalogRun, normaliseBaseUrl, text } from './run.js';

export async function connect(run: CatalogRun): Promise<StepOutcome> {
  const raw = text(run.values, 'catalogUrl');
  const base = normaliseBaseUrl(raw);
  if (!base)
    return {
      ok: false,
      diagnosis: diagnosis('CATALOG_URL_INVALID', 'catalog.connect', {
        what: raw
          ? `“${safeUrl(raw, run.scrubber)}” is not an absolute http(s) URL`
          : 'The REST Catalog URL is empty',
      }),
    };
  run.base = base;
  const url = new URL(base);
  try {
    const r = await probeConnection(url, {
      signal: run.opts.signal,
      timeoutMs: run.opts.timeoutMs,
      env: run.opts.env,
      ...(run.chainOpts.ca ? { ca: run.chainOpts.ca } : {}),
    });
    const tls = r.tlsMs === undefined ? '' : `, TLS ${r.tlsMs} ms (${r.tlsProtocol ?? 'TLS'})`;
    if (r.proxy)
      return {
        ok: true,
        detail: `${url.host} through proxy ${r.proxy}: DNS ${r.dnsMs} ms, TCP ${r.tcpMs} ms, CONNECT ${r.tunnelMs} ms${tls}`,
      };
    const where = r.address === url.hostname ? url.host : `${url.host} (${r.address})`;
    return { ok: true, detail: `${where}: DNS ${r.dnsMs} ms, TCP ${r.tcpMs} ms${tls}` };
  } catch (error) {
    // probeConnection only throws NetworkFailure.
    const failure = error as NetworkFailure;
    return {
      ok: false,
      diagnosis: diagnoseFailure(
        'catalog.connect',
        { method: 'CONNECT', url },
        failure,
        run.scrubber,
        run.opts.timeoutMs,
      ),
    };
  }
}
