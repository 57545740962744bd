// The entry (src/cli/main.ts) is imported by nothing, so no module can close an import circle
// through it; the command table lives in src/cli/commands.ts, which imports no command.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

  it('the command table imports only the command modules it loads, and the usage text', () => {
    expect(
      graph.get('cli/commands.ts')?.every((dep) => dep.startsWith('commands/') || dep === 'cli/usage.ts'),
    ).toBe(true);
  });

  it('only the entry imports the command table (no command closes a circle through it)', () => {
    const importers = [...graph].filter(([, deps]) => deps.includes('cli/commands.ts')).map(([file]) => file);
    expect(importers).toEqual(['cli/main.ts']);
  });
});

// Issue 19: `npm run check` (Biome) fails on any import cycle and on domain code importing cli/ or ui/.
describe('the import rules of npm run check', { timeout: 60_000 }, () => {
  const ROOT = resolve(import.meta.dirname, '../..');
  const BIOME = join(ROOT, 'node_modules/.bin/biome');

  /** Biome's lint, with the project's biome.json, over `files` written in a fresh folder. */
  function lint(files: Record<string, string>): { status: number | null; output: string } {
    const dir = mkdtempSync(join(tmpdir(), 'floe-imports-'));
    const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8')) as Record<string, unknown>;
    delete config.$schema;
    writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const run = spawnSync(BIOME, ['lint', 'src'], { cwd: dir, encoding: 'utf8' });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  }

  it('passes on the project as it is', () => {
    const run = spawnSync(BIOME, ['lint', 'src'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });

  it('fails on a new import cycle', () => {
    const run = lint({
      'src/text/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'src/text/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
    });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('noImportCycles');
  });

  it.each(['destination', 'config', 'secrets', 'catalog', 'storage', 'check', 'management', 'write'])(
    'fails when %s/ imports cli/ or ui/',
    (folder) => {
      const run = lint({
        [`src/${folder}/x.ts`]:
          "import { EXIT } from '../cli/io.js';\nimport { Form } from '../ui/setup/Form.js';\nexport const x = [EXIT, Form];\n",
      });
      expect(run.status).not.toBe(0);
      expect(run.output).toContain('Domain code does not import cli/');
      expect(run.output).toContain('Domain code does not import ui/');
    },
  );
});
