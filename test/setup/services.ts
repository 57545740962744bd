// Process-project setup file: waits for what the global setups started in the background (Ceph, the
// single executable; test/setup/background.ts) and takes the values they published, before a test
// file reads them (FLOE_TEST_CEPH, FLOE_TEST_SINGLE_FILE).
import { BACKGROUND, published } from './background.js';

for (const name of BACKGROUND) Object.assign(process.env, await published(name));
