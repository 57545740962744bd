// Gate for tests that need a real service: skip with the reason locally, fail under CI=true.
import { it } from 'vitest';

export const inCI = ['1', 'true'].includes((process.env.CI ?? '').toLowerCase());

/** `it` when the service is ready; otherwise an `it.skip` naming why, or (in CI) a failing test. */
export function itWithService(status: string | undefined, service: string) {
  if (status === 'ready') return it;
  const reason = `${service} is not available: ${status ?? 'not started'}`;
  if (inCI)
    return (name: string, _fn?: unknown) =>
      it(name, () => {
        throw new Error(reason);
      });
  return (name: string, _fn?: unknown) => it.skip(`${name} [${reason}]`);
}
