// The object-store half of the connection test.
export { storageChain } from './chain.js';
export {
  STORAGE_DIAGNOSES,
  STORAGE_STEPS,
  type StorageDiagnosisCode,
  type StorageStepId,
} from './diagnoses.js';
