// At most `n` requests in flight: every catalog request and object read of `floe tables` takes a slot
// (only the requests themselves, never the tasks that wait on them, so no task can starve another).

export type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

export function limiter(n: number): Limit {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    // A released slot passes straight to the next waiter, so no newcomer can slip in between.
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
