// Issue 28, item 1: every lazily imported package goes through src/lazy.ts, which takes its exports from
// the namespace or its `default` (a CommonJS package bundled by esbuild arrives under `default`: the
// sandbox's "S3Client is not a constructor"). Any other dynamic import of a package in src/ fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { exportsOf } from '../../src/lazy.js';

const SRC = resolve(import.meta.dirname, '../../src');
const LOADER = 'lazy.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

/** `import(...)` calls and `require(...)` calls of `text` whose argument is not a relative path (type queries aside). */
function packageLoads(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const dynamic = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const required = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      const [arg] = node.arguments;
      if ((dynamic || required) && !(arg && ts.isStringLiteralLike(arg) && /^\.{1,2}\//.test(arg.text)))
        found.push(`${relative(SRC, file)}: ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('lazily imported packages', () => {
  it('src/ imports a package dynamically only in src/lazy.ts', () => {
    const offenders = sources(SRC)
      .filter((file) => relative(SRC, file) !== LOADER)
      .flatMap((file) => packageLoads(file, readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the check finds a dynamic import of a package, a computed one and a require, not a relative import or a type', () => {
    const text = [
      "const a = await import('@aws-sdk/client-s3');",
      'const b = await import(name);',
      "const c = require('yaml');",
      "const d = await import('./files.js');",
      "type S3 = typeof import('@aws-sdk/client-s3');",
    ].join('\n');
    expect(packageLoads(join(SRC, 'x.ts'), text)).toEqual([
      "x.ts: import('@aws-sdk/client-s3')",
      'x.ts: import(name)',
      "x.ts: require('yaml')",
    ]);
  });

  it('the loader imports each package with a literal specifier (esbuild bundles only those)', () => {
    const loads = packageLoads(join(SRC, LOADER), readFileSync(join(SRC, LOADER), 'utf8'));
    expect(loads.length).toBeGreaterThan(0);
    for (const load of loads) expect(load).toMatch(/: import\('[^']+'\)$/);
  });
});

describe('exportsOf: a package whichever way its import arrived', () => {
  class S3Client {}
  const has = (c: Record<string, unknown>) => typeof c.S3Client === 'function';

  it('an ESM namespace, or Node naming a CommonJS package’s exports: the namespace itself', () => {
    const namespace = { S3Client, default: { S3Client } };
    expect(exportsOf('p', namespace, has)).toBe(namespace);
  });

  it('an esbuild bundle giving module.exports only as default: the default', () => {
    const exports = { S3Client };
    expect(exportsOf('p', { default: exports }, has)).toBe(exports);
  });

  it('a package whose module.exports is a class: the class, from the namespace or as it is', () => {
    const isClass = (c: unknown) => typeof c === 'function';
    expect(exportsOf('s3rver', { default: S3Client }, isClass)).toBe(S3Client);
    expect(exportsOf('s3rver', S3Client, isClass)).toBe(S3Client);
  });

  it('neither has the exports: an error naming the package', () => {
    expect(() => exportsOf('@aws-sdk/client-s3', { default: {} }, has)).toThrow(
      'the package @aws-sdk/client-s3 loaded without the exports floe uses from it',
    );
    expect(() => exportsOf('p', undefined, has)).toThrow('the package p loaded');
  });
});
