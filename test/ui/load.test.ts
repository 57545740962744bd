// loadScreen hides Node's fetch while a screen module loads (so yoga-layout takes its synchronous
// WebAssembly path) and always puts it back, also when the load fails.
import { describe, expect, it } from 'vitest';
import { loadScreen } from '../../src/ui/load.js';

describe('loadScreen', () => {
  it('loads without a global fetch, then fetch is back as it was', async () => {
    const before = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
    const seen = await loadScreen(async () => typeof (globalThis as { fetch?: unknown }).fetch);
    expect(seen).toBe('undefined');
    expect(Object.getOwnPropertyDescriptor(globalThis, 'fetch')).toEqual(before);
    expect(typeof fetch).toBe('function');
  });

  it('puts fetch back when the load fails', async () => {
    await expect(loadScreen(() => Promise.reject(new Error('no such module')))).rejects.toThrow(
      'no such module',
    );
    expect(typeof fetch).toBe('function');
  });

  it('loads Ink that way', async () => {
    const { render, Text } = await loadScreen(() => import('ink'));
    expect(typeof render).toBe('function');
    expect(typeof Text).toBe('function');
  });
});
