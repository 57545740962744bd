// The OLake UI emulator, used by the tests and by `floe sandbox`.

export { type EmulatorJob, type EmulatorTask, seedJobs } from './seed.js';
export {
  type ConnectionCheck,
  checkIcebergConfig,
  type EmulatorDestination,
  type Fault,
  type FaultOptions,
  type OlakeUiEmulator,
  type OlakeUiEmulatorOptions,
  type RecordedRequest,
  startOlakeUiEmulator,
} from './server.js';
