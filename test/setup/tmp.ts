// Vitest global setup: one temporary root per run. Every tmpdir() of the run — tests, the CLI
// they spawn, the sandbox, Ceph RGW, the keyring's HOME — lands under it (workers and their
// children inherit TMPDIR), and the teardown removes it, so `npm test` leaves no folder behind.
// Listed first in vitest.config.ts, so its teardown runs last.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'floe-test-run-'));
  process.env.TMPDIR = root;
  process.env.FLOE_TEST_TMP = root;
  return () => rmSync(root, { recursive: true, force: true });
}
