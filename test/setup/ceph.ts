// Vitest global setup: one throwaway Ceph cluster with an S3 gateway (radosgw) per test run, started in
// the background (test/setup/background.ts) while the fast projects run. Tests read FLOE_TEST_CEPH: the
// cluster's endpoint and users as JSON, or the reason it is missing (tests skip locally, fail under
// CI=true).
import { CEPH_PACKAGES, type CephInfo, missingCephBinaries, startCeph } from '../support/ceph.js';
import { publish } from './background.js';

async function start(): Promise<(() => Promise<void>) | undefined> {
  // Set beforehand, it is kept: a reason to skip (FLOE_TEST_CEPH=off), or another cluster's JSON.
  if (process.env.FLOE_TEST_CEPH) {
    publish('ceph', { FLOE_TEST_CEPH: process.env.FLOE_TEST_CEPH });
    return undefined;
  }
  const missing = missingCephBinaries();
  if (missing.length > 0) {
    publish('ceph', {
      FLOE_TEST_CEPH: `missing ${missing.join(', ')} (apt-get install ${CEPH_PACKAGES.join(' ')})`,
    });
    return undefined;
  }
  let reason = '';
  // A second try covers a loopback port taken between choosing it and the daemon binding it.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const { stop, ...info } = await startCeph();
      publish('ceph', { FLOE_TEST_CEPH: JSON.stringify(info satisfies CephInfo) });
      return stop;
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
  }
  publish('ceph', { FLOE_TEST_CEPH: `Ceph did not start: ${reason}` });
  return undefined;
}

export default function setup(): () => Promise<void> {
  const started = start();
  return async () => {
    await (await started)?.();
  };
}
