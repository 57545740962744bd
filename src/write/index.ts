// The write check (floe test --write).
export { writeChain } from './chain.js';
export { WRITE_DIAGNOSES, type WriteDiagnosisCode } from './diagnoses.js';
export { WRITE_STEPS } from './run.js';
