// b in a job's detail: the tables of the job's streams on the tables screen, Esc back to the job; a job
// whose tables cannot be named says why in the status line and stays on its detail.
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobDetail } from '../../../src/management/types.js';
import type { TablesSource } from '../../../src/ui/tables/useTables.js';
import { ROWS } from '../tables/support.js';
import { FakeApi, KEY, makeJob, mount, unmountAll } from './support.js';

afterEach(unmountAll);

const config = JSON.stringify({
  type: 'ICEBERG',
  writer: { rest_catalog_url: 'http://127.0.0.1:1/catalog' },
});
const job = makeJob(1, {
  name: 'orders_to_lake',
  destination: { id: 1, name: 'iceberg-rest', type: 'iceberg', version: 'v0.9.4', config },
});

async function waitFor(m: { frame(): string }, text: string): Promise<void> {
  for (let i = 0; i < 200 && !m.frame().includes(text); i++)
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
  expect(m.frame()).toContain(text);
}

describe('a job’s tables', () => {
  it('opens the tables of the job’s streams with b, and Esc comes back to the job', async () => {
    const asked: JobDetail[] = [];
    const source: TablesSource = {
      title: 'Tables of job orders_to_lake #1',
      subtitle: '3 streams, last run 3 h ago (Completed)',
      now: () => Date.parse('2026-08-20T12:00:00Z'),
      list: async (onRow) => {
        for (const row of ROWS) onRow(row);
        return { rows: ROWS, warnings: [] };
      },
      show: async () => ({ problem: 'not read in this test' }),
    };
    const m = await mount(
      {
        api: new FakeApi([job]),
        prepareTables: async (detail) => {
          asked.push(detail);
          return source;
        },
      },
      { columns: 80, rows: 24 },
    );
    await m.press(KEY.enter);
    await waitFor(m, 'b tables');
    await m.press('b');
    await waitFor(m, 'Tables of job orders_to_lake #1');
    expect(asked.map((j) => j.id)).toEqual([1]);
    expect(m.frame()).toContain('3 streams, last run 3 h ago (Completed)');
    await waitFor(m, 'public.sessions');
    await m.press(KEY.escape);
    await waitFor(m, 'orders_to_lake #1');
    expect(m.frame()).toContain('Back from the tables of orders_to_lake');
  });

  it('says why a job’s tables cannot be shown', async () => {
    const m = await mount(
      {
        api: new FakeApi([job]),
        prepareTables: async () => ({ problem: 'The OLake UI sent no streams_config for this job' }),
      },
      { columns: 80, rows: 24 },
    );
    await m.press(KEY.enter);
    await waitFor(m, 'b tables');
    await m.press('b');
    await waitFor(m, 'The OLake UI sent no streams_config for this job');
    expect(m.frame()).toContain('orders_to_lake #1');
  });
});
