// How each real REST catalog behaves, one file per server, modelled on the servers' own source
// (named beside each behaviour): /v1/config, the prefixes it routes, where a new table goes, how it
// refuses a denied privilege and how it answers a failed metadata write. `rest` (rest.ts) is the
// generic fixture: its config and prefix come from the emulator's options.
import { biglake } from './biglake.js';
import { glue } from './glue.js';
import { lakekeeper } from './lakekeeper.js';
import type { FlavourModel } from './model.js';
import { nessie } from './nessie.js';
import { polaris } from './polaris.js';
import { s3tables } from './s3tables.js';
import { unity } from './unity.js';

export {
  type Denial,
  type FlavourContext,
  type FlavourError,
  type Messages,
  type Operation,
  PRIVILEGES,
  PRIVILEGES_OF,
  type Privilege,
  type StorageFailure,
  type TableRules,
} from './model.js';
export { REST_RULES } from './rest.js';
export { isRouteHead, javaUrlEncode, lakekeeperWarehouseId } from './shared.js';

export const CATALOG_FLAVOURS = [
  'rest',
  'polaris',
  'lakekeeper',
  'nessie',
  'unity',
  'glue',
  's3tables',
  'biglake',
] as const;
export type CatalogFlavour = (typeof CATALOG_FLAVOURS)[number];

export const FLAVOURS: Record<Exclude<CatalogFlavour, 'rest'>, FlavourModel> = {
  polaris,
  lakekeeper,
  nessie,
  unity,
  glue,
  s3tables,
  biglake,
};

/** The warehouse a flavour's sandbox and tests use when none is given. */
export const DEFAULT_WAREHOUSES: Record<Exclude<CatalogFlavour, 'rest'>, string> = {
  polaris: 'olake_catalog',
  lakekeeper: 'demo',
  nessie: 'warehouse',
  unity: 'unity',
  glue: '123456789012',
  s3tables: 'arn:aws:s3tables:us-east-1:123456789012:bucket/warehouse',
  biglake: 'gs://warehouse',
};
