// The write check (floe test --write).
export { OLAKE_CHECK_NAMESPACE, WRITE_STEPS, writeChain } from './chain.js';
export { WRITE_DIAGNOSES, type WriteDiagnosisCode } from './diagnoses.js';
