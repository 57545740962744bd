// The process project's slow set-ups run while the fast projects do: its global setups start them
// in the background and return at once. Each publishes what it gives (environment values: an
// endpoint, "ready", or why it is missing) to a file under the run's root, and the main process takes
// the values too, for the workers it starts later. A worker waits for a set-up with `ready(name)`
// before it reads its values: test/setup/services.ts for Ceph (before every process file), the files
// that run the single executable for it.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What the process project's global setups start in the background. */
export type Background = 'ceph' | 'single-file';

function file(name: Background): string {
  return join(process.env.FLOE_TEST_TMP ?? tmpdir(), 'floe-setup', `${name}.json`);
}

/** Writes `value` as JSON to `path` whole (a temporary file, renamed): a reader never sees half of it. */
export function writeWhole(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(value));
  renameSync(`${path}.tmp`, path);
}

/** Waits until another process has written `path` (whole, writeWhole); false after `timeoutMs`. */
export async function waitForFile(path: string, timeoutMs: number): Promise<boolean> {
  for (let waited = 0; !existsSync(path); waited += 100) {
    if (waited > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** Sets `env` here and publishes it for the workers. */
export function publish(name: Background, env: Record<string, string>): void {
  Object.assign(process.env, env);
  writeWhole(file(name), env);
}

/**
 * Waits until `name` has published, then sets its values in this process (a set-up that never
 * publishes fails the file loading).
 */
export async function ready(name: Background, timeoutMs = 600_000): Promise<void> {
  const path = file(name);
  if (!(await waitForFile(path, timeoutMs)))
    throw new Error(`the ${name} set-up published nothing within ${timeoutMs} ms`);
  Object.assign(process.env, JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>);
}
