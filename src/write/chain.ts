// The write check (floe test --write): after the read-only chains, it does what OLake's own check
// and every sync do (datazip-inc/olake destination/iceberg/iceberg.go Check; the Java writer's
// IcebergUtil.createIcebergTable): the namespace, created if missing; a table with OLake's raw
// schema, format v2; one Parquet data file at the table's own location with the profile's storage
// settings; the manifest, the manifest list and an append commit (409 → reload and retry, as
// Iceberg clients do); the table loaded back and the record read back; then the table dropped with
// purge and every object floe wrote removed. A failure or Ctrl-C still cleans up what was made.
import type { Chain } from '../check/chain.js';
import { StepRunner } from '../check/steps.js';
import { WRITE_STEPS, WriteRun, type WriteSteps } from './run.js';
import { cleanup } from './step-cleanup.js';
import { commit } from './step-commit.js';
import { writeData } from './step-data.js';
import { createTable, ensureNamespace } from './step-table.js';
import { verify } from './step-verify.js';

/** The steps in OLake's order; the cleanup runs after them whatever happened. */
const STEPS: WriteSteps = {
  bodies: [
    ['write.namespace', ensureNamespace],
    ['write.table', createTable],
    ['write.data', writeData],
    ['write.commit', commit],
    ['write.verify', verify],
  ],
  cleanup,
};

/**
 * The write chain. It needs the catalog chain's session (shared facts); without one (the catalog
 * check failed) every step is skipped.
 */
export const writeChain: Chain = async (values, opts) => {
  const session = opts.shared?.catalogSession;
  const write = opts.write;
  if (!session || !write) {
    const declared = write?.cleanupOnly ? WRITE_STEPS.filter((s) => s.id === 'write.cleanup') : WRITE_STEPS;
    const steps = new StepRunner({ chain: 'write', steps: declared, emit: opts.emit, signal: opts.signal });
    for (const { id } of declared)
      steps.set(id, opts.signal.aborted ? 'cancelled' : 'skipped', {
        detail: 'not run: the catalog check did not pass',
      });
    return;
  }
  const probe = (await opts.shared?.catalogLocation) ?? null;
  const profileLocation =
    typeof values.fields.dataLocation === 'string' && values.fields.dataLocation
      ? values.fields.dataLocation
      : null;
  const warehouse =
    typeof values.fields.warehouse === 'string' && /^(s3a?|gs):\/\//.test(values.fields.warehouse)
      ? values.fields.warehouse
      : null;
  await new WriteRun(
    values,
    { ...opts, write },
    session,
    profileLocation ?? warehouse ?? probe?.url ?? null,
  ).run(STEPS);
};
