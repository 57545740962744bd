// A run's log built to make a backtracking rule slow: the failures test reads it to its end, and
// `npm run bench` times the diagnosis of it.
import type { LogLine } from '../../src/management/types.js';

/** 2,000 error lines (37 MB), each a long run of what some rule of management/failures/ looks for. */
export function hostileRunLog(): LogLine[] {
  const hostile = [
    `Forbidden: ${'a'.repeat(100_000)}`,
    `${'Not authorized '.repeat(5000)}`,
    `Iceberg[50051] 10:00:00.000 [${'['.repeat(5000)}`,
    `${'s3://'.repeat(10_000)}`,
    `User: ${'arn:'.repeat(10_000)}`,
  ];
  return Array.from({ length: 2000 }, (_, i) => ({
    level: 'error',
    time: 't',
    message: hostile[i % hostile.length] as string,
  }));
}
