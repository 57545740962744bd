// Ctrl-C and SIGTERM during a profile save: the save is aborted and undone, then the process exits.
// Outside a guarded section a signal exits at once.

const active = new Map<AbortController, Promise<unknown>>();

/** Runs `fn` so that a signal (or `outer` aborting) aborts it and the exit waits until it has settled. */
export async function guarded<T>(fn: (signal: AbortSignal) => Promise<T>, outer?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  const running = fn(controller.signal);
  active.set(
    controller,
    running.catch(() => undefined),
  );
  try {
    return await running;
  } finally {
    active.delete(controller);
    outer?.removeEventListener('abort', forward);
  }
}

/** Resolves when every guarded section has settled (e.g. a save being undone after Ctrl-C in a screen). */
export async function settled(): Promise<void> {
  await Promise.all(active.values());
}

/** The signal handler: exit now, or abort the guarded sections and exit once they are undone. */
export function onSignal(code: number, exit: (code: number) => void = process.exit): void {
  if (active.size === 0) {
    exit(code);
    return;
  }
  process.stderr.write('floe: interrupted; undoing the unfinished save…\n');
  for (const controller of active.keys()) controller.abort(new Error('interrupted'));
  void settled().then(() => exit(code));
}
