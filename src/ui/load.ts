// Loads a screen module (and Ink with it) with Node's global fetch out of sight. yoga-layout, Ink's
// layout engine, instantiates its embedded WebAssembly through fetch() whenever a global fetch exists,
// and the first touch of Node's fetch loads Node's own bundled undici: about 20 ms on every screen's
// start-up. Without it yoga decodes the embedded module directly. fetch is back once the module loaded.
export async function loadScreen<T>(load: () => Promise<T>): Promise<T> {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (!descriptor?.configurable) return load();
  Reflect.deleteProperty(globalThis, 'fetch');
  try {
    return await load();
  } finally {
    Object.defineProperty(globalThis, 'fetch', descriptor);
  }
}
