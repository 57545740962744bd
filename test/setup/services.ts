// Process-project setup file: waits for the Ceph cluster the global setup started in the background
// (test/setup/background.ts) and takes what it published (FLOE_TEST_CEPH) before a test file reads it.
// The files that run the single executable wait for it themselves (test/artifact/targets.ts,
// test/binary/binary.test.ts), so that other files need not wait for its build.
import { ready } from './background.js';

await ready('ceph');
