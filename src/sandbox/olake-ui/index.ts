// The OLake UI emulator, used by the tests and by `floe sandbox`.

export { type ConnectionCheck, checkIcebergConfig } from './check.js';
export { logFile, pageLogs } from './logs.js';
export {
  type EmulatorJob,
  type EmulatorTask,
  EXAMPLE_DESTINATION,
  HUGE_JOB_ID,
  HUGE_JOB_STREAMS,
  LEGACY_FREQUENCY_JOB_ID,
  type SeedOptions,
  seedJobs,
  streamsConfig,
} from './seed.js';
export {
  type EmulatorDestination,
  type Fault,
  type FaultOptions,
  type OlakeUiEmulator,
  type OlakeUiEmulatorOptions,
  type RecordedRequest,
  startOlakeUiEmulator,
} from './server.js';
