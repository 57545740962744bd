// The write check (floe test --write).
export { WRITE_STEPS, writeChain } from './chain.js';
export { WRITE_DIAGNOSES, type WriteDiagnosisCode } from './diagnoses.js';
export { OLAKE_CHECK_NAMESPACE } from './names.js';
