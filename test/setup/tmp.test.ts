import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('puts every temporary folder of the run under the root the global teardown removes', () => {
  const root = process.env.FLOE_TEST_TMP;
  expect(root).toMatch(/floe-test-run-/);
  expect(tmpdir()).toBe(root);
  expect(mkdtempSync(join(tmpdir(), 'floe-probe-')).startsWith(`${root}/`)).toBe(true);
});
