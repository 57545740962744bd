// Gate for tests that need a real service: skip with the reason locally, fail under CI=true.
import { it } from 'vitest';

export const inCI = ['1', 'true'].includes((process.env.CI ?? '').toLowerCase());

const told = new Set<string>();

/**
 * Says once, on stderr, which tests are skipped and why (the default reporter lists no skipped test's
 * name, so a missing ../shared/spec skipped 14 tests silently). Returns the line.
 */
export function announceSkip(reason: string, write: (line: string) => void = (l) => process.stderr.write(l)) {
  const line = `floe tests: skipping the tests that need ${reason}\n`;
  if (!told.has(reason)) {
    told.add(reason);
    write(line);
  }
  return line;
}

/** `it` when the service is ready; otherwise an `it.skip` naming why, or (in CI) a failing test. */
export function itWithService(status: string | undefined, service: string) {
  if (status === 'ready') return it;
  const reason = `${service} is not available: ${status ?? 'not started'}`;
  if (!inCI) announceSkip(reason);
  if (inCI)
    return (name: string, _fn?: unknown) =>
      it(name, () => {
        throw new Error(reason);
      });
  return (name: string, _fn?: unknown) => it.skip(`${name} [${reason}]`);
}
