import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { act } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport, TraceEntry } from '../../../src/check/types.js';
import type { Chains } from '../../../src/connection/run.js';
import { ConnectionTest } from '../../../src/ui/test/ConnectionTest.js';
import {
  CATALOG_STEPS,
  deferred,
  type FakeStep,
  fakeChain,
  SENTINELS,
  STORAGE_STEPS,
  VALUES,
} from '../../connection/fakes.js';

const ESC = '\u001B';
const DOWN = '\u001B[B';
const stripAnsi = (s: string) => s.replace(/\u001B\[[0-9;]*m/g, '');

const withStep = (steps: FakeStep[], id: string, change: Partial<FakeStep>) =>
  steps.map((s) => (s.id === id ? { ...s, ...change } : s));

// ink-testing-library's stdout is 100 columns; the screen uses the whole width, so these frames
// are checked at 80 (the test in test/e2e/test-screen.test.ts runs it at 160).
beforeAll(() => {
  let probe!: ReturnType<typeof render>;
  act(() => {
    probe = render(<Text />);
  });
  Object.defineProperty(Object.getPrototypeOf(probe.stdout), 'columns', {
    get: () => 80,
    configurable: true,
  });
  act(() => probe.unmount());
});

const WRITE_STEPS: FakeStep[] = [
  {
    id: 'write.namespace',
    title: 'Namespace test_olake',
    durationMs: 4,
    detail: 'created test_olake',
  },
  { id: 'write.table', title: 'Create a table (raw schema)', durationMs: 6 },
  { id: 'write.data', title: 'Write a Parquet data file', durationMs: 20 },
  { id: 'write.commit', title: 'Commit an append', durationMs: 30 },
  { id: 'write.verify', title: 'Read the record back', durationMs: 9 },
  {
    id: 'write.cleanup',
    title: 'Drop the table and its files',
    durationMs: 40,
    detail: 'dropped namespace test_olake',
  },
];

function setup(catalogSteps = CATALOG_STEPS, storageSteps = STORAGE_STEPS, writeSteps = WRITE_STEPS) {
  const catalog = fakeChain('catalog', catalogSteps);
  const storage = fakeChain('storage', storageSteps);
  const write = fakeChain('write', writeSteps);
  const chains: Chains = { catalog: catalog.chain, storage: storage.chain, write: write.chain };
  const done: CheckReport[] = [];
  const interrupted: CheckReport[] = [];
  let r!: ReturnType<typeof render>;
  const mount = async () => {
    await act(async () => {
      r = render(
        <ConnectionTest
          values={VALUES}
          title="dev"
          timeoutMs={1000}
          spinnerMs={0}
          chains={chains}
          onDone={(report) => done.push(report)}
          onInterrupt={(report) => interrupted.push(report)}
        />,
      );
    });
  };
  const press = async (key: string) => {
    await act(async () => {
      r.stdin.write(key);
    });
  };
  const frame = () => stripAnsi(r.lastFrame() ?? '');
  const allFrames = () => r.frames.map(stripAnsi);
  return {
    catalog,
    storage,
    write,
    done,
    interrupted,
    mount,
    press,
    frame,
    allFrames,
    unmount: () => act(() => r.unmount()),
  };
}

function expectFitsAndClean(frames: string[]) {
  for (const f of frames) {
    for (const line of f.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(f.split('\n').length).toBeLessThan(24);
    for (const sentinel of SENTINELS) expect(f).not.toContain(sentinel);
  }
}

describe('ConnectionTest screen', () => {
  it('shows the progress mid-run: a spinner on the running step, ✓ rows with durations', async () => {
    const gate = deferred();
    const t = setup(withStep(CATALOG_STEPS, 'catalog.config', { gate: gate.promise }));
    await t.mount();
    const mid = t.frame();
    expect(mid).toContain('Connection test · dev');
    expect(mid).toMatch(/✓ Connect to the catalog\s+12 ms {2}HTTP 200/);
    expect(mid).toMatch(/– Get a token\s+skipped: no authentication/);
    expect(mid).toMatch(/⠋ Read the catalog config\n/);
    expect(mid).toMatch(/· List namespaces/);
    expect(mid).toMatch(/✓ Delete it\s+3 ms/);
    expect(mid).toContain('⠋ Testing… 7/9 steps done');
    expect(mid).toContain('Esc cancel');
    await act(async () => gate.resolve());
    expect(t.frame()).toMatch(/✓ List namespaces\s+8 ms {2}3 namespaces/);
    expect(t.frame()).toContain('✓ All checks passed');
    expect(t.frame()).toContain('r re-run');
    expectFitsAndClean(t.allFrames());
    t.unmount();
  });

  it('shows the diagnosis panel for a failed step', async () => {
    const t = setup(undefined, withStep(STORAGE_STEPS, 'storage.put', { state: 'failed' }));
    await t.mount();
    const f = t.frame();
    expect(f).toMatch(/✗ Write a probe object/);
    expect(f).toContain('✗ 1 of 9 checks failed');
    expect(f).toContain('Diagnoses (1)');
    expect(f).toContain('✗ S3_ACCESS_DENIED_WRITE (storage.put)');
    expect(f).toMatch(/ {2}What {6}The storage.put request was refused\n/);
    expect(f).toMatch(
      / {2}Cause {5}The credentials may not write to the bucket, or the server is not\n {12}listening\./,
    );
    expect(f).toMatch(/ {2}Remedy {4}Grant s3:PutObject/);
    await t.press(DOWN);
    await t.press(DOWN);
    expect(t.frame()).toMatch(
      / {2}Evidence {2}HTTP 403 · code AccessDenied · request id req-42 ·\n {12}http:\/\/127.0.0.1:9000\/wh/,
    );
    expectFitsAndClean(t.allFrames());
    t.unmount();
  });

  it('scrolls diagnoses that do not fit in 24 rows', async () => {
    const failing = STORAGE_STEPS.map((s) => ({ ...s, state: 'failed' as const }));
    const t = setup(undefined, failing);
    await t.mount();
    // The passed catalog chain folds into its header: the diagnoses get its rows (issue 30, item 3).
    expect(t.frame()).toContain('Catalog ✓ 3 steps passed');
    expect(t.frame()).toContain('Diagnoses (5) · lines 1–10 of');
    expect(t.frame()).toContain('↑↓ PgUp/Dn scroll');
    await t.press(DOWN);
    expect(t.frame()).toContain('Diagnoses (5) · lines 2–11 of');
    expectFitsAndClean(t.allFrames());
    t.unmount();
  });

  it('toggles the verbose HTTP trace with v, without any secret even when a chain leaks one', async () => {
    const trace: TraceEntry = {
      method: 'GET',
      url: 'http://127.0.0.1:8181/v1/config?warehouse=s3%3A%2F%2Fwarehouse',
      status: 200,
      durationMs: 14,
      requestHeaders: { authorization: `Bearer ${VALUES.fields.token}` },
      responseHeaders: { 'content-type': 'application/json' },
    };
    const t = setup(
      withStep(CATALOG_STEPS, 'catalog.config', { trace, detail: `token ${VALUES.fields.token}` }),
    );
    await t.mount();
    expect(t.frame()).toContain('Diagnoses (0)');
    await t.press('v');
    const f = t.frame();
    expect(f).toContain('HTTP trace (1)');
    expect(f).toContain('GET http://127.0.0.1:8181/v1/config?warehouse=s3%3A%2F%2Fwarehouse → 200 · 14 ms');
    expect(f).toContain('> authorization: Bearer ••••');
    expect(f).toContain('< content-type: application/json');
    expect(f).toContain('v diagnoses');
    await t.press('v');
    expect(t.frame()).toContain('Diagnoses (0)');
    expectFitsAndClean(t.allFrames());
    t.unmount();
  });

  it('re-runs the test with r once it is finished', async () => {
    const t = setup(undefined, withStep(STORAGE_STEPS, 'storage.head', { state: 'failed' }));
    await t.mount();
    expect(t.catalog.calls).toHaveLength(1);
    expect(t.frame()).toContain('✗ 1 of 9 checks failed');
    await t.press('r');
    expect(t.catalog.calls).toHaveLength(2);
    expect(t.storage.calls).toHaveLength(2);
    expect(t.frame()).toContain('Connection test · dev · run 2');
    expect(t.frame()).toContain('Diagnoses (1)');
    expect(t.done).toEqual([]);
    t.unmount();
  });

  it('w re-runs with the write check (test_olake), the passed chains folded at 80x24; w again leaves it out', async () => {
    const t = setup();
    await t.mount();
    expect(t.write.calls).toHaveLength(0);
    expect(t.frame()).toContain('w write');
    await t.press('w');
    expect(t.write.calls).toHaveLength(1);
    expect(t.write.calls[0]?.opts.write).toEqual({ namespace: ['test_olake'], keep: false });
    const f = t.frame();
    expect(f).toContain('Connection test · dev · run 2 · with write check');
    expect(f).toContain('Catalog ✓ 3 steps passed');
    expect(f).toContain('Object store ✓ 5 steps passed');
    expect(f).toContain('Write (as OLake)');
    expect(f).toMatch(/✓ Commit an append +30 ms/);
    expect(f).toContain('✓ All checks passed');
    expect(f).toContain('w no write');
    expectFitsAndClean(t.allFrames());
    await t.press('w');
    expect(t.write.calls).toHaveLength(1);
    expect(t.frame()).not.toContain('with write check');
    t.unmount();
  });

  it('cancels a running test with Esc, then leaves with a second Esc', async () => {
    const never = new Promise<void>(() => {});
    const t = setup(
      withStep(CATALOG_STEPS, 'catalog.config', { gate: never }),
      withStep(STORAGE_STEPS, 'storage.list', { gate: never }),
    );
    await t.mount();
    await t.press('r');
    expect(t.catalog.calls).toHaveLength(1);
    await t.press(ESC);
    expect(t.catalog.calls[0]?.opts.signal.aborted).toBe(true);
    const f = t.frame();
    expect(f).toMatch(/⊘ Read the catalog config\s+cancelled/);
    expect(f).toMatch(/⊘ Delete it\s+cancelled/);
    expect(f).toMatch(/✓ Connect to the catalog/);
    expect(f).toContain('⊘ Test cancelled');
    expect(t.done).toEqual([]);
    await t.press(ESC);
    expect(t.done).toHaveLength(1);
    expect(t.done[0]?.ok).toBe(false);
    expect(t.done[0]?.steps.find((s) => s.id === 'storage.list')?.state).toBe('cancelled');
    t.unmount();
  });

  it('aborts and reports on Ctrl-C while running', async () => {
    const never = new Promise<void>(() => {});
    const t = setup(withStep(CATALOG_STEPS, 'catalog.config', { gate: never }));
    await t.mount();
    await t.press('\x03');
    expect(t.catalog.calls[0]?.opts.signal.aborted).toBe(true);
    expect(t.interrupted).toHaveLength(1);
    expect(t.interrupted[0]?.steps.find((s) => s.id === 'catalog.config')?.state).toBe('cancelled');
    expect(t.done).toEqual([]);
    t.unmount();
  });

  it('still quits when Ctrl-C arrives in one chunk with other keys', async () => {
    const never = new Promise<void>(() => {});
    const t = setup(withStep(CATALOG_STEPS, 'catalog.config', { gate: never }));
    await t.mount();
    await t.press('v\x03');
    expect(t.interrupted).toHaveLength(1);
    expect(t.catalog.calls[0]?.opts.signal.aborted).toBe(true);
    t.unmount();
  });

  it('leaves a finished test with q', async () => {
    const t = setup();
    await t.mount();
    await t.press('q');
    expect(t.done).toHaveLength(1);
    expect(t.done[0]?.ok).toBe(true);
    t.unmount();
  });
});
