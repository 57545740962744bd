// Setup file of the fast project, whose workers keep one module graph from test file to test file
// (vitest.config.ts): what a module keeps for the rest of a process starts empty in each file.
import { beforeAll } from 'vitest';
import { takeHandedOver } from '../../src/ui/components/useKeys.js';

beforeAll(() => {
  // Keys an earlier file's screen handed to "the next screen" (useKeys.ts) are not this file's.
  takeHandedOver();
});
