// Ctrl-C and SIGTERM during a guarded section (a profile save, the write check): the section is
// aborted and undone or cleaned up, then the process exits. Outside a guarded section, or at a second
// signal, a signal exits at once.
import { err } from './output.js';

const UNDOING_SAVE = 'floe: interrupted; undoing the unfinished save…';
const active = new Map<AbortController, { settled: Promise<unknown>; message: string }>();
let exiting = false;

/**
 * Runs `fn` so that a signal (or `outer` aborting) aborts it and the exit waits until it has settled;
 * `message` is what the signal prints meanwhile.
 */
export async function guarded<T>(
  fn: (signal: AbortSignal, say: (message: string) => void) => Promise<T>,
  outer?: AbortSignal,
  message = UNDOING_SAVE,
): Promise<T> {
  const controller = new AbortController();
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  const section = { settled: Promise.resolve() as Promise<unknown>, message };
  // `say` changes what a signal prints from here on (e.g. once a save is committed, nothing is undone).
  const running = fn(controller.signal, (next) => {
    section.message = next;
  });
  section.settled = running.catch(() => undefined);
  active.set(controller, section);
  try {
    return await running;
  } finally {
    active.delete(controller);
    outer?.removeEventListener('abort', forward);
  }
}

/** Resolves when every guarded section has settled (e.g. a save being undone after Ctrl-C in a screen). */
export async function settled(): Promise<void> {
  await Promise.all([...active.values()].map((section) => section.settled));
}

/** The signal handler: exit now, or abort the guarded sections and exit once they are undone. */
export function onSignal(code: number, exit: (code: number) => void = process.exit): void {
  if (active.size === 0 || exiting) {
    exit(code);
    return;
  }
  exiting = true;
  for (const message of new Set([...active.values()].map((section) => section.message))) err`${message}`;
  for (const controller of active.keys()) controller.abort(new Error('interrupted'));
  void settled().then(() => {
    exiting = false;
    exit(code);
  });
}

/** Waits for the guarded sections still running (after a screen's Ctrl-C), saying what they do. */
export async function finishGuarded(): Promise<void> {
  if (active.size === 0) return;
  for (const message of new Set([...active.values()].map((section) => section.message))) err`${message}`;
  await settled();
}
