// The loopback Iceberg REST catalog emulator used by the tests and `floe sandbox`.
export {
  type AccessKey,
  type CatalogAuthMode,
  type CatalogEmulator,
  type CatalogEmulatorOptions,
  type CatalogFault,
  type CatalogFlavour,
  type FaultRoute,
  type OAuthClient,
  type RecordedRequest,
  type ServiceAccount,
  startCatalogEmulator,
} from './emulator.js';
export { CATALOG_FLAVOURS, DEFAULT_WAREHOUSES, javaUrlEncode, lakekeeperWarehouseId } from './flavours.js';
