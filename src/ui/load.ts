// Loads a screen module (and Ink with it) with Node's global fetch out of sight. yoga-layout, Ink's
// layout engine, instantiates its embedded WebAssembly through fetch() whenever a global fetch exists,
// and the first touch of Node's fetch loads Node's own bundled undici: about 20 ms on every screen's
// start-up. Without it yoga decodes the embedded module directly. fetch is back once the module loaded.
// In the single executable (one CommonJS file, no top-level await), yoga's module hands out its object
// at once and fills it when the WebAssembly is ready (scripts/build-binary.mjs): awaited here, before
// any screen renders.
export async function loadScreen<T>(load: () => Promise<T>): Promise<T> {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (!descriptor?.configurable) return withYoga(load());
  Reflect.deleteProperty(globalThis, 'fetch');
  try {
    return await withYoga(load());
  } finally {
    Object.defineProperty(globalThis, 'fetch', descriptor);
  }
}

async function withYoga<T>(loading: Promise<T>): Promise<T> {
  const loaded = await loading;
  await (globalThis as Record<symbol, Promise<void> | undefined>)[Symbol.for('floe.yogaReady')];
  return loaded;
}
