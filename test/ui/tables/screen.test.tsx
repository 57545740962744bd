// The tables screen drawn at 80x24 over a fake source: rows as they arrive, sort and filter, the detail
// read when a table is opened (and dropped when it is left), the maintenance lines whole (for copying),
// the key hints on every view, Esc one level back, Ctrl-C leaving as an interrupt.
import { afterEach, describe, expect, it } from 'vitest';
import type { TableRef, TableRow } from '../../../src/tables/index.js';
import { TablesBrowser } from '../../../src/ui/tables/TablesBrowser.js';
import type { TablesSource } from '../../../src/ui/tables/useTables.js';
import { expectFits, KEY, type Rendered, renderScreen, waitUntil } from '../setup/support.js';
import { detailOf, NOW, ROWS } from './support.js';

let screen: Rendered | undefined;
afterEach(async () => {
  await screen?.unmount();
  screen = undefined;
});

function fakeSource(rows: TableRow[] = ROWS) {
  const shown: TableRef[] = [];
  const aborted: string[] = [];
  let release: () => void = () => {};
  const listed = new Promise<void>((resolve) => {
    release = resolve;
  });
  const source: TablesSource = {
    title: 'Tables of profile "sandbox"',
    subtitle: 'Every namespace of the catalog',
    now: () => NOW,
    async list(onRow) {
      onRow(rows[0]!);
      await listed;
      for (const r of rows.slice(1)) onRow(r);
      return { rows, warnings: [] };
    },
    show(ref, onProgress, signal) {
      shown.push(ref);
      onProgress(1, 3);
      signal.addEventListener('abort', () => aborted.push(ref.name));
      const r = rows.find((x) => x.name === ref.name)!;
      return new Promise((resolve) => setImmediate(() => resolve(detailOf(r))));
    },
  };
  return { source, shown, aborted, release };
}

describe('tables screen', () => {
  it('home → tables → detail → maintenance and back, at 80x24', async () => {
    const fake = fakeSource();
    const exits: boolean[] = [];
    screen = await renderScreen(<TablesBrowser source={fake.source} onExit={(i) => exits.push(i)} />);
    await waitUntil(() => screen!.text().includes('public.orders'));
    // The first row is on screen before the list is complete.
    expect(screen.text()).toContain('Reading… 1 of 1 tables');
    fake.release();
    await waitUntil(() => screen!.text().includes('3 of 3 tables'));
    const list = screen.frame();
    expect(list).toMatch(/TABLE +LAST COMMIT +RECORDS +FILES +AVG FILE +PROBLEMS/);
    expect(list).toMatch(/public\.sessions +1 h ago +450 +150 +976\.6 KiB {2}MANY_SNAPSHOTS$/m);
    expect(screen.text()).toContain('↑/↓ select Enter detail / filter s sort R reload Esc back');
    // The cursor stays on the first table read (orders) while the others arrive around it.
    expect(list).toContain('› public.orders');

    await screen.press(KEY.down, KEY.enter);
    expect(fake.shown).toEqual([{ namespace: ['public'], name: 'sessions' }]);
    await waitUntil(() => screen!.text().includes('Exact, from the manifests'));
    await waitUntil(() => screen!.text().includes('Snapshots 150'));
    expect(screen.text()).toContain('Table public.sessions');
    expect(screen.text()).toContain('m maintenance Esc back');

    await screen.press('m');
    await waitUntil(() => screen!.text().includes('Maintenance to paste'));
    // Whole statements: wrapped, never cut, so a selection copies them.
    expect(screen.text()).toContain(
      "CALL olake.system.expire_snapshots(table => 'public.sessions', older_than => TIMESTAMP '2026-08-15 12:00:00', retain_last => 1);",
    );
    expect(screen.frame()).not.toContain('…');

    await screen.press(KEY.esc);
    await waitUntil(() => screen!.text().includes('Exact, from the manifests'));
    await screen.press(KEY.esc);
    await waitUntil(() => screen!.text().includes('3 of 3 tables'));
    expect(fake.aborted).toEqual(['sessions']);
    expect(exits).toEqual([]);
    await screen.press(KEY.esc);
    expect(exits).toEqual([false]);
    expectFits(screen.frames());
  });

  it('sorts and filters like the jobs list', async () => {
    const fake = fakeSource();
    fake.release();
    screen = await renderScreen(<TablesBrowser source={fake.source} onExit={() => {}} />);
    await waitUntil(() => screen!.text().includes('3 of 3 tables, by name'));
    await screen.press('s');
    expect(screen.text()).toContain('by last-commit');
    const rows = screen
      .frame()
      .split('\n')
      .filter((l) => l.includes('public.'));
    expect(rows.map((l) => /public\.(\w+)/.exec(l)![1])).toEqual(['sessions', 'customers', 'orders']);
    await screen.press('/', 'o', 'r', 'd');
    expect(screen.text()).toContain('Filter: ord');
    expect(screen.text()).toContain('Enter keep filter Esc clear');
    await screen.press(KEY.enter);
    expect(screen.text()).toContain('1 of 3 tables, by last-commit, filter "ord"');
    expect(screen.frame()).not.toContain('public.sessions');
    expectFits(screen.frames());
  });

  it('says why the list failed, and leaves on Ctrl-C as an interrupt', async () => {
    const exits: boolean[] = [];
    const source: TablesSource = {
      ...fakeSource().source,
      list: async () => {
        throw new Error('HTTP 403 Forbidden');
      },
    };
    screen = await renderScreen(<TablesBrowser source={source} onExit={(i) => exits.push(i)} />);
    await waitUntil(() => screen!.text().includes('Could not list the tables: HTTP 403 Forbidden'));
    await screen.press(KEY.ctrlC);
    expect(exits).toEqual([true]);
  });
});
