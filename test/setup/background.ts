// The process project's slow set-ups run while the fast projects do: its global setups start them
// in the background and return at once. Each publishes what it gives (environment values: an
// endpoint, "ready", or why it is missing) to a file under the run's root, and the main process takes
// the values too, for the workers it starts later. test/setup/services.ts waits in each
// process-project worker for every published file before its test files load.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What the process project's global setups start in the background. */
export const BACKGROUND = ['ceph', 'single-file'] as const;
export type Background = (typeof BACKGROUND)[number];

function file(name: Background): string {
  return join(process.env.FLOE_TEST_TMP ?? tmpdir(), 'floe-setup', `${name}.json`);
}

/** Sets `env` here and publishes it for the workers (written whole: a temporary file, renamed). */
export function publish(name: Background, env: Record<string, string>): void {
  Object.assign(process.env, env);
  const path = file(name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(env));
  renameSync(`${path}.tmp`, path);
}

/** The values `name` published, once it has (a set-up that never publishes fails the file loading). */
export async function published(name: Background, timeoutMs = 600_000): Promise<Record<string, string>> {
  const path = file(name);
  for (let waited = 0; !existsSync(path); waited += 100) {
    if (waited > timeoutMs) throw new Error(`the ${name} set-up published nothing within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
}
