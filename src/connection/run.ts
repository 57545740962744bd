// The connection-test orchestrator: runs the catalog and storage chains concurrently, masks secrets
// in their events, streams the events to a listener and folds them into a CheckReport.

import { type Chain, sharedFacts, type WriteOptions } from '../check/chain.js';
import type { CheckDiagnosisCode } from '../check/diagnoses.js';
import type { CheckEvent, CheckReport, Diagnosis, Step } from '../check/types.js';
import type { Values } from '../destination/fields.js';
import { eventRedactor } from './redact.js';
import { type CheckState, checkReducer, initialCheckState, toReport, unfinishedSteps } from './reducer.js';

export interface Chains {
  catalog: Chain;
  storage: Chain;
  /** The write check; loaded only when a run asks for it. */
  write?: Chain;
}

/** The real chains, loaded on first use so that `--help` and the tests never pull in the AWS SDK. */
export async function loadChains(write = false): Promise<Chains> {
  const [catalog, storage, writer] = await Promise.all([
    import('../catalog/index.js'),
    import('../storage/index.js'),
    write ? import('../write/index.js') : undefined,
  ]);
  return {
    catalog: catalog.catalogChain,
    storage: storage.storageChain,
    ...(writer ? { write: writer.writeChain } : {}),
  };
}

export interface RunCheckOptions {
  /** Aborts requests in flight; the remaining steps end `cancelled`. */
  signal?: AbortSignal;
  /** Per-request timeout given to the chains. */
  timeoutMs: number;
  /** The command's environment (io.env) the chains read proxies and STORAGE_EMULATOR_HOST from. */
  env?: NodeJS.ProcessEnv;
  /** Skip the object-store writes (PutObject/GetObject/DeleteObject). */
  readOnly?: boolean;
  /** Follow a catalog's https → http overrides.uri with the bearer token (refused otherwise). */
  allowInsecureUriOverride?: boolean;
  /**
   * floe test --write: after both chains, the write check (create, write, commit, read back, clean
   * up). It runs when the catalog chain passed; its cleanup runs even after an abort.
   */
  write?: WriteOptions;
  /** Defaults to the real chains. */
  chains?: Chains;
  /** Every event, already masked, as it happens: the live stream the screen and `--json` consume. */
  onEvent?: (event: CheckEvent) => void;
  /** How long to wait for the chains to stop after an abort before giving up on them. */
  abortGraceMs?: number;
}

/**
 * The storage diagnosis for a bucket host that does not resolve advises path style or wildcard DNS;
 * when the catalog's host does not resolve either, DNS itself is down and that advice misleads.
 */
const BUCKET_DNS = 'S3_VIRTUAL_HOST_DNS';
const CATALOG_DNS = 'CATALOG_DNS';

function noDnsAtAll(diagnosis: Diagnosis): Diagnosis {
  return {
    ...diagnosis,
    cause:
      'The catalog’s host name does not resolve either: name resolution (DNS) is not working on this machine or its network, so no host name resolves',
    remedy:
      'Fix DNS first (the network or VPN connection, /etc/resolv.conf, or set HTTPS_PROXY if this network only reaches out through a proxy), then run the test again; path style or wildcard DNS matter only once host names resolve',
  };
}

const CHAIN_LABEL = { catalog: 'REST catalog', storage: 'object store', write: 'write' } as const;
const INTERNAL_ERROR: CheckDiagnosisCode = 'CHECK_INTERNAL_ERROR';

/** The location in a finished write.table step's detail (`<namespace>.<table> at <location>`). */
function createdTableLocation(step: Step): string | null {
  if (step.id !== 'write.table' || step.state !== 'ok') return null;
  return /\sat ((?:s3a?|gs):\/\/\S+)$/.exec(step.detail ?? '')?.[1] ?? null;
}

/** Resolves `graceMs` after `signal` aborts; `clear` stops the timer. */
function afterAbort(signal: AbortSignal, graceMs: number): { promise: Promise<void>; clear: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const promise = new Promise<void>((resolve) => {
    onAbort = () => {
      timer = setTimeout(resolve, graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return {
    promise,
    clear: () => {
      signal.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    },
  };
}

export async function runCheck(values: Values, opts: RunCheckOptions): Promise<CheckReport> {
  const signal = opts.signal ?? new AbortController().signal;
  const chains = opts.chains ?? (await loadChains(opts.write !== undefined));
  const redact = eventRedactor(values);
  let state: CheckState = checkReducer(initialCheckState, { type: 'start' });
  let open = true;
  const emit = (event: CheckEvent) => {
    if (!open) return;
    const masked = redact(event);
    state = checkReducer(state, masked);
    opts.onEvent?.(masked);
  };

  // The bucket-host DNS diagnosis waits for the catalog chain: its advice depends on the catalog's DNS.
  const held: Diagnosis[] = [];
  const storageEmit = (event: CheckEvent) => {
    if (event.type === 'diagnosis' && event.diagnosis.code === BUCKET_DNS) held.push(event.diagnosis);
    else emit(event);
  };
  const flushHeld = () => {
    const dnsDown = state.diagnoses.some((d) => d.code === CATALOG_DNS);
    for (const diagnosis of held.splice(0))
      emit({ type: 'diagnosis', diagnosis: dnsDown ? noDnsAtAll(diagnosis) : diagnosis });
  };

  const shared = sharedFacts();
  const run = async (name: keyof Chains) => {
    const chainEmit = name === 'storage' ? storageEmit : name === 'write' ? writeEmit : emit;
    try {
      await chains[name]?.(values, {
        emit: chainEmit,
        signal,
        timeoutMs: opts.timeoutMs,
        // A caller outside a command (the sandbox's own checks) runs in the process's environment.
        env: opts.env ?? process.env,
        readOnly: opts.readOnly,
        shared,
        allowInsecureUriOverride: opts.allowInsecureUriOverride,
        ...(opts.write ? { write: opts.write } : {}),
      });
    } catch (error) {
      if (signal.aborted) return;
      const first = state.steps.find((s) => s.chain === name && s.state !== 'ok' && s.state !== 'skipped');
      emit({
        type: 'diagnosis',
        diagnosis: {
          code: INTERNAL_ERROR,
          step: first?.id ?? name,
          what: `The ${CHAIN_LABEL[name]} check stopped on an unexpected error`,
          cause: (error instanceof Error ? error.message : String(error)).slice(0, 300),
          remedy: 'This is a bug in floe: please report it with the output of "floe test --json".',
          evidence: {},
        },
      });
      for (const step of unfinishedSteps(state, 'failed'))
        if (step.chain === name) emit({ type: 'step', step });
    } finally {
      if (name === 'catalog') shared.setCatalogLocation(null);
      if (name === 'write') {
        if (!tableLocated) shared.locationTried.push('the write check created no table');
        shared.setTableLocation(null);
      }
    }
  };
  // The storage check may probe where the catalog put the write check's table (a catalog that names a
  // warehouse, not a bucket): the table's location is read off the write chain's table step.
  let tableLocated = false;
  const writeEmit = (event: CheckEvent) => {
    const url = event.type === 'step' ? createdTableLocation(event.step) : null;
    if (url) {
      tableLocated = true;
      shared.setTableLocation({
        url,
        property: 'location',
        from: 'location the catalog gave the write check’s table',
      });
    }
    emit(event);
  };

  const grace = afterAbort(signal, opts.abortGraceMs ?? 2000);
  const catalogRun = run('catalog');
  // The write check starts once the catalog chain has ended, beside the storage check (which may wait for
  // its table's location); no grace race: the write chain bounds its own cleanup, which must finish even
  // after an abort.
  if (!opts.write) shared.setTableLocation(null);
  const writeRun = opts.write
    ? Promise.race([catalogRun, grace.promise]).then(() => {
        // The catalog chain hands over its session only when it passed; otherwise the write steps are skipped.
        if (state.steps.some((s) => s.chain === 'catalog' && s.state === 'failed'))
          shared.catalogSession = undefined;
        return run('write');
      })
    : undefined;
  try {
    await Promise.race([Promise.all([catalogRun, run('storage')]), grace.promise]);
  } finally {
    flushHeld();
  }
  await writeRun;
  grace.clear();
  for (const step of unfinishedSteps(state, signal.aborted ? 'cancelled' : 'failed'))
    emit({ type: 'step', step });
  open = false;
  return toReport(checkReducer(state, { type: 'done' }));
}
