import { describe, expect, it } from 'vitest';
import type { Chain } from '../../src/check/chain.js';
import { type CheckEvent, checkReportSchema } from '../../src/check/types.js';
import { type Chains, runCheck } from '../../src/connection/run.js';
import { CATALOG_STEPS, deferred, fakeChain, SENTINELS, STORAGE_STEPS, VALUES } from './fakes.js';

const label = (e: CheckEvent) => (e.type === 'step' ? `${e.step.id} ${e.step.state}` : e.type);

function chains(
  catalog = fakeChain('catalog', CATALOG_STEPS),
  storage = fakeChain('storage', STORAGE_STEPS),
) {
  return { catalog, storage, chains: { catalog: catalog.chain, storage: storage.chain } satisfies Chains };
}

describe('runCheck', () => {
  it('runs the catalog and storage chains concurrently', async () => {
    const gate = deferred();
    const steps = CATALOG_STEPS.map((s) => (s.id === 'catalog.config' ? { ...s, gate: gate.promise } : s));
    const fakes = chains(fakeChain('catalog', steps));
    const events: string[] = [];
    const report = await runCheck(VALUES, {
      timeoutMs: 1000,
      chains: fakes.chains,
      onEvent: (e) => {
        events.push(label(e));
        // The catalog chain only finishes once storage has started: a sequential run never gets here.
        if (label(e) === 'storage.head running') gate.resolve();
      },
    });
    expect(events.indexOf('storage.head running')).toBeGreaterThan(-1);
    expect(events.indexOf('storage.head running')).toBeLessThan(events.indexOf('catalog.namespaces ok'));
    expect(events.indexOf('catalog.config running')).toBeLessThan(events.indexOf('storage.head running'));
    expect(report.ok).toBe(true);
    expect(report.steps.map((s) => s.id)).toEqual([
      'catalog.connect',
      'catalog.token',
      'catalog.config',
      'catalog.namespaces',
      'storage.head',
      'storage.list',
      'storage.put',
      'storage.get',
      'storage.delete',
    ]);
    expect(checkReportSchema.parse(report)).toEqual(report);
  });

  it('passes the timeout, read-only flag and values to both chains', async () => {
    const fakes = chains();
    await runCheck(VALUES, { timeoutMs: 1234, readOnly: true, chains: fakes.chains });
    for (const fake of [fakes.catalog, fakes.storage]) {
      expect(fake.calls).toHaveLength(1);
      expect(fake.calls[0]?.opts).toMatchObject({ timeoutMs: 1234, readOnly: true });
      expect(fake.calls[0]?.values).toBe(VALUES);
    }
  });

  it('reports failures with their diagnoses', async () => {
    const storage = STORAGE_STEPS.map((s) =>
      s.id === 'storage.put' ? { ...s, state: 'failed' as const } : s,
    );
    const report = await runCheck(VALUES, {
      timeoutMs: 1000,
      chains: chains(undefined, fakeChain('storage', storage)).chains,
    });
    expect(report.ok).toBe(false);
    expect(report.steps.find((s) => s.id === 'storage.put')?.state).toBe('failed');
    expect(report.diagnoses.map((d) => d.code)).toEqual(['S3_ACCESS_DENIED_WRITE']);
    expect(checkReportSchema.parse(report)).toEqual(report);
  });

  it('aborts both chains: the steps in flight and after them end cancelled', async () => {
    const controller = new AbortController();
    const never = new Promise<void>(() => {});
    const catalog = CATALOG_STEPS.map((s) => (s.id === 'catalog.config' ? { ...s, gate: never } : s));
    const storage = STORAGE_STEPS.map((s) => (s.id === 'storage.list' ? { ...s, gate: never } : s));
    const running = new Set<string>();
    const report = await runCheck(VALUES, {
      timeoutMs: 1000,
      signal: controller.signal,
      chains: chains(fakeChain('catalog', catalog), fakeChain('storage', storage)).chains,
      onEvent: (e) => {
        if (e.type === 'step' && e.step.state === 'running') running.add(e.step.id);
        if (running.has('catalog.config') && running.has('storage.list')) controller.abort();
      },
    });
    expect(report.ok).toBe(false);
    expect(Object.fromEntries(report.steps.map((s) => [s.id, s.state]))).toEqual({
      'catalog.connect': 'ok',
      'catalog.token': 'skipped',
      'catalog.config': 'cancelled',
      'catalog.namespaces': 'cancelled',
      'storage.head': 'ok',
      'storage.list': 'cancelled',
      'storage.put': 'cancelled',
      'storage.get': 'cancelled',
      'storage.delete': 'cancelled',
    });
    expect(checkReportSchema.parse(report)).toEqual(report);
  });

  it('cancels the steps of a chain that ignores the abort, and drops its later events', async () => {
    const controller = new AbortController();
    let lateEmit: ((e: CheckEvent) => void) | undefined;
    const stuck: Chain = (_values, { emit }) => {
      lateEmit = emit;
      emit({
        type: 'step',
        step: { id: 'catalog.connect', chain: 'catalog', title: 'Connect', state: 'running' },
      });
      controller.abort();
      return new Promise(() => {});
    };
    const events: string[] = [];
    const report = await runCheck(VALUES, {
      timeoutMs: 1000,
      signal: controller.signal,
      abortGraceMs: 1,
      chains: { catalog: stuck, storage: fakeChain('storage', []).chain },
      onEvent: (e) => events.push(label(e)),
    });
    expect(report.steps).toEqual([
      { id: 'catalog.connect', chain: 'catalog', title: 'Connect', state: 'cancelled' },
    ]);
    lateEmit?.({
      type: 'step',
      step: { id: 'catalog.connect', chain: 'catalog', title: 'Connect', state: 'ok' },
    });
    expect(events).toEqual(['catalog.connect running', 'catalog.connect cancelled']);
  });

  it('turns a chain that throws into a diagnosis and failed steps, without stopping the other chain', async () => {
    const broken: Chain = async (_values, { emit }) => {
      emit({
        type: 'step',
        step: { id: 'catalog.connect', chain: 'catalog', title: 'Connect', state: 'ok' },
      });
      emit({
        type: 'step',
        step: { id: 'catalog.config', chain: 'catalog', title: 'Config', state: 'running' },
      });
      throw new TypeError(`boom with ${VALUES.fields.token}`);
    };
    const report = await runCheck(VALUES, {
      timeoutMs: 1000,
      chains: { catalog: broken, storage: fakeChain('storage', STORAGE_STEPS).chain },
    });
    expect(report.ok).toBe(false);
    expect(report.diagnoses).toHaveLength(1);
    expect(report.diagnoses[0]).toMatchObject({ code: 'CHECK_INTERNAL_ERROR', step: 'catalog.config' });
    expect(report.steps.find((s) => s.id === 'catalog.config')?.state).toBe('failed');
    expect(report.steps.filter((s) => s.chain === 'storage').every((s) => s.state === 'ok')).toBe(true);
    expect(JSON.stringify(report)).not.toContain(VALUES.fields.token);
  });

  it('masks secrets a chain lets slip into details, diagnoses and traces', async () => {
    const [token, access, secret] = SENTINELS;
    const leaky: Chain = async (_values, { emit }) => {
      emit({
        type: 'trace',
        entry: {
          method: 'GET',
          url: `http://127.0.0.1:9000/?X-Amz-Credential=${access}&sig=${encodeURIComponent(`${secret}`)}`,
          durationMs: 3,
          requestHeaders: { authorization: `Bearer ${token}` },
          responseHeaders: {},
        },
      });
      emit({
        type: 'step',
        step: { id: 'storage.head', chain: 'storage', title: 'Head', state: 'ok', detail: `key ${access}` },
      });
    };
    const events: CheckEvent[] = [];
    const report = await runCheck(VALUES, {
      timeoutMs: 1000,
      chains: { catalog: fakeChain('catalog', []).chain, storage: leaky },
      onEvent: (e) => events.push(e),
    });
    const everything = JSON.stringify({ report, events });
    for (const sentinel of SENTINELS) expect(everything).not.toContain(sentinel);
    expect(report.steps[0]?.detail).toBe('key ••••');
    expect(events[0]).toMatchObject({
      type: 'trace',
      entry: { requestHeaders: { authorization: 'Bearer ••••' } },
    });
  });
});

// Issue 19, item 12: with no DNS at all, the storage diagnosis does not advise path style or wildcard DNS.
describe('a bucket host that does not resolve', () => {
  const dnsChain =
    (chain: 'catalog' | 'storage', code: string): Chain =>
    async (_values, { emit }) => {
      const id = `${chain}.connect`;
      emit({ type: 'step', step: { id, chain, title: 'Connect', state: 'failed', detail: 'DNS' } });
      emit({
        type: 'diagnosis',
        diagnosis: {
          code,
          step: id,
          what: 'host does not resolve',
          cause: 'Virtual-host style puts the bucket in the host name, which only works with wildcard DNS',
          remedy: 'Choose S3-compatible storage with this S3 Endpoint, or add wildcard DNS for the endpoint',
          evidence: {},
        },
      });
    };
  const ok: Chain = async (_values, { emit }) => {
    emit({ type: 'step', step: { id: 'catalog.connect', chain: 'catalog', title: 'Connect', state: 'ok' } });
  };

  it('says DNS is down when the catalog host does not resolve either', async () => {
    const report = await runCheck(VALUES, {
      timeoutMs: 1000,
      chains: {
        catalog: dnsChain('catalog', 'CATALOG_DNS'),
        storage: dnsChain('storage', 'S3_VIRTUAL_HOST_DNS'),
      },
    });
    const bucket = report.diagnoses.find((d) => d.code === 'S3_VIRTUAL_HOST_DNS');
    expect(bucket?.remedy).toMatch(/^Fix DNS first/);
    expect(bucket?.remedy).not.toContain('Choose S3-compatible storage');
    expect(bucket?.cause).toContain('does not resolve either');
  });

  it('keeps the path-style advice when the catalog host resolves', async () => {
    const report = await runCheck(VALUES, {
      timeoutMs: 1000,
      chains: { catalog: ok, storage: dnsChain('storage', 'S3_VIRTUAL_HOST_DNS') },
    });
    expect(report.diagnoses.find((d) => d.code === 'S3_VIRTUAL_HOST_DNS')?.remedy).toContain(
      'Choose S3-compatible storage',
    );
  });
});

// Issue 29, item 1: under --write the storage check may wait for the table the write check creates.
describe('runCheck --write', () => {
  const write: Chain = async (_values, opts) => {
    const step = { id: 'write.table', chain: 'write' as const, title: 'Create a table (raw schema)' };
    opts.emit({ type: 'step', step: { ...step, state: 'running' } });
    opts.emit({
      type: 'step',
      step: { ...step, state: 'ok', detail: 'test_olake.floe_check_x at s3://lake/wh/0195-uuid' },
    });
  };
  /** A storage chain that reports the table location it was handed. */
  const storage: Chain = async (_values, opts) => {
    const table = await opts.shared?.tableLocation;
    opts.emit({ type: 'warning', message: `table location: ${table?.url ?? 'none'} (${table?.from ?? ''})` });
  };

  it('starts the write check once the catalog chain ended, and hands its table location to the storage check', async () => {
    const report = await runCheck(VALUES, {
      timeoutMs: 1000,
      write: { namespace: ['test_olake'], keep: false },
      chains: { catalog: fakeChain('catalog', CATALOG_STEPS).chain, storage, write },
    });
    expect(report.warnings).toEqual([
      'table location: s3://lake/wh/0195-uuid (location the catalog gave the write check’s table)',
    ]);
  });

  it('without --write the table location is none at once', async () => {
    const report = await runCheck(VALUES, {
      timeoutMs: 1000,
      chains: { catalog: fakeChain('catalog', CATALOG_STEPS).chain, storage },
    });
    expect(report.warnings).toEqual(['table location: none ()']);
  });
});
