// The entry (src/cli/main.ts) is imported by nothing, so no module can close an import circle
// through it; the command table lives in src/cli/commands.ts, which imports no command.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Relative imports of a file, static and dynamic, as src-relative .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1] as string);
  return specs.map((spec) => {
    const target = relative(SRC, resolve(file, '..', spec)).replace(/\.js$/, '');
    return sources(SRC).some((f) => relative(SRC, f) === `${target}.tsx`) ? `${target}.tsx` : `${target}.ts`;
  });
}

describe('module structure', () => {
  const graph = new Map(sources(SRC).map((file) => [relative(SRC, file), importsOf(file)]));

  it('no module imports the entry src/cli/main.ts', () => {
    const importers = [...graph].filter(([, deps]) => deps.includes('cli/main.ts')).map(([file]) => file);
    expect(importers).toEqual([]);
  });

  it('the command table imports only the command modules it loads', () => {
    expect(graph.get('cli/commands.ts')?.every((dep) => dep.startsWith('commands/'))).toBe(true);
  });
});
