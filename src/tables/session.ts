// The catalog session `floe tables` reads through: the connection test's own catalog chain (connect,
// token, config, namespaces) run alone, so every auth type, prefix, separator, proxy and signing rule
// of `floe test` applies unchanged; when it fails, its diagnoses say why, as `floe test` would.
import type { CatalogSession } from '../catalog/session.js';
import { type Chain, sharedFacts } from '../check/chain.js';
import type { CheckEvent, Diagnosis } from '../check/types.js';
import type { Values } from '../destination/fields.js';

export interface SessionOptions {
  signal: AbortSignal;
  timeoutMs: number;
  /** The command's environment (io.env): the catalog chain's proxies, the session's after it. */
  env?: NodeJS.ProcessEnv;
  allowInsecureUriOverride?: boolean;
  /** Every event of the chain (traces, steps), e.g. for a verbose trace. */
  onEvent?: (event: CheckEvent) => void;
  /** Defaults to the real catalog chain. */
  chain?: Chain;
}

export async function openSession(
  values: Values,
  opts: SessionOptions,
): Promise<{ session: CatalogSession } | { diagnoses: Diagnosis[] }> {
  const chain = opts.chain ?? (await import('../catalog/index.js')).catalogChain;
  const shared = sharedFacts();
  const diagnoses: Diagnosis[] = [];
  await chain(values, {
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    // A caller outside a command (the sandbox's seeding) runs in the process's environment.
    env: opts.env ?? process.env,
    shared,
    ...(opts.allowInsecureUriOverride ? { allowInsecureUriOverride: true } : {}),
    emit: (event) => {
      if (event.type === 'diagnosis') diagnoses.push(event.diagnosis);
      opts.onEvent?.(event);
    },
  });
  if (shared.catalogSession && diagnoses.length === 0) return { session: shared.catalogSession };
  return { diagnoses };
}
