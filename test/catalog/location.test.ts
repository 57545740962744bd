// Issue 29, item 1: what the catalog chain hands the storage check as its location: the config's default
// location, else the check namespace's `location` property; and, when neither names one, what it asked
// (an unreachable catalog says it was not reached, not that its config named nothing).
import { afterEach, describe, expect, it } from 'vitest';
import { catalogChain } from '../../src/catalog/index.js';
import { type SharedFacts, sharedFacts } from '../../src/check/chain.js';
import { type CatalogEmulator, startCatalogEmulator } from '../../src/sandbox/catalog/index.js';
import { values } from './helpers.js';

let emulator: CatalogEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function settle(catalogUrl: string, namespace?: string[]): Promise<SharedFacts> {
  const shared = sharedFacts();
  await catalogChain(values('none', { catalogUrl, warehouse: 'olake_catalog' }), {
    env: process.env,
    emit: () => {},
    signal: new AbortController().signal,
    timeoutMs: 3000,
    shared,
    ...(namespace ? { write: { namespace, keep: false } } : {}),
  });
  return shared;
}

async function createNamespace(
  emu: CatalogEmulator,
  namespace: string[],
  properties: Record<string, string>,
) {
  const res = await fetch(`${emu.url}/v1/main/namespaces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ namespace, properties }),
  });
  expect(res.status).toBe(200);
}

describe('the location the catalog names', () => {
  it('is the config’s default when it has one', async () => {
    emulator = await startCatalogEmulator({ defaults: { 'default-base-location': 's3://lake/base' } });
    const shared = await settle(emulator.url);
    expect(await shared.catalogLocation).toEqual({
      url: 's3://lake/base',
      property: 'default-base-location',
      from: "catalog's config (defaults.default-base-location)",
    });
  });

  it('else the location property of the check namespace (test_olake, or --namespace)', async () => {
    emulator = await startCatalogEmulator({});
    await createNamespace(emulator, ['test_olake'], { location: 's3://lake/test_olake' });
    await createNamespace(emulator, ['olake'], {});
    await createNamespace(emulator, ['olake', 'checks'], { location: 's3://lake/checks' });
    expect(await (await settle(emulator.url)).catalogLocation).toEqual({
      url: 's3://lake/test_olake',
      property: 'location',
      from: 'location property of namespace test_olake',
    });
    expect((await (await settle(emulator.url, ['olake', 'checks'])).catalogLocation)?.url).toBe(
      's3://lake/checks',
    );
    expect(emulator.requests.map((r) => `${r.method} ${r.url}`)).toContain(
      'GET /v1/main/namespaces/olake%1Fchecks',
    );
  });

  it('else nothing, saying what was asked', async () => {
    emulator = await startCatalogEmulator({});
    await createNamespace(emulator, ['bare'], {});
    expect(await (await settle(emulator.url, ['bare'])).catalogLocation).toBeNull();
    const missing = await settle(emulator.url);
    expect(await missing.catalogLocation).toBeNull();
    expect(missing.locationTried).toEqual([
      'the catalog’s config names no location (no default-base-location, warehouse, location in its defaults or overrides)',
      'namespace test_olake does not exist',
    ]);
    const bare = await settle(emulator.url, ['bare']);
    expect(bare.locationTried.at(-1)).toBe('namespace bare has no location property');
  });

  it('an unreachable catalog says it was not reached, not that its config named no location', async () => {
    const shared = await settle('http://127.0.0.1:9/catalog');
    expect(await shared.catalogLocation).toBeNull();
    expect(shared.locationTried).toEqual([
      'the catalog was not reached (“Connect to the catalog” failed), so neither its config nor a namespace could be asked for a location',
    ]);
  });
});
