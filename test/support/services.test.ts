// Issue 19, item 13: tests skipped for a missing service (../shared/spec, Ceph…) say so, once.
import { describe, expect, it } from 'vitest';
import { announceSkip } from './services.js';

describe('a skipped service', () => {
  it('is announced once, naming what is missing', () => {
    const lines: string[] = [];
    const reason = 'the Iceberg REST OpenAPI spec is not available: the spec is missing at /x/shared/spec/y';
    announceSkip(reason, (line) => lines.push(line));
    announceSkip(reason, (line) => lines.push(line));
    expect(lines).toEqual([`floe tests: skipping the tests that need ${reason}\n`]);
  });
});
