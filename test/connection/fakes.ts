// Fake catalog and storage chains that follow the Chain contract: announce every step as pending,
// run them in order, diagnose failures, and end the unfinished steps `cancelled` on abort.
import type { Chain, ChainOptions } from '../../src/check/chain.js';
import type { Diagnosis, Step, TraceEntry } from '../../src/check/types.js';
import type { Values } from '../../src/destination/fields.js';

export interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

export function deferred(): Deferred {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export interface FakeStep {
  id: string;
  title: string;
  /** Final state; `ok` by default. */
  state?: 'ok' | 'failed' | 'skipped';
  durationMs?: number;
  detail?: string;
  /** Emitted before the step ends. */
  trace?: TraceEntry;
  /** The step stays `running` until this resolves (or the run is aborted). */
  gate?: Promise<void>;
}

export const CATALOG_STEPS: FakeStep[] = [
  { id: 'catalog.connect', title: 'Connect to the catalog', durationMs: 12, detail: 'HTTP 200' },
  { id: 'catalog.token', title: 'Get a token', state: 'skipped', detail: 'no authentication' },
  { id: 'catalog.config', title: 'Read the catalog config', durationMs: 30, detail: 'prefix "wh"' },
  { id: 'catalog.namespaces', title: 'List namespaces', durationMs: 8, detail: '3 namespaces' },
];

export const STORAGE_STEPS: FakeStep[] = [
  { id: 'storage.head', title: 'Find the bucket', durationMs: 5 },
  { id: 'storage.list', title: 'List objects', durationMs: 6 },
  { id: 'storage.put', title: 'Write a probe object', durationMs: 9 },
  { id: 'storage.get', title: 'Read it back', durationMs: 4 },
  { id: 'storage.delete', title: 'Delete it', durationMs: 3 },
];

export function diagnosisFor(step: string): Diagnosis {
  return {
    code: step === 'storage.put' ? 'S3_ACCESS_DENIED_WRITE' : 'CATALOG_UNREACHABLE',
    step,
    what: `The ${step} request was refused`,
    cause: 'The credentials may not write to the bucket, or the server is not listening.',
    remedy: 'Grant s3:PutObject on the bucket to the access key, then run the test again.',
    evidence: {
      status: 403,
      errorCode: 'AccessDenied',
      requestId: 'req-42',
      url: 'http://127.0.0.1:9000/wh',
    },
  };
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

export interface FakeChain {
  chain: Chain;
  /** The options of every call, in order. */
  calls: { values: Values; opts: ChainOptions }[];
}

export function fakeChain(chain: Step['chain'], steps: FakeStep[]): FakeChain {
  const calls: FakeChain['calls'] = [];
  const step = (s: FakeStep, state: Step['state'], final = false): Step => ({
    id: s.id,
    chain,
    title: s.title,
    state,
    ...(final && s.durationMs !== undefined ? { durationMs: s.durationMs } : {}),
    ...(final && s.detail !== undefined ? { detail: s.detail } : {}),
  });
  const run: Chain = async (values, opts) => {
    calls.push({ values, opts });
    const { emit, signal } = opts;
    for (const s of steps) emit({ type: 'step', step: step(s, 'pending') });
    for (const [i, s] of steps.entries()) {
      if (!signal.aborted) emit({ type: 'step', step: step(s, 'running') });
      if (s.gate && !signal.aborted) await Promise.race([s.gate, aborted(signal)]);
      if (signal.aborted) {
        for (const rest of steps.slice(i)) emit({ type: 'step', step: step(rest, 'cancelled') });
        return;
      }
      if (s.trace) emit({ type: 'trace', entry: s.trace });
      const state = s.state ?? 'ok';
      if (state === 'failed') emit({ type: 'diagnosis', diagnosis: diagnosisFor(s.id) });
      emit({ type: 'step', step: step(s, state, true) });
    }
  };
  return { chain: run, calls };
}

export const VALUES: Values = {
  preset: 'rest',
  authType: 'token',
  storage: 's3-compatible',
  targetVersion: 'latest',
  fields: {
    catalogUrl: 'http://127.0.0.1:8181',
    warehouse: 's3://warehouse',
    region: 'us-east-1',
    s3Endpoint: 'http://127.0.0.1:9000',
    token: 'SENTINEL-token-5f2c9a',
    accessKey: 'SENTINEL-access-77d1',
    secretKey: 'SENTINEL-secret-0b3e8f',
  },
};

export const SENTINELS = ['SENTINEL-token-5f2c9a', 'SENTINEL-access-77d1', 'SENTINEL-secret-0b3e8f'];
