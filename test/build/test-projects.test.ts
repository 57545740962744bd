// The fast project shares one module graph per worker across its files (vitest.config.ts): a fast test
// file that mocks modules or checks which ones are loaded must be in ISOLATED_TESTS, else it would see
// (or leave) another file's modules. State a module keeps for the process is emptied per file by
// test/setup/shared-graph.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { ISOLATED_TESTS, LONGEST_FIRST, PROCESS_TESTS } from '../setup/process-tests.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every test file under test/, relative to the repository (test/a/b.test.ts). */
function testFiles(dir = 'test'): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const NEEDS_ISOLATION = /\bvi\.(mock|doMock|unmock|resetModules)\(|\.cache\)|require\.cache/;

it('every fast test file that mocks modules or reads the module cache runs isolated', () => {
  const shared = testFiles().filter(
    (file) => !PROCESS_TESTS.includes(file) && !ISOLATED_TESTS.includes(file),
  );
  expect(shared.length).toBeGreaterThan(50);
  const needing = shared.filter((file) => NEEDS_ISOLATION.test(readFileSync(join(ROOT, file), 'utf8')));
  expect(needing, 'list these in ISOLATED_TESTS (test/setup/process-tests.ts)').toEqual([]);
});

it('the isolated and process lists name existing files, once', () => {
  const all = new Set(testFiles());
  for (const file of [...ISOLATED_TESTS, ...PROCESS_TESTS]) expect(all.has(file), file).toBe(true);
  expect(new Set([...ISOLATED_TESTS, ...PROCESS_TESTS]).size).toBe(
    ISOLATED_TESTS.length + PROCESS_TESTS.length,
  );
});

it('the files the sequencer starts first are process files that exist', () => {
  const files = testFiles();
  for (const file of LONGEST_FIRST) {
    expect(files, file).toContain(file);
    expect(PROCESS_TESTS, file).toContain(file);
  }
});
