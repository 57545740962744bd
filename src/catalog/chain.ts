// The catalog half of the connection test: connect, get a token, read /v1/config, list namespaces;
// each step in its own file (step-*.ts) over one CatalogRun (run.ts) and the check's step runner.
import type { Chain } from '../check/chain.js';
import type { StepOutcome } from '../check/steps.js';
import { diagnosis } from './diagnoses.js';
import { settleLocation } from './location.js';
import { CATALOG_STEPS, type CatalogChainOptions, CatalogRun, type CatalogStepId } from './run.js';
import { readConfig } from './step-config.js';
import { connect } from './step-connect.js';
import { listNamespaces } from './step-namespaces.js';
import { fetchToken } from './step-token.js';

export { CATALOG_STEPS, type CatalogChainOptions, type CatalogStepId, normaliseBaseUrl } from './run.js';

/** The four steps in order (after a failure the rest are skipped), then the location for the storage check. */
async function runCatalog(run: CatalogRun): Promise<void> {
  run.steps.begin();
  const bodies: Record<CatalogStepId, () => Promise<StepOutcome>> = {
    'catalog.connect': () => connect(run),
    'catalog.token': () => fetchToken(run),
    'catalog.config': () => readConfig(run),
    'catalog.namespaces': () => listNamespaces(run),
  };
  try {
    for (const { id, title } of CATALOG_STEPS) {
      if (run.opts.signal.aborted) break;
      const outcome = await runStep(run, id, bodies[id]);
      if (run.opts.signal.aborted) break;
      if ('ok' in outcome && !outcome.ok) {
        run.steps.skipPending(`not run: “${title}” failed`);
        break;
      }
    }
    if (!run.opts.signal.aborted && run.steps.state('catalog.config') === 'ok')
      run.opts.shared?.setCatalogSession(run.session());
    await settleLocation(run);
  } finally {
    run.opts.shared?.setCatalogLocation(null);
    run.steps.cancelUnfinished();
    await run.http.close();
  }
}

/** One step: its body's outcome, or its error as a network failure; left to the cancellation after an abort. */
async function runStep(
  run: CatalogRun,
  id: CatalogStepId,
  body: () => Promise<StepOutcome>,
): Promise<StepOutcome> {
  run.steps.start(id);
  let outcome: StepOutcome;
  try {
    outcome = await body();
  } catch (error) {
    outcome = {
      ok: false,
      diagnosis: diagnosis('CATALOG_NETWORK', id, {
        what: `${run.steps.title(id)} failed: ${(error as Error).message}`,
      }),
    };
  }
  if (!run.opts.signal.aborted) run.steps.settle(id, outcome);
  return outcome;
}

export function createCatalogChain(chainOpts: CatalogChainOptions = {}): Chain {
  return async (values, opts) => {
    const run = new CatalogRun(values, opts, chainOpts);
    try {
      await runCatalog(run);
    } catch (error) {
      opts.emit({
        type: 'warning',
        message: run.scrubber.scrub(`catalog test stopped: ${(error as Error).message}`),
      });
    }
  };
}

/** The catalog chain with Node's trusted CAs (plus NODE_EXTRA_CA_CERTS). */
export const catalogChain: Chain = createCatalogChain();
