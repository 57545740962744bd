// The loopback Iceberg REST catalog emulator used by the tests and `floe sandbox`.
export {
  type AccessKey,
  type CatalogAuthMode,
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  type CatalogFault,
  type CatalogFlavour,
  DEFAULT_ENDPOINTS,
  type FaultRoute,
  type GcsStoreOptions,
  type OAuthClient,
  type ObjectStoreOptions,
  type Privilege,
  type RecordedRequest,
  type ServiceAccount,
  startCatalogEmulator,
} from './emulator.js';
export {
  CATALOG_FLAVOURS,
  DEFAULT_WAREHOUSES,
  javaUrlEncode,
  lakekeeperWarehouseId,
  PRIVILEGES,
} from './flavours/index.js';
export { POLARIS_PURGE_PROPERTY } from './flavours/polaris.js';
