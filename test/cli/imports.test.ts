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

// Issue 19, 31: `npm run check` (Biome) fails on any import cycle (type imports too) and on domain code
// importing cli/, ui/, app/ or commands/.
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
    const run = spawnSync(BIOME, ['lint', 'src', '--reporter=concise', '--max-diagnostics=none'], {
      cwd: dir,
      encoding: 'utf8',
    });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  }

  it('passes on the project as it is', () => {
    const run = spawnSync(BIOME, ['lint', 'src'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });

  it.each([
    ['', 'export const a = () => b;', 'export const b = () => a;'],
    ['type ', 'export interface A { b?: B }', 'export interface B { a?: A }'],
  ])('fails on a new import cycle (import %s)', (kind, a, b) => {
    const run = lint({
      'src/text/a.ts': `import ${kind}{ ${kind ? 'B' : 'b'} } from './b.js';\n${a}\n`,
      'src/text/b.ts': `import ${kind}{ ${kind ? 'A' : 'a'} } from './a.js';\n${b}\n`,
    });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain('noImportCycles');
  });

  // Every folder of src/ but the four that make up the app (entry, commands, their shared pieces,
  // screens) is domain code, and so is a new one: it is on Biome's restricted list before anyone lists it.
  const APP = ['app', 'cli', 'commands', 'ui'];
  const domain = readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !APP.includes(entry.name))
    .map((entry) => `${entry.name}/`);

  it('knows the domain folders (a folder added to src/ is one)', () => {
    expect(domain).toEqual(expect.arrayContaining(['stack/', 'export/', 'sandbox/', 'check/', 'write/']));
  });

  it('fails when any domain folder (or src/ itself) imports cli/, ui/, commands/ or app/', () => {
    const folders = [...domain, 'newfolder/', 'sandbox/olake-ui/', ''];
    const files = Object.fromEntries(
      folders.map((folder) => {
        const up = '../'.repeat(folder.split('/').length - 1) || './';
        const text = [
          `import { EXIT } from '${up}cli/io.js';`,
          `import { Form } from '${up}ui/setup/Form.js';`,
          `import { HELP } from '${up}commands/test.js';`,
          `import { loadProfile } from '${up}app/profiles.js';`,
          'export const x = [EXIT, Form, HELP, loadProfile];',
          '',
        ].join('\n');
        return [`src/${folder}x.ts`, text];
      }),
    );
    const run = lint(files);
    expect(run.status).not.toBe(0);
    for (const folder of folders) {
      for (const [line, what] of [
        [1, 'cli/'],
        [2, 'ui/'],
        [3, 'commands/'],
        [4, 'app/'],
      ] as const) {
        expect(run.output).toMatch(
          new RegExp(`src/${folder}x\\.ts:${line}:\\d+: .*Domain code does not import ${what}`),
        );
      }
    }
  });

  it('lets the app folders import one another', () => {
    const run = lint({
      'src/commands/x.ts': "import { out } from '../cli/output.js';\nexport const x = out;\n",
      'src/ui/x.ts': "import { out } from '../cli/output.js';\nexport const x = out;\n",
      'src/app/x.ts': "import { out } from '../cli/output.js';\nexport const x = out;\n",
      'src/commands/y.ts': "import { x } from '../app/x.js';\nexport const y = x;\n",
    });
    expect(run.status, run.output).toBe(0);
  });
});
