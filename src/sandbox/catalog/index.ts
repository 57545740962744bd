// The loopback Iceberg REST catalog emulator used by the tests and `floe sandbox`.
export {
  type AccessKey,
  type CatalogAuthMode,
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  type CatalogFault,
  type FaultRoute,
  type OAuthClient,
  type RecordedRequest,
  type ServiceAccount,
  startCatalogEmulator,
} from './emulator.js';
