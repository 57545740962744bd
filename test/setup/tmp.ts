// Vitest global setup: one temporary root per run. Every tmpdir() of the run — tests, the CLI
// they spawn, the sandbox, Ceph RGW, the keyring's HOME — lands under it (workers and their
// children inherit TMPDIR), and the teardown removes it, so `npm test` leaves no folder behind.
// HOME too (keyring.ts gives the process project its own): no test reads or writes a developer's.
// Listed first in vitest.config.ts, so its teardown runs last.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // The projects of vitest.config.ts inherit this setup: the first run makes the root, the others keep it
  // (nested roots made paths long enough to wrap on an 80-column screen).
  if (process.env.FLOE_TEST_TMP) return () => {};
  const root = mkdtempSync(join(tmpdir(), 'floe-test-run-'));
  process.env.TMPDIR = root;
  process.env.FLOE_TEST_TMP = root;
  const home = join(root, 'home');
  mkdirSync(home);
  Object.assign(process.env, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
  });
  return () => rmSync(root, { recursive: true, force: true });
}
