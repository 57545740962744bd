// The jobs browser acts on every key of one chunk, in order, each on the state the keys before it left.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeApi, KEY, makeJob, mount, selectedRow, unmountAll } from './support.js';

afterEach(() => {
  unmountAll();
});

const api = () =>
  new FakeApi([makeJob(1, { name: 'alpha' }), makeJob(2, { name: 'beta' }), makeJob(3, { name: 'gamma' })]);

describe('jobs browser, keys in one chunk', () => {
  it('moves once per key: "jjk" selects the second job', async () => {
    const m = await mount({ api: api() });
    await m.press('jjk');
    expect(selectedRow(m.frame())).toContain('beta');
  });

  it('opens the filter, types into it and applies it, from one chunk', async () => {
    const m = await mount({ api: api() });
    await m.press(`/gamx${KEY.backspace}ma\rq`);
    expect(m.frame()).toContain('filter: gamma, matched in name 1 (Esc clears)');
    expect(m.exits).toEqual([0]);
  });

  it('quits on a Ctrl-C anywhere in a chunk, after the keys before it', async () => {
    const m = await mount({ api: api() });
    await m.press(`j${KEY.ctrlC}j`);
    expect(selectedRow(m.frame())).toContain('beta');
    expect(m.exits).toEqual([130]);
  });
});
